'use strict';
// Character classes the chat and envelope modules share. Every Unicode
// fact comes from the Unicode data compiled into Node's regular
// expression engine (property escapes), never from a table typed here.

// White_Space, the property Unicode defines for "blank": what a reader
// skips between words (space, tab, no-break space, ideographic space, the
// line and paragraph separators, NEL...).
const WHITE_SPACE = /^\p{White_Space}$/u;

// Control characters (general category Cc): C0, DEL and C1.
const CONTROL = /^\p{Cc}$/u;

// Characters that render as nothing: Default_Ignorable_Code_Point,
// assigned or not (zero-width spaces and joiners, bidi controls, the BOM,
// the soft hyphen, variation selectors, tag characters, Hangul fillers),
// and the other format characters (Cf) but the prepended concatenation
// marks, which draw a sign (Arabic number signs, end-of-ayah marks). Node's
// regular expressions do not know that property, and their Unicode version
// (ICU's) may assign code points the reference's does not, so the class is
// read from the reference's data (reference_data.js).
const { isInvisibleFormatCode } = require('./reference_data');

// The line breaks other than LF: a lone CR, VT, FF, the separators
// U+001C..U+001E, NEL, U+2028 and U+2029. This is the set Python's
// str.splitlines splits at, the widest of the readers a port may meet.
const LINE_BREAK_BUT_LF = /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/u;

function isWhiteSpace(c) {
  return WHITE_SPACE.test(c);
}

function isControl(c) {
  return CONTROL.test(c);
}

function isInvisibleFormat(c) {
  return isInvisibleFormatCode(c.codePointAt(0));
}

/** A control or a format character that renders as nothing. */
function isInvisible(c) {
  return CONTROL.test(c) || isInvisibleFormat(c);
}

function isLineBreak(c) {
  return c === '\n' || (c.length === 1 && LINE_BREAK_BUT_LF.test(c));
}

module.exports = {
  isWhiteSpace,
  isControl,
  isInvisibleFormat,
  isInvisible,
  isLineBreak,
};
