'use strict';
// The two TR39 folds of the chat confusable reader, computed here from
// Unicode's data: confusables.json (UTS #39 prototypes, written by
// gen_confusables.js from confusables.txt) and what Node's ICU knows (NFD,
// NFKD, General_Category M, Default_Ignorable_Code_Point, lowercase
// mapping) and case_folding.json (CaseFolding.txt where it is not the
// lowercase mapping, written by gen_case_folding.py).
// Per character, as PROTOCOL.md's "Folds" says: NFKD with combining marks
// removed, then
//   case_first:     case fold, skeleton, case fold;
//   skeleton_first: skeleton, case fold;
// with skeleton(s) = NFD(map prototype over NFD(s) without
// default-ignorables), as UTS #39 defines it.

const { prototypes } = require('./confusables.json');
const { foldings } = require('./case_folding.json');

const PROTOTYPE = new Map(prototypes);
const FOLDING = new Map(foldings);
const MARK = /^\p{M}$/u;
const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

function withoutMarks(text) {
  let out = '';
  for (const c of text) if (!MARK.test(c)) out += c;
  return out;
}

function skeleton(text) {
  let mapped = '';
  for (const c of text.normalize('NFD')) {
    if (DEFAULT_IGNORABLE.test(c)) continue;
    mapped += PROTOTYPE.get(c.codePointAt(0)) ?? c;
  }
  return mapped.normalize('NFD');
}

/** Full case folding: the lowercase mapping (Node's toLowerCase) but
 * where CaseFolding.txt folds otherwise (case_folding.json, written by
 * gen_case_folding.py). */
function caseFold(text) {
  let out = '';
  for (const c of text) out += FOLDING.get(c.codePointAt(0)) ?? c.toLowerCase();
  return out;
}

/** The fold of one character in TR39 order 0 (case first) or 1 (skeleton
 * first): blanks as one space, marks, default-ignorables and controls
 * dropped. */
function tr39Fold(c, order) {
  const bare = withoutMarks(c.normalize('NFKD'));
  const folded = order === 0 ? caseFold(skeleton(caseFold(bare))) : caseFold(skeleton(bare));
  let out = '';
  for (const d of folded) {
    if (/^\p{White_Space}$/u.test(d)) out += ' ';
    else if (!MARK.test(d) && !DEFAULT_IGNORABLE.test(d) && !/^\p{Cc}$/u.test(d)) out += d;
  }
  return out;
}

module.exports = { tr39Fold, skeleton, caseFold };

if (require.main === module) {
  // Compares the folds computed here with the reference's
  // (unicode_data.json) over the code points that file covers, where
  // either side is ASCII text or nothing (what a marker is spelled with).
  // Exits 1 if a code point Node's Unicode assigns folds otherwise; those
  // it does not assign (newer than Node's ICU) are counted only.
  const { FOLDS } = require('./reference_data');
  const { isLineBreak } = require('./char_class');
  const ascii = (text) => /^[\x00-\x7f]*$/.test(text);
  let compared = 0;
  let unassigned = 0;
  const differ = [];
  for (const [low, high] of [[0x30, 0x20000], [0xe0000, 0xe1000]]) {
    for (let code = low; code < high; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCodePoint(code);
      if (code < 0x80 && !/[A-Za-z0-9]/.test(c)) continue;
      if (/^\p{White_Space}$/u.test(c) || isLineBreak(c) || DEFAULT_IGNORABLE.test(c) || /^\p{Cc}$/u.test(c)) continue;
      compared += 1;
      const ours = [tr39Fold(c, 0), tr39Fold(c, 1)];
      const reference = FOLDS.get(code);
      const otherwise =
        reference === undefined
          ? ours.some((f) => f !== '' && ascii(f))
          : [0, 1].some((o) => ours[o] !== reference[o] && (ascii(ours[o]) || ascii(reference[o])));
      if (!otherwise) continue;
      if (!/^\p{Assigned}$/u.test(c)) {
        unassigned += 1;
      } else {
        differ.push(`U+${code.toString(16).toUpperCase()} ours ${JSON.stringify(ours)} reference ${JSON.stringify(reference ?? 'not listed')}`);
      }
    }
  }
  for (const line of differ.slice(0, 40)) console.log(line);
  console.log(
    `${compared} code points compared: ${differ.length} assigned in Node's Unicode ${process.versions.unicode} fold otherwise, ` +
      `${unassigned} unassigned in it do`,
  );
  process.exitCode = differ.length === 0 ? 0 : 1;
}
