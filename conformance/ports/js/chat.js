'use strict';
// The chat suite: rendered prompt text split into role messages
// (chat_parse, strict when a context is given), the nonce written into a
// template's markers (chat_pre_render) and the whole strict flow
// (chat_flow). Written from conformance/PROTOCOL.md ("The chat suite") and
// the notes of conformance/vectors/chat.json; README.md lists what those
// left open and where it was settled.

const { isWhiteSpace, isInvisible, isInvisibleFormat } = require('./char_class');
const { JsonInteger, JsonFloat } = require('./json_out');
const { PortError, badRequest, stringField, inputObject } = require('./port_error');

const ROLES = ['system', 'user', 'assistant'];
const NONCE_KEY = 'nonce';
const BOM = '\ufeff';

// ---------------------------------------------------------------------------
// Lines

/** Lowercases A-Z only: role names match ASCII letters case-insensitively
 * and nothing else (the long s, the Kelvin sign and dotted I stay text). */
function asciiLower(text) {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** The text split at LF only; one CR right before an LF belongs to the line
 * end, not to the line. A CR at the very end of the text has no LF after
 * it and stays in the line. */
function splitLines(text) {
  const parts = text.split('\n');
  return parts.map((part, index) => {
    const crlf = index < parts.length - 1 && part.endsWith('\r');
    return { number: index + 1, body: crlf ? part.slice(0, -1) : part, crlf };
  });
}

function withoutBom(text) {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

// ---------------------------------------------------------------------------
// The marker grammar, read exactly:
//   blanks ['#' blanks] role ['[' attributes ']'] blanks ':' blanks
// with blanks = spaces and tabs, role = system|user|assistant in any ASCII
// case, attributes = key=value separated by commas (a trailing comma
// allowed), key = [A-Za-z0-9_]+, value = "quoted" (anything but a quote)
// or unquoted (anything but , ] and ", spaces and tabs around it dropped).

const isBlank = (c) => c === ' ' || c === '\t';
const isKeyChar = (c) => /^[A-Za-z0-9_]$/.test(c);

function trimBlanks(text) {
  return text.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** The marker `line` is ({role, attributes: [{key, value, raw}]}), or null.
 * `raw` is the attribute as written, for pre-render to write it back. */
function readMarker(line) {
  const n = line.length;
  let i = 0;
  const skipBlanks = () => {
    while (i < n && isBlank(line[i])) i += 1;
  };
  skipBlanks();
  if (line[i] === '#') {
    i += 1;
    skipBlanks();
  }
  const role = ROLES.find((name) => asciiLower(line.slice(i, i + name.length)) === name);
  if (role === undefined) {
    return null;
  }
  i += role.length;
  const attributes = [];
  if (line[i] === '[') {
    i += 1;
    for (;;) {
      skipBlanks();
      if (line[i] === ']') {
        i += 1;
        break;
      }
      const start = i;
      while (i < n && isKeyChar(line[i])) i += 1;
      if (i === start) {
        return null;
      }
      const key = line.slice(start, i);
      skipBlanks();
      if (line[i] !== '=') {
        return null;
      }
      i += 1;
      skipBlanks();
      let value;
      if (line[i] === '"') {
        const close = line.indexOf('"', i + 1);
        if (close < 0) {
          return null;
        }
        value = line.slice(i + 1, close);
        i = close + 1;
      } else {
        const from = i;
        while (i < n && line[i] !== '"' && line[i] !== ',' && line[i] !== ']') i += 1;
        if (line[i] === '"') {
          return null;
        }
        value = trimBlanks(line.slice(from, i));
      }
      attributes.push({ key, value, raw: line.slice(start, i).replace(/[ \t]+$/, '') });
      skipBlanks();
      if (line[i] === ']') {
        i += 1;
        break;
      }
      if (line[i] !== ',') {
        return null;
      }
      i += 1;
    }
  }
  skipBlanks();
  if (line[i] !== ':') {
    return null;
  }
  i += 1;
  skipBlanks();
  return i === n ? { role, attributes } : null;
}

// ---------------------------------------------------------------------------
// Metadata

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const INTEGER = /^[+-]?[0-9]+$/;
// A decimal number: digits with an optional point (digits on at least one
// side), an optional exponent. No hex, no underscores, no inf or NaN.
const DECIMAL = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** true/false in any ASCII case, then 64-bit integers, then finite floats;
 * anything else stays the string it was written as. */
function coerce(value) {
  const lower = asciiLower(value);
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (INTEGER.test(value)) {
    const integer = BigInt(value);
    if (integer >= I64_MIN && integer <= I64_MAX) {
      return new JsonInteger(integer);
    }
  }
  if (DECIMAL.test(value)) {
    const float = Number(value);
    if (Number.isFinite(float)) {
      return new JsonFloat(float);
    }
  }
  return value;
}

/** The marker's attributes but the nonce, coerced; the last of equal keys
 * wins. A Map, so that a key such as __proto__ is data like any other. */
function metadataOf(marker) {
  const metadata = new Map();
  for (const { key, value } of marker.attributes) {
    if (key !== NONCE_KEY) {
      metadata.set(key, coerce(value));
    }
  }
  return metadata;
}

// ---------------------------------------------------------------------------
// The loose reading of strict mode: a content line that this parser does not
// take for a marker but some reader would (look-alike letters, fullwidth
// forms, invisible characters, other line breaks, other blanks, ## runs, a
// malformed attribute block) is refused.

// How each kind of reader splits a line besides LF: not at all, at CR, at
// CR and the Unicode separators (JavaScript's multiline ^ and $), at every
// break Python's splitlines knows. A break a reader does not split at is a
// blank (or, for a control, nothing) to it.
const READERS = [null, /\r/, /[\r\u2028\u2029]/, /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/];

// The colon and the characters a reader may take for one: the vertical,
// small and fullwidth presentation forms (NFKC folds them), the ratio, the
// modifier letter colons, the Armenian full stop and the Hebrew sof pasuq
// (NFKC leaves them, so they are mapped below).
const COLON_LIKE = new Set([':', '\ufe13', '\ufe55', '\uff1a', '\u2236', '\ua789', '\u02d0', '\u0589', '\u05c3']);

// After NFKC and lowercasing: the letters a case-insensitive regex folds to
// i (dotless i), and the Cyrillic and Greek letters drawn like the Latin
// letters of system, user and assistant. NFKC has no mapping for these (they
// are confusables, not compatibility forms), and Node ships no confusables
// table, so they are listed.
const LOOK_ALIKES = new Map([
  ['\u0131', 'i'], ['\u0456', 'i'], ['\u03b9', 'i'], ['\u04cf', 'i'],
  ['\u0430', 'a'], ['\u03b1', 'a'],
  ['\u0435', 'e'], ['\u03b5', 'e'], ['\u04bd', 'e'],
  ['\u0455', 's'],
  ['\u0443', 'y'], ['\u04af', 'y'], ['\u03b3', 'y'],
  ['\u0442', 't'], ['\u03c4', 't'],
  ['\u043c', 'm'],
  ['\u043f', 'n'], ['\u03b7', 'n'],
  ['\u0433', 'r'],
  ['\u0438', 'u'], ['\u03c5', 'u'], ['\u03bc', 'u'],
  ['\u2236', ':'], ['\ua789', ':'], ['\u02d0', ':'], ['\u0589', ':'], ['\u05c3', ':'],
]);

// A marker in the loose reading, on folded text: blanks and # in any
// number, a role, blanks, anything in one bracket block (up to its last ]),
// blanks, a colon, blanks.
const LOOSE_MARKER =
  /^[\p{White_Space}#]*(?:system|user|assistant)\p{White_Space}*(?:\[.*\])?\p{White_Space}*:\p{White_Space}*$/su;

const TAG_CHARACTER = /[\u{E0000}-\u{E007F}]/u;

/** `segment` as a lenient reader sees it: compatibility forms folded
 * (NFKC), tag characters read as the ASCII they mirror or not at all,
 * invisible characters and controls dropped, lowercased (the combining dot
 * that İ leaves dropped), look-alike letters read as the Latin ones. */
function fold(segment, tagsAsAscii) {
  let kept = '';
  for (const c of segment.normalize('NFKC')) {
    const code = c.codePointAt(0);
    const read = tagsAsAscii && code >= 0xe0020 && code <= 0xe007e ? String.fromCodePoint(code - 0xe0000) : c;
    if (!isInvisible(read)) {
      kept += read;
    }
  }
  let folded = '';
  for (const c of kept.toLowerCase()) {
    if (c !== '\u0307') {
      folded += LOOK_ALIKES.get(c) ?? c;
    }
  }
  return folded;
}

function segmentReadsAsMarker(segment, tagsAsAscii) {
  // A marker ends with its colon: the last character that shows anything
  // must be one a reader takes for a colon.
  const chars = Array.from(segment);
  let last = chars.length - 1;
  while (last >= 0 && (isWhiteSpace(chars[last]) || isInvisible(chars[last]))) last -= 1;
  if (last < 0 || !COLON_LIKE.has(chars[last])) {
    return false;
  }
  return LOOSE_MARKER.test(fold(segment, tagsAsAscii));
}

/** Whether a content line (without LF) holds a segment, for some reader,
 * that reads as a role marker. Tag characters show nothing but a model
 * reads them as ASCII ("ASCII smuggling"): both readings are tried. */
function readsAsMarker(line) {
  return READERS.some((splitter) =>
    (splitter === null ? [line] : line.split(splitter)).some(
      (segment) =>
        segmentReadsAsMarker(segment, false) || (TAG_CHARACTER.test(segment) && segmentReadsAsMarker(segment, true)),
    ),
  );
}

// ---------------------------------------------------------------------------
// Parse

/** Whether a preamble shows nothing: blanks and invisible characters only. */
function showsNothing(content) {
  for (const c of content) {
    if (!isWhiteSpace(c) && !isInvisibleFormat(c)) {
      return false;
    }
  }
  return true;
}

function checkNonce(marker, expected, line) {
  const nonces = marker.attributes.filter((attribute) => attribute.key === NONCE_KEY);
  if (nonces.length > 1) {
    throw new PortError('duplicate_nonce', `line ${line}: a role marker with more than one nonce attribute`);
  }
  if (nonces.length === 0 || nonces[0].value !== expected) {
    throw new PortError(
      'nonce_mismatch',
      `line ${line}: a role marker without the expected nonce (a template value may be injecting role markers)`,
    );
  }
}

/** The messages of `rendered`; strict when `context` ({nonce, markers}) is
 * given. */
function parse(rendered, context) {
  // An empty nonce would let a forged user[nonce=""]: pass as the
  // template's own marker.
  if (context && !VALID_NONCE.test(context.nonce)) {
    throw new PortError(
      'invalid_nonce',
      `nonce ${JSON.stringify(context.nonce)} cannot be checked against: use 1 to 64 ASCII letters, digits, - or _`,
    );
  }
  const messages = [];
  let pending = { role: 'system', metadata: new Map(), lines: [], preamble: true };
  const finish = () => {
    const content = pending.lines.join('\n').replace(/^\n+|\n+$/g, '');
    if (!(pending.preamble && showsNothing(content))) {
      messages.push({ role: pending.role, content, metadata: pending.metadata });
    }
  };
  let markers = 0;
  for (const line of splitLines(withoutBom(rendered))) {
    const marker = readMarker(line.body);
    if (marker !== null) {
      if (context !== null) {
        checkNonce(marker, context.nonce, line.number);
      }
      markers += 1;
      finish();
      pending = { role: marker.role, metadata: metadataOf(marker), lines: [], preamble: false };
    } else {
      if (context !== null && readsAsMarker(line.body)) {
        throw new PortError(
          'nonce_mismatch',
          `line ${line.number}: text that reads as a role marker, without the expected nonce ` +
            '(a template value may be injecting role markers)',
        );
      }
      pending.lines.push(line.body);
    }
  }
  finish();
  if (context !== null && markers !== context.markers) {
    throw new PortError(
      'marker_count_mismatch',
      `the template had ${context.markers} role markers but the rendered text has ${markers}`,
    );
  }
  return messages;
}

// ---------------------------------------------------------------------------
// Pre-render and render

const VALID_NONCE = /^[A-Za-z0-9_-]{1,64}$/;

/** `template` with `nonce` written first into every marker, and the
 * context the strict parse needs. */
function preRender(template, nonce) {
  if (!VALID_NONCE.test(nonce)) {
    throw new PortError(
      'invalid_nonce',
      `nonce ${JSON.stringify(nonce)} cannot be written into a marker: use 1 to 64 ASCII letters, digits, - or _`,
    );
  }
  // A BOM at the start stays: the strict parse drops it like any parse.
  const bom = template.startsWith(BOM) ? BOM : '';
  let markers = 0;
  const lines = splitLines(template.slice(bom.length)).map((line) => {
    const cr = line.crlf ? '\r' : '';
    const marker = readMarker(line.body);
    if (marker === null) {
      return line.body + cr;
    }
    if (marker.attributes.some((attribute) => attribute.key === NONCE_KEY)) {
      throw new PortError(
        'reserved_attribute',
        `template line ${line.number}: the author may not set the reserved nonce attribute`,
      );
    }
    markers += 1;
    const authored = marker.attributes.map((attribute) => `, ${attribute.raw}`).join('');
    return `${marker.role}[nonce="${nonce}"${authored}]:${cr}`;
  });
  return { prepared: bom + lines.join('\n'), context: { nonce, markers } };
}

const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const isNameChar = (c) => /^[A-Za-z0-9_.]$/.test(c);

/** The placeholder whose name starts after blanks at `at` (just past a
 * `{{`): {name, end} with `end` just past its `}}`, or null. */
function placeholderAt(template, at) {
  const n = template.length;
  let i = at;
  while (i < n && isBlank(template[i])) i += 1;
  const start = i;
  while (i < n && isNameChar(template[i])) i += 1;
  const name = template.slice(start, i);
  while (i < n && isBlank(template[i])) i += 1;
  if (!PLACEHOLDER_NAME.test(name) || !template.startsWith('}}', i)) {
    return null;
  }
  return { name, end: i + 2 };
}

/** Every well-formed {{ name }} replaced by its value verbatim; the values
 * are never read again, and braces that open no placeholder stay text. */
function render(template, values) {
  let out = '';
  let at = 0;
  for (;;) {
    const open = template.indexOf('{{', at);
    if (open < 0) {
      break;
    }
    out += template.slice(at, open);
    const placeholder = placeholderAt(template, open + 2);
    if (placeholder === null) {
      out += '{{';
      at = open + 2;
      continue;
    }
    if (!values.has(placeholder.name)) {
      throw new PortError('unknown_variable', `the template uses {{${placeholder.name}}}, which has no value`);
    }
    out += values.get(placeholder.name);
    at = placeholder.end;
  }
  return out + template.slice(at);
}

// ---------------------------------------------------------------------------
// Operations

function contextField(input) {
  const context = input.context;
  if (context === undefined || context === null) {
    return null;
  }
  if (typeof context !== 'object' || Array.isArray(context)) {
    throw badRequest('input.context is not an object');
  }
  const nonce = stringField(context, 'nonce', 'input.context');
  if (!Number.isSafeInteger(context.markers) || context.markers < 0) {
    throw badRequest('input.context.markers is not a non-negative integer');
  }
  return { nonce, markers: context.markers };
}

function valuesField(input) {
  const values = input.values;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw badRequest('input.values is not an object');
  }
  const map = new Map();
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string') {
      throw badRequest(`input.values.${name} is not a string`);
    }
    map.set(name, value);
  }
  return map;
}

function chatParse(input) {
  const data = inputObject(input);
  return { messages: parse(stringField(data, 'rendered'), contextField(data)) };
}

function chatPreRender(input) {
  const data = inputObject(input);
  return preRender(stringField(data, 'template'), stringField(data, 'nonce'));
}

function chatFlow(input) {
  const data = inputObject(input);
  const template = stringField(data, 'template');
  const values = valuesField(data);
  const { prepared, context } = preRender(template, stringField(data, 'nonce'));
  return { messages: parse(render(prepared, values), context) };
}

module.exports = {
  OPERATIONS: { chat_parse: chatParse, chat_pre_render: chatPreRender, chat_flow: chatFlow },
  parse,
  preRender,
  render,
  readMarker,
  readsAsMarker,
  coerce,
};
