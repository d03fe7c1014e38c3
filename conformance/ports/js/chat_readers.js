'use strict';
// The reader set strict chat mode answers to (PROTOCOL.md, "The chat
// suite"): a content line any reader takes for a role marker fails the
// strict parse, and a template line one takes for a marker is the author's
// marker. The readers:
//
// - spec_line: prompty's spec regex on each LF line;
// - whole_text: the same regex over the whole text, \s spanning line
//   breaks (`assistant` LF `:` is one marker), fed line by line;
// - line_splitters: lines split at CR; at CR, U+2028, U+2029; at every
//   break of Python's splitlines (a break a reader does not split at is a
//   blank to it);
// - confusable: the line folded three ways (case folding then the UTS #39
//   skeleton, skeleton then case folding, decancer's cure), after NFKD
//   without marks and with default-ignorables and controls dropped, tag
//   characters dropped or read as ASCII; a line with a bidi control read
//   reversed too;
// - markdown_emphasis: * _ ~ ` around role, block and colon, # and >
//   before.
//
// All of them at once: each line (or segment) is folded and one small
// automaton of the loose marker shape runs over it. The TR39 folds are
// computed from Unicode's data (skeleton.js); decancer's cure, which Node
// cannot compute, is the reference's (reference_data.js).

const { FOLDS, isDefaultIgnorableCode, isBidiControlCode, isInvisibleFormatCode } = require('./reference_data');
const { isWhiteSpace, isControl, isLineBreak } = require('./char_class');
const { tr39Fold } = require('./skeleton');

const ROLES = ['system', 'user', 'assistant'];
const ORDERS = [0, 1, 2]; // case_first, skeleton_first, cured
const TAG_LOW = 0xe0000;
const TAG_HIGH = 0xe007f;

const isEmphasis = (c) => c === '*' || c === '_' || c === '~' || c === '`';
// Rust's char::is_alphanumeric: Alphabetic or a number (general category N).
const ALPHANUMERIC = /^[\p{Alphabetic}\p{N}]$/u;
const isAsciiAlphanumeric = (c) => /^[A-Za-z0-9]$/.test(c);
// Rust's u8::is_ascii_whitespace: no VT.
const isAsciiWhitespace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';

/** One character as the confusable reader sees it in fold `order`: '' for
 * what shows nothing, ' ' for a blank, else its folded form (several
 * characters at times: the skeleton of `m` is `rn`). */
function foldChar(c, order, tagsAsAscii) {
  let code = c.codePointAt(0);
  if (tagsAsAscii && code >= 0xe0020 && code <= 0xe007e) {
    code -= TAG_LOW;
    c = String.fromCodePoint(code);
  }
  if (code < 0x80) {
    if (isAsciiWhitespace(c)) return ' ';
    if (code < 0x20 || code === 0x7f) return '';
    if (isAsciiAlphanumeric(c)) return unicodeFold(c, code, order);
    return c;
  }
  if (isWhiteSpace(c)) return ' ';
  if (isDefaultIgnorableCode(code) || isControl(c)) return '';
  return unicodeFold(c, code, order);
}

const ASSIGNED = /^\p{Assigned}$/u;
const TR39_CACHE = [new Map(), new Map()];

/** The fold of a letter, digit or symbol. The two TR39 folds are computed
 * here from Unicode's confusables.txt and case folding (skeleton.js) for
 * every character Node's Unicode assigns; decancer's cure, and the TR39
 * folds of characters newer than Node's Unicode, are the reference's
 * (unicode_data.json), which lists what folds to ASCII text or to nothing
 * (anything else folds to itself). */
function unicodeFold(c, code, order) {
  if (order < 2 && ASSIGNED.test(c)) {
    const cache = TR39_CACHE[order];
    let folded = cache.get(code);
    if (folded === undefined) {
      folded = tr39Fold(c, order);
      cache.set(code, folded);
    }
    return folded;
  }
  const entry = FOLDS.get(code);
  return entry === undefined ? c : entry[order];
}

// The role names as each fold reads them, in lower, upper and title case.
const TARGETS = ORDERS.map((order) => {
  const names = [];
  for (const role of ROLES) {
    const spellings = [role, role.toUpperCase(), role[0].toUpperCase() + role.slice(1)];
    for (const spelling of spellings) {
      const folded = Array.from(Array.from(spelling, (c) => foldChar(c, order, false)).join(''));
      if (!names.some((n) => n.role === role && n.name.join('') === folded.join(''))) {
        names.push({ role, name: folded });
      }
    }
  }
  return names;
});
const STARTS = new Set(TARGETS.flatMap((names) => names.map((n) => n.name[0])));

