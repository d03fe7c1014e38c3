'use strict';
// The web suite's envelope operation: a sanitized body wrapped in
//   <untrusted_content src="S" sanitized_at="TIME" removed_patterns="L1,L2">
//   BODY
//   </untrusted_content>
// Written from conformance/PROTOCOL.md ("The web suite") and the
// description and notes of conformance/vectors/envelope.json; README.md
// lists what those left open and where it was settled.

const { isWhiteSpace, isControl, isInvisibleFormat, isLineBreak } = require('./char_class');
const { PortError, badRequest, stringField, inputObject } = require('./port_error');

const TAG = 'untrusted_content';

// ---------------------------------------------------------------------------
// Attribute values

// Fullwidth and small forms of the characters escaped by name: a reader
// that folds width would see a quote, a bracket or an ampersand.
const ESCAPED_LOOK_ALIKES = new Set(['\uff02', '\uff07', '\uff1c', '\uff1e', '\ufe64', '\ufe65', '\uff06']);

const NAMED_ESCAPES = new Map([
  ['&', '&amp;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
]);

function hexReference(c) {
  return `&#x${c.codePointAt(0).toString(16)};`;
}

/** `value` escaped for an attribute; in the label list a comma is escaped
 * too, so that the list splits at its own commas only. */
function escapeAttribute(value, inList) {
  let out = '';
  for (const c of value) {
    const named = NAMED_ESCAPES.get(c);
    if (named !== undefined) {
      out += named;
    } else if (inList && c === ',') {
      out += '&#44;';
    } else if (
      isControl(c) ||
      (isWhiteSpace(c) && c !== ' ') ||
      isInvisibleFormat(c) ||
      isLineBreak(c) ||
      ESCAPED_LOOK_ALIKES.has(c)
    ) {
      // A line break or tab would split or bend the tag; an invisible
      // character would hide what the attribute says.
      out += hexReference(c);
    } else {
      out += c;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Character references, read as a lenient HTML reader reads them

// The named references that can spell an untrusted_content tag: the
// markup characters, the characters of the name's separator (underscore,
// hyphens and dashes), and the blanks and invisible characters a reader
// skips. Names are case-sensitive, as in HTML.
const NAMED_REFERENCES = new Map([
  ['amp', '&'], ['AMP', '&'], ['lt', '<'], ['LT', '<'], ['gt', '>'], ['GT', '>'],
  ['quot', '"'], ['QUOT', '"'], ['apos', "'"], ['sol', '/'], ['colon', ':'],
  ['lowbar', '_'], ['UnderBar', '_'],
  ['hyphen', '\u2010'], ['dash', '\u2010'], ['ndash', '\u2013'], ['mdash', '\u2014'],
  ['horbar', '\u2015'], ['minus', '\u2212'],
  ['Tab', '\t'], ['NewLine', '\n'], ['nbsp', '\u00a0'], ['NonBreakingSpace', '\u00a0'],
  ['ensp', '\u2002'], ['emsp', '\u2003'], ['thinsp', '\u2009'], ['ThinSpace', '\u2009'],
  ['hairsp', '\u200a'], ['VeryThinSpace', '\u200a'],
  ['shy', '\u00ad'], ['ZeroWidthSpace', '\u200b'], ['zwnj', '\u200c'], ['zwj', '\u200d'],
  ['lrm', '\u200e'], ['rlm', '\u200f'], ['NoBreak', '\u2060'],
]);

// Names HTML also reads without their semicolon (from its legacy list, the
// ones that spell markup): "&ltuntrusted" reads as "<untrusted".
const BARE_NAMES = ['amp', 'AMP', 'lt', 'LT', 'gt', 'GT', 'quot', 'QUOT', 'nbsp'];

const NUMERIC_REFERENCE = /^#(?:[xX]([0-9A-Fa-f]+)|([0-9]+))(;?)/;
const MAX_REFERENCE_DIGITS = 20;
const NAME_RUN = /^[A-Za-z0-9]{0,20}/;

/** The reference that starts `text` just after its `&`: {char, length}
 * (length not counting the `&`), or null. Numeric references may lack
 * their semicolon, as HTML allows; a reference to U+0000, a surrogate or
 * past U+10FFFF is none. */
function referenceAfterAmpersand(text) {
  const numeric = NUMERIC_REFERENCE.exec(text);
  if (numeric !== null) {
    const digits = numeric[1] ?? numeric[2];
    if (digits.length > MAX_REFERENCE_DIGITS) {
      return null;
    }
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2], 10);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return null;
    }
    return { char: String.fromCodePoint(code), length: numeric[0].length };
  }
  if (text.startsWith('#')) {
    return null;
  }
  const name = NAME_RUN.exec(text)[0];
  if (text[name.length] === ';' && NAMED_REFERENCES.has(name)) {
    return { char: NAMED_REFERENCES.get(name), length: name.length + 1 };
  }
  let bare = null;
  for (const candidate of BARE_NAMES) {
    if (name.startsWith(candidate) && (bare === null || candidate.length > bare.length)) {
      bare = candidate;
    }
  }
  return bare === null ? null : { char: NAMED_REFERENCES.get(bare), length: bare.length };
}

// ---------------------------------------------------------------------------
// Tags in the body

// The characters that open a tag: < and the two forms NFKC folds to it.
// A raw one is escaped as the reference given.
const RAW_OPENERS = new Map([
  ['<', '&lt;'],
  ['\uff1c', '&#xff1c;'],
  ['\ufe64', '&#xfe64;'],
]);

/** Length of the run of `amp;` (any ASCII case) at `at`. */
function ampRun(text, at) {
  let i = at;
  while (text.slice(i, i + 4).toLowerCase() === 'amp;') i += 4;
  return i - at;
}

/** The tag opener at `at`: {kind: 'raw', length, escaped} for a raw one,
 * {kind: 'reference', length} for a reference to one behind any number of
 * `amp;` levels (&lt; &#60; &#x3C; &amp;lt; ...), or null. */
function openerAt(text, at) {
  const first = String.fromCodePoint(text.codePointAt(at));
  if (RAW_OPENERS.has(first)) {
    return { kind: 'raw', length: first.length, escaped: RAW_OPENERS.get(first) };
  }
  if (first !== '&') {
    return null;
  }
  const levels = ampRun(text, at + 1);
  const reference = referenceAfterAmpersand(text.slice(at + 1 + levels, at + 1 + levels + 64));
  if (reference === null || !RAW_OPENERS.has(reference.char)) {
    return null;
  }
  return { kind: 'reference', length: 1 + levels + reference.length };
}

// How far a tag name is looked for after an opener: enough for a slash, the
// name and generous blank or invisible padding; a name farther than that
// is no tag to any reader.
const TAIL_SOURCE_CHARS = 160;
const TAIL_FOLDED_CHARS = 32;

// Hyphens and dashes a reader takes for the - of untrusted-content: the
// ASCII hyphen-minus, U+2010..U+2015, the minus sign and the small and
// fullwidth hyphen-minus (NFKC folds the fullwidth one to -).
const SEPARATOR_RUN = /^[_\-\u2010-\u2015\u2212\ufe58\ufe63]*/u;

/** Whether the text at `at` (just past an opener) reads as
 * `untrusted_content` or `/untrusted_content` to a lenient reader:
 * references decoded, NFKC, lowercased, blanks and invisible characters
 * ignored, and an underscore, hyphens, dashes or nothing between the
 * words. */
function namesTheTag(text, at) {
  let window = '';
  let windowChars = 0;
  let i = at;
  for (let taken = 0; taken < TAIL_SOURCE_CHARS && i < text.length && windowChars < TAIL_FOLDED_CHARS; taken += 1) {
    let c = String.fromCodePoint(text.codePointAt(i));
    let length = c.length;
    if (c === '&') {
      const reference = referenceAfterAmpersand(text.slice(i + 1, i + 65));
      if (reference !== null) {
        c = reference.char;
        length = 1 + reference.length;
      }
    }
    i += length;
    for (const folded of c.normalize('NFKC').toLowerCase()) {
      if (!isWhiteSpace(folded) && !isInvisibleFormat(folded)) {
        window += folded;
        windowChars += 1;
      }
    }
  }
  const name = window.startsWith('/') ? window.slice(1) : window;
  if (!name.startsWith('untrusted')) {
    return false;
  }
  const after = name.slice('untrusted'.length);
  return after.slice(SEPARATOR_RUN.exec(after)[0].length).startsWith('content');
}

/** The body with the < of every untrusted_content tag escaped one level
 * (< to &lt;, &lt; to &amp;lt;); nothing else changes. */
function escapeBody(body) {
  let out = '';
  let copied = 0;
  let at = 0;
  const candidates = /[<&\uff1c\ufe64]/g;
  for (;;) {
    candidates.lastIndex = at;
    const found = candidates.exec(body);
    if (found === null) {
      break;
    }
    const start = found.index;
    const opener = openerAt(body, start);
    if (opener === null) {
      // Past the character and a whole &amp;amp;... run: each & of it would
      // fail the same way.
      at = start + 1 + (body[start] === '&' ? ampRun(body, start + 1) : 0);
      continue;
    }
    if (namesTheTag(body, start + opener.length)) {
      out += body.slice(copied, start);
      out += opener.kind === 'raw' ? opener.escaped : `&amp;${body.slice(start + 1, start + opener.length)}`;
      copied = start + opener.length;
    }
    at = start + opener.length;
  }
  return out + body.slice(copied);
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
