'use strict';
// JSON writing that keeps a number's type: the runner compares outputs as
// JSON values in which an integer and a float are different values (1 is
// not 1.0), and an integer may exceed what a double holds exactly
// (9223372036854775807). JSON.stringify can do neither, so coerced
// metadata numbers are carried as JsonInteger / JsonFloat and written
// here.

/** An integer, kept as its exact decimal digits. */
class JsonInteger {
  constructor(bigint) {
    this.value = bigint;
  }
}

/** A finite float, always written so that a reader sees a float. */
class JsonFloat {
  constructor(number) {
    if (!Number.isFinite(number)) {
      throw new RangeError(`JSON has no ${number}`);
    }
    this.value = number;
  }
}

function floatText(number) {
  if (Object.is(number, -0)) {
    return '-0.0';
  }
  // String() gives the shortest text that reads back as the same double
  // ("1e+21", "0.1", "1000"); an integral one needs a fraction to stay a
  // float.
  const text = String(number);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

function write(value) {
  if (value === null) {
    return 'null';
  }
  if (value instanceof JsonInteger) {
    return value.value.toString();
  }
  if (value instanceof JsonFloat) {
    return floatText(value.value);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) {
        throw new RangeError(`JSON has no ${value}`);
      }
      return String(value);
    case 'bigint':
      return value.toString();
    default:
      break;
  }
  if (Array.isArray(value)) {
    return `[${value.map(write).join(',')}]`;
  }
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${write(item)}`).join(',')}}`;
}

module.exports = { JsonInteger, JsonFloat, write };