// Phases of the loose marker shape:
//   (blank|#|>|emphasis)* role (blank|emphasis)* block? (blank|emphasis)* : (blank|emphasis)*
const LEAD = 0;
const NAME = 1;
const AFTER_NAME = 2;
const BLOCK = 3; // loose: anything up to a ]
// The spec regex's block, for the whole-text reader:
// (\w+\s*=\s*"?[^"]*"?\s*,?\s*)+
const KEY = 4;
const KEY_MORE = 5;
const EQUALS = 6;
const VALUE = 7;
const VALUE_RUN = 8;
const AFTER_VALUE = 9;
const NEXT_KEY = 10;
const AFTER_BLOCK = 11;
const COLON = 12;

class Shape {
  constructor(order, specBlock) {
    this.order = order;
    this.specBlock = specBlock;
    // key "phase,role,target,at" -> [phase, role, target, at]
    this.states = new Map();
  }

  start() {
    this.states.set(`${LEAD},,0,0`, [LEAD, null, 0, 0]);
  }

  clear() {
    this.states.clear();
  }

  begun() {
    for (const s of this.states.values()) if (s[0] !== LEAD) return true;
    return false;
  }

  complete() {
    for (const s of this.states.values()) if (s[0] === COLON) return s[1];
    return null;
  }

  feed(c) {
    if (this.states.size === 0) return;
    const names = TARGETS[this.order];
    const blank = isWhiteSpace(c);
    const word = c === '_' || ALPHANUMERIC.test(c);
    const next = new Map();
    const push = (phase, role, target = 0, at = 0) => {
      next.set(`${phase},${role ?? ''},${target},${at}`, [phase, role, target, at]);
    };
    const nameStep = (target, at, role) => {
      const { name } = names[target];
      if (name[at] === c) {
        if (at + 1 === name.length) push(AFTER_NAME, role);
        else push(NAME, role, target, at + 1);
      }
    };
    for (const [phase, role, target, at] of this.states.values()) {
      switch (phase) {
        case LEAD:
          if (blank || c === '#' || c === '>' || isEmphasis(c)) push(LEAD, null);
          for (let t = 0; t < names.length; t += 1) nameStep(t, 0, names[t].role);
          break;
        case NAME:
          nameStep(target, at, role);
          break;
        case AFTER_NAME:
          if (c === '[') push(this.specBlock ? KEY : BLOCK, role);
          else if (c === ':') push(COLON, role);
          else if (blank || isEmphasis(c)) push(AFTER_NAME, role);
          break;
        case BLOCK:
          push(BLOCK, role);
          if (c === ']') push(AFTER_BLOCK, role);
          break;
        case KEY:
          if (blank) push(KEY, role);
          else if (word) push(KEY_MORE, role);
          break;
        case KEY_MORE:
          if (word) push(KEY_MORE, role);
          else if (blank) push(EQUALS, role);
          else if (c === '=') push(VALUE, role);
          break;
        case EQUALS:
          if (blank) push(EQUALS, role);
          else if (c === '=') push(VALUE, role);
          break;
        case VALUE:
        case VALUE_RUN:
          if (c === '"') {
            // After `=` a quote opens the value or closes an empty one; in
            // a value it closes it.
            if (phase === VALUE) push(VALUE_RUN, role);
            push(AFTER_VALUE, role);
          } else if (blank && phase === VALUE) {
            push(VALUE, role);
          } else {
            push(VALUE_RUN, role);
            if (c === ']') push(AFTER_BLOCK, role);
            if (word) push(KEY_MORE, role);
            if (c === ',') push(NEXT_KEY, role);
          }
          break;
        case AFTER_VALUE:
          if (blank) push(AFTER_VALUE, role);
          else if (c === ',') push(NEXT_KEY, role);
          else if (c === ']') push(AFTER_BLOCK, role);
          else if (word) push(KEY_MORE, role);
          break;
        case NEXT_KEY:
          if (blank) push(NEXT_KEY, role);
          else if (word) push(KEY_MORE, role);
          else if (c === ']') push(AFTER_BLOCK, role);
          break;
        case AFTER_BLOCK:
          if (c === ':') push(COLON, role);
          else if (blank || isEmphasis(c)) push(AFTER_BLOCK, role);
          break;
        case COLON:
          if (blank || isEmphasis(c)) push(COLON, role);
          break;
        default:
          break;
      }
    }
    this.states = next;
  }
}

