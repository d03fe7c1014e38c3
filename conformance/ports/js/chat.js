'use strict';
// The chat suite: rendered prompt text split into role messages
// (chat_parse, strict when a context is given), the nonce written into a
// template's markers (chat_pre_render) and the whole strict flow
// (chat_flow). Written from conformance/PROTOCOL.md ("The chat suite") and
// the notes of conformance/vectors/chat.json; README.md lists what those
// left open and where it was settled.

const { isWhiteSpace, isInvisibleFormat } = require('./char_class');
const { readLine, otherReadingIsMarker, WholeText, breaksAMarkerLine } = require('./chat_readers');
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
  // Strict mode answers to the whole reader set (chat_readers.js).
  const wholeText = context !== null ? new WholeText() : null;
  for (const line of splitLines(withoutBom(rendered))) {
    const marker = readMarker(line.body);
    if (marker !== null) {
      if (context !== null) {
        checkNonce(marker, context.nonce, line.number);
        if (otherReadingIsMarker(line.body)) {
          throw new PortError(
            'nonce_mismatch',
            `line ${line.number}: a role marker line in which a reader that splits or reverses it sees another marker`,
          );
        }
        // No marker of the whole-text reader spans a marker line.
        wholeText.reset();
      }
      markers += 1;
      finish();
      pending = { role: marker.role, metadata: metadataOf(marker), lines: [], preamble: false };
    } else {
      if (context !== null && (readLine(line.body) !== null || wholeText.contentLine(line.body) !== null)) {
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

function unclearTemplateMarker(number) {
  return new PortError(
    'unclear_template_marker',
    `template line ${number}: some reader takes this line for a role marker, but it cannot be written with the nonce`,
  );
}

/** A template line the grammar does not read as a marker but some reader
 * does, read whole and in its own order (`user\u00a0:`, `**User:**`,
 * `## user:`): the template is trusted, so it is its author's marker,
 * written as the grammar reads one: the role, the text from its first `[`
 * to its last `]` (if it has both, in that order; neither is no block), and
 * a colon. Null for a line no reader takes for a marker. A line read as a
 * marker only in part (behind another break, reversed under a bidi
 * control) or with a lone bracket cannot be rewritten without changing
 * what it says: unclear_template_marker. */
function authorMarker(line, number) {
  const role = readLine(line, false);
  if (role === null) {
    if (readLine(line, true) !== null) {
      throw unclearTemplateMarker(number);
    }
    return null;
  }
  const open = line.indexOf('[');
  const close = line.lastIndexOf(']');
  let block;
  if (open >= 0 && close >= 0 && open < close) {
    block = line.slice(open, close + 1);
  } else if (open < 0 && close < 0) {
    block = '';
  } else {
    throw unclearTemplateMarker(number);
  }
  return `${role}${block}:`;
}

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
  const wholeText = new WholeText();
  const lines = splitLines(template.slice(bom.length)).map((line) => {
    const cr = line.crlf ? '\r' : '';
    let marker = readMarker(line.body);
    if (marker === null) {
      const odd = authorMarker(line.body, line.number);
      if (odd !== null) {
        marker = readMarker(odd);
        if (marker === null) {
          throw unclearTemplateMarker(line.number);
        }
      }
    }
    if (marker === null) {
      // A marker the whole-text reader finds ending here began on an
      // earlier line: rewriting it would lose those lines.
      if (wholeText.contentLine(line.body) !== null) {
        throw unclearTemplateMarker(line.number);
      }
      return line.body + cr;
    }
    wholeText.reset();
    if (marker.attributes.some((attribute) => attribute.key === NONCE_KEY)) {
      throw new PortError(
        'reserved_attribute',
        `template line ${line.number}: the author may not set the reserved nonce attribute`,
      );
    }
    markers += 1;
    const authored = marker.attributes.map((attribute) => `, ${attribute.raw}`).join('');
    const written = `${marker.role}[nonce="${nonce}"${authored}]:`;
    if (otherReadingIsMarker(written)) throw unclearTemplateMarker(line.number);
    return written + cr;
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

/** Refuses a value rendered into a template line that is a marker (to the
 * grammar or to any line reader) when it would change that marker:
 * value_in_marker. Inside a quoted value (after an odd number of `"` on the
 * template line before the placeholder) commas, brackets and `=` are the
 * value's own. */
function checkMarkerValue(template, open, name, value) {
  const start = template.lastIndexOf('\n', open - 1) + 1;
  const newline = template.indexOf('\n', open);
  let line = template.slice(start, newline < 0 ? template.length : newline);
  if (line.endsWith('\r')) {
    line = line.slice(0, -1);
  }
  if (readMarker(line) === null && readLine(line) === null) {
    return;
  }
  const quotes = template.slice(start, open).split('"').length - 1;
  const found = breaksAMarkerLine(value, quotes % 2 === 1);
  if (found !== null) {
    const number = template.slice(0, open).split('\n').length;
    throw new PortError(
      'value_in_marker',
      `template line ${number}: the value of {{${name}}} holds ${JSON.stringify(found)}, which would change the role marker it is written into`,
    );
  }
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
    const value = values.get(placeholder.name);
    checkMarkerValue(template, open, placeholder.name, value);
    out += value;
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
  coerce,
};
