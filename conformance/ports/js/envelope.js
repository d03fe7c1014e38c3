'use strict';
// The web suite's envelope operation: a sanitized body wrapped in
//   <untrusted_content src="S" sanitized_at="TIME" removed_patterns="L1,L2">
//   BODY
//   </untrusted_content>
// Written from conformance/PROTOCOL.md ("The web suite") and the
// description and notes of conformance/vectors/envelope.json; README.md
// lists what those left open and where it was settled.

const { envelopeClass } = require('./reference_data');
const { PortError, badRequest, stringField, inputObject } = require('./port_error');

const TAG = 'untrusted_content';

// The escape no reader of PROTOCOL.md's "The envelope's readers" undoes
// (an HTML entity would be undone by a reader that decodes once more).
const ESCAPE_OPEN = '\u27e6';
const ESCAPE_CLOSE = '\u27e7';

function neutralised(c) {
  if (c === '<') return `${ESCAPE_OPEN}lt${ESCAPE_CLOSE}`;
  if (c === '&') return `${ESCAPE_OPEN}amp${ESCAPE_CLOSE}`;
  const hex = c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `${ESCAPE_OPEN}U+${hex}${ESCAPE_CLOSE}`;
}

// ---------------------------------------------------------------------------
// Attribute values

/** Printable ASCII but the characters that end a value or a tag, open a
 * reference, or (in the label list) split it. */
function attributeKeeps(c, inList) {
  const code = c.codePointAt(0);
  if (code < 0x20 || code > 0x7e) return false;
  if ('"\'`<>&'.includes(c)) return false;
  return !(inList && c === ',');
}

/** `value` escaped for an attribute; in the label list a comma is escaped
 * too, so that the list splits at its own commas only. */
function escapeAttribute(value, inList) {
  let out = '';
  for (const c of value) {
    out += attributeKeeps(c, inList) ? c : neutralised(c);
  }
  return out;
}

// ---------------------------------------------------------------------------
// The body

/** Whether a tag name follows the opener at `chars[at]` walking by `step`
 * (+1 after it, -1 before it): the first character outside `dropped` reads
 * as `u`, or as `/` with the next such one reading as `u`. An opener or an
 * `always` character ends the walk with no name, dropped or not. */
function nameFollows(codes, at, step) {
  let afterSlash = false;
  for (let i = at + step; i >= 0 && i < codes.length; i += step) {
    const code = codes[i];
    if (envelopeClass.readsU(code)) return true;
    const stops = envelopeClass.opener(code) || envelopeClass.always(code);
    if (stops) return false;
    if (envelopeClass.dropped(code)) continue;
    if (envelopeClass.readsSlash(code) && !afterSlash) {
      afterSlash = true;
      continue;
    }
    return false;
  }
  return false;
}

/** The body with every `always` character and every opener a tag name
 * follows (in either order) neutralised, and every other `<` as `&lt;`. */
