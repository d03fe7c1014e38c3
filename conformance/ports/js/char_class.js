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

// Characters that render as nothing: the default-ignorable code points
// (zero-width spaces and joiners, bidi controls, the BOM, the soft hyphen,
// variation selectors, tag characters, Hangul fillers) and the other
// format characters (interlinear annotation, Egyptian hieroglyph format
// controls). Left out are the format characters that draw a visible sign:
// the Arabic and Syriac number signs and end-of-ayah marks (prepended
// concatenation marks). Node's regular expressions do not know that
// property; those of Arabic or Syriac script are left out by script, and
// the three that Unicode files under script Common (U+0605 ARABIC NUMBER
// MARK ABOVE, U+06DD ARABIC END OF AYAH, U+08E2 ARABIC DISPUTED END OF
// AYAH) by name.
const INVISIBLE_FORMAT =
  /^[[\p{Default_Ignorable_Code_Point}[\p{Cf}--[\p{Script_Extensions=Arabic}\p{Script_Extensions=Syriac}\u0605\u06dd\u08e2]]]&&\p{Assigned}]$/v;

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
  return INVISIBLE_FORMAT.test(c);
}

/** A control or a format character that renders as nothing. */
function isInvisible(c) {
  return CONTROL.test(c) || INVISIBLE_FORMAT.test(c);
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