const SPLITTERS = [
  () => false,
  (c) => c === '\r',
  (c) => c === '\r' || c === '\u2028' || c === '\u2029',
  isLineBreak,
];

/** A LF-free text as one fold reads it: {char} for folded characters,
 * {brk} for the other line breaks, kept for each splitter to decide. */
function tokens(chars, order, tagsAsAscii) {
  const out = [];
  for (const c of chars) {
    if (isLineBreak(c)) {
      out.push({ brk: c });
    } else {
      for (const d of foldChar(c, order, tagsAsAscii)) out.push({ char: d });
    }
  }
  return out;
}

/** The role the loose shape reads in a token run, or null. Only a run whose
 * last character past blanks, emphasis and breaks is a colon is read. */
function readTokens(run, order) {
  let last = run.length - 1;
  while (last >= 0 && (run[last].char === undefined || isWhiteSpace(run[last].char) || isEmphasis(run[last].char))) {
    last -= 1;
  }
  if (last < 0 || run[last].char !== ':') return null;
  const shape = new Shape(order, false);
  shape.start();
  for (const token of run) {
    shape.feed(token.brk !== undefined ? ' ' : token.char);
    if (shape.states.size === 0) return null;
  }
  return shape.complete();
}

/** Printable ASCII and tabs only. */
function isPlain(line) {
  return /^[\t\x20-\x7e]*$/.test(line);
}

/** Whether the last character of a segment that shows anything, past
 * blanks and emphasis, is a colon to some fold (tags read as ASCII too). */
function endsWithColon(chars) {
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    const c = chars[i];
    const code = c.codePointAt(0);
    if (code < 0x80) {
      if (isAsciiWhitespace(c) || code < 0x20 || code === 0x7f || isEmphasis(c)) continue;
      return c === ':';
    }
    if (isWhiteSpace(c) || isLineBreak(c)) continue;
    const last = [null, null];
    [false, true].forEach((tags, index) => {
      for (const order of ORDERS) {
        for (const d of foldChar(c, order, tags)) {
          if (!(isWhiteSpace(d) || isEmphasis(d))) last[index] = d;
        }
      }
    });
    if (last[0] === null && last[1] === null) continue;
    return last[0] === ':' || last[1] === ':';
  }
  return false;
}

function splitChars(chars, splits) {
  const out = [[]];
  for (const c of chars) {
    if (splits(c)) out.push([]);
    else out[out.length - 1].push(c);
  }
  return out;
}

/** The role some line reader (all but whole_text) takes `line` (no LF)
 * for, or null. With `splitAndReverse` false the line is read whole and in
 * its own order only: a template line that is its author's marker. */
