'use strict';

/** An operation refused its input; `kind` is what the vectors compare. */
class PortError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

/** The input does not have the operation's shape. */
function badRequest(message) {
  return new PortError('bad_request', message);
}

/** `input[field]` as a string, or a bad_request naming the field. */
function stringField(input, field, where = 'input') {
  const value = input[field];
  if (typeof value !== 'string') {
    throw badRequest(`${where}.${field} is not a string`);
  }
  return value;
}

/** The case's input as an object, or a bad_request. */
function inputObject(input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest('input is not an object');
  }
  return input;
}

module.exports = { PortError, badRequest, stringField, inputObject };