function escapeBody(body) {
  const chars = Array.from(body);
  const codes = chars.map((c) => c.codePointAt(0));
  let out = '';
  for (let i = 0; i < chars.length; i += 1) {
    const code = codes[i];
    if (
      envelopeClass.always(code) ||
      (envelopeClass.opener(code) && (nameFollows(codes, i, 1) || nameFollows(codes, i, -1)))
    ) {
      out += neutralised(chars[i]);
    } else if (chars[i] === '<') {
      out += '&lt;';
    } else {
      out += chars[i];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Timestamps

const TIMESTAMP =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

function isLeapYear(year) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year, month) {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

// Days since 1970-01-01 of a proleptic Gregorian date, and back (Howard
// Hinnant's days_from_civil / civil_from_days). Done by hand because
// JavaScript's Date rolls February 30 over into March instead of refusing
// it, and keeps milliseconds only.
function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function invalidTimestamp(text, why) {
  return new PortError('invalid_timestamp', `${JSON.stringify(text)} is not an RFC 3339 timestamp: ${why}`);
}

const pad = (number, width) => String(number).padStart(width, '0');

/** An RFC 3339 timestamp written as the same instant in UTC with Z, the
 * fraction (nanoseconds at most) without trailing zeros. */
function normalizeTimestamp(text) {
  const match = TIMESTAMP.exec(text);
  if (match === null) {
    throw invalidTimestamp(text, 'not of the form YYYY-MM-DDTHH:MM:SS[.F](Z|+HH:MM|-HH:MM)');
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  // Digits past the ninth are below a nanosecond and are dropped.
  let nanos = match[7] === undefined ? 0 : Number(match[7].slice(0, 9).padEnd(9, '0'));
  const sign = match[9] === '-' ? -1 : 1;
  const offsetMinutes = match[8] !== undefined ? 0 : sign * (Number(match[10]) * 60 + Number(match[11]));
  if (month < 1 || month > 12) throw invalidTimestamp(text, 'month out of range');
  if (day < 1 || day > daysInMonth(year, month)) throw invalidTimestamp(text, 'day out of range');
  if (hour > 23) throw invalidTimestamp(text, 'hour out of range');
  if (minute > 59) throw invalidTimestamp(text, 'minute out of range');
  if (second > 60) throw invalidTimestamp(text, 'second out of range');
  if (match[8] === undefined && (Number(match[10]) > 23 || Number(match[11]) > 59)) {
    throw invalidTimestamp(text, 'offset out of range');
  }
  let seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 - offsetMinutes * 60;
  if (second === 60) {
    // A leap second exists only as the last second of a month in UTC; it
    // is written as the last nanosecond before it, as a clock without leap
    // seconds shows it.
    const utc = civilFromDays(Math.floor(seconds / 86400));
    const minuteOfDay = (seconds - Math.floor(seconds / 86400) * 86400) / 60;
    if (minuteOfDay !== 23 * 60 + 59 || utc.day !== daysInMonth(utc.year, utc.month)) {
      throw invalidTimestamp(text, 'a leap second is only the last second of a month in UTC');
    }
    seconds += 59;
    nanos = 999999999;
  } else {
    seconds += second;
  }
  const days = Math.floor(seconds / 86400);
  const ofDay = seconds - days * 86400;
  const utc = civilFromDays(days);
  if (utc.year < 0 || utc.year > 9999) {
    throw invalidTimestamp(text, 'the instant is outside the years 0000 to 9999 in UTC');
  }
  const fraction = nanos === 0 ? '' : `.${pad(nanos, 9).replace(/0+$/, '')}`;
  return (
    `${pad(utc.year, 4)}-${pad(utc.month, 2)}-${pad(utc.day, 2)}T` +
    `${pad(Math.floor(ofDay / 3600), 2)}:${pad(Math.floor(ofDay / 60) % 60, 2)}:${pad(ofDay % 60, 2)}${fraction}Z`
  );
}

// ---------------------------------------------------------------------------
// The envelope

function envelope(src, sanitizedAt, removedPatterns, body) {
  // An empty label names nothing, and [""] would read back as [].
  const labels = removedPatterns
    .filter((label) => label !== '')
    .map((label) => escapeAttribute(label, true))
    .join(',');
  return (
    `<${TAG} src="${escapeAttribute(src, false)}" sanitized_at="${escapeAttribute(sanitizedAt, false)}" ` +
    `removed_patterns="${labels}">\n${escapeBody(body)}\n</${TAG}>`
  );
}

function opEnvelope(input) {
  const data = inputObject(input);
  const body = stringField(data, 'body');
  const src = stringField(data, 'src');
  const sanitizedAt = stringField(data, 'sanitized_at');
  const labels = data.removed_patterns;
  if (!Array.isArray(labels) || !labels.every((label) => typeof label === 'string')) {
    throw badRequest('input.removed_patterns is not an array of strings');
  }
  return { text: envelope(src, normalizeTimestamp(sanitizedAt), labels, body) };
}

module.exports = {
  OPERATIONS: { envelope: opEnvelope },
  envelope,
  escapeBody,
  normalizeTimestamp,
};