function readLine(line, splitAndReverse = true) {
  const chars = Array.from(line);
  if (isPlain(line)) {
    if (!/:[ \t*_~`]*$/.test(line)) return null;
    for (const order of ORDERS) {
      const role = readTokens(tokens(chars, order, false), order);
      if (role !== null) return role;
    }
    return null;
  }
  const texts = [chars];
  // Drawn right to left, a line under an override shows its characters
  // in the other order (`\u202e:metsys` shows `system:`).
  if (splitAndReverse && chars.some((c) => isBidiControlCode(c.codePointAt(0)))) {
    texts.push(chars.slice().reverse());
  }
  const hasTags = chars.some((c) => {
    const code = c.codePointAt(0);
    return code >= TAG_LOW && code <= TAG_HIGH;
  });
  const hasBreaks = chars.some(isLineBreak);
  const splitters = hasBreaks && splitAndReverse ? SPLITTERS : SPLITTERS.slice(0, 1);
  for (const text of texts) {
    for (const splits of splitters) {
      for (const segment of splitChars(text, splits)) {
        const role = segmentRole(segment, hasTags);
        if (role !== null) return role;
      }
    }
  }
  return null;
}

/** The whole-text reader, fed content line by content line; a line the
 * parser read as a marker resets it. */
class WholeText {
  constructor() {
    this.shapes = [];
    for (const tags of [false, true]) {
      for (const order of ORDERS) this.shapes.push({ shape: new Shape(order, true), order, tags });
    }
  }

  reset() {
    for (const { shape } of this.shapes) shape.clear();
  }

  static mayBegin(chars, order, tags) {
    for (const c of chars) {
      if (isLineBreak(c)) continue;
      for (const d of foldChar(c, order, tags)) {
        if (!(isWhiteSpace(d) || d === '#' || d === '>' || isEmphasis(d))) return STARTS.has(d);
      }
    }
    return false;
  }

  /** The role of a marker that ends on `line`, or null. */
  contentLine(line) {
    const chars = Array.from(line);
    const begun = this.shapes.some(({ shape }) => shape.begun());
    if (!begun && !this.shapes.some(({ order, tags }) => WholeText.mayBegin(chars, order, tags))) {
      return null;
    }
    let found = null;
    // Every fold reads every line, plain ones too: `assistant` then a line
    // holding the tag character U+E003A reads as `assistant` LF `:` with
    // tags as ASCII. (The reference skips a plain line in the tags-as-ASCII
    // folds when nothing has begun there, and so misses that marker; see
    // README.md, "Known differences".)
    for (const { shape, order, tags } of this.shapes) {
      // The LF before this line is a blank to a marker begun earlier.
      shape.feed(' ');
      shape.start();
      for (const c of chars) {
        if (shape.states.size === 0) break;
        if (isLineBreak(c)) shape.feed(' ');
        else for (const d of foldChar(c, order, tags)) shape.feed(d);
      }
      if (found === null) found = shape.complete();
      for (const [key, s] of shape.states) if (s[0] === LEAD) shape.states.delete(key);
    }
    return found;
  }
}

/** The first character of a value that would change the marker line it is
 * rendered into, or null: a line break, control, default-ignorable, bidi
 * or invisible character; anything whose NFKD holds `"` or some fold of
 * which holds `"`, `\` or `''` (the skeleton of `"`); outside a quoted
 * value, anything a fold reads as `,`, `[`, `]` or `=`. */
/** The role a line reader takes `segment` (an array of chars) for, or
 * null (readers.rs segment_role). */
function segmentRole(segment, hasTags) {
  if (!endsWithColon(segment)) return null;
  for (const tags of hasTags ? [false, true] : [false]) {
    for (const order of ORDERS) {
      const role = readTokens(tokens(segment, order, tags), order);
      if (role !== null) return role;
    }
  }
  return null;
}

/** Whether a reader that splits `line` at a break or reads it reversed
 * sees a marker there (readers.rs other_reading_is_marker): of a marker
 * line, a marker other than the one the grammar reads. */
function otherReadingIsMarker(line) {
  const chars = Array.from(line);
  const hasBidi = chars.some((c) => isBidiControlCode(c.codePointAt(0)));
  const hasBreaks = chars.some(isLineBreak);
  const hasTags = chars.some((c) => {
    const code = c.codePointAt(0);
    return code >= TAG_LOW && code <= TAG_HIGH;
  });
  if (hasBreaks) {
    for (const splits of SPLITTERS.slice(1)) {
      if (chars.some(splits) && splitChars(chars, splits).some((segment) => segmentRole(segment, hasTags) !== null)) {
        return true;
      }
    }
  }
  if (hasBidi) {
    const reversed = chars.slice().reverse();
    for (const splits of hasBreaks ? SPLITTERS : SPLITTERS.slice(0, 1)) {
      if (splitChars(reversed, splits).some((segment) => segmentRole(segment, hasTags) !== null)) return true;
    }
  }
  return false;
}

function breaksAMarkerLine(value, quoted) {
  for (const c of value) {
    const code = c.codePointAt(0);
    if (isLineBreak(c) || isControl(c) || isDefaultIgnorableCode(code) || isBidiControlCode(code)) return c;
    if (c.normalize('NFKD').includes('"')) return c;
    for (const order of ORDERS) {
      const folded = foldChar(c, order, true);
      if (folded.includes('"') || folded.includes('\\') || folded.includes("''")) return c;
      if (!quoted && /[,[\]=]/.test(folded)) return c;
    }
    if (isInvisibleFormatCode(code)) return c;
  }
  return null;
}

module.exports = { readLine, otherReadingIsMarker, WholeText, breaksAMarkerLine, foldChar };
