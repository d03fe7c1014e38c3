#!/usr/bin/env node
'use strict';
// Derives the envelope's classes (PROTOCOL.md, "The envelope's readers")
// from what this port can compute, and prints where they differ from the
// reference's envelope_readings.json, per class, over every code point
// Node's Unicode assigns:
//
//   node conformance/ports/js/check_envelope_classes.js
//
// The readings: NFKD, its lower case, the TR39 skeleton (skeleton.js),
// a tag character's ASCII, and decancer's cure as far as
// unicode_data.json holds it (its case-folded cure of the code points
// some fold turns into ASCII). What decancer alone drops cannot be
// derived, so `dropped` here is White_Space, controls,
// Default_Ignorable_Code_Point and marks only.
const { skeleton } = require('./skeleton');
const { FOLDS, envelopeClass } = require('./reference_data');
const names = ['always', 'opener', 'readsU', 'readsSlash', 'dropped'];
const diffs = {}; let unassigned = 0;
for (let code = 0; code <= 0x10ffff; code++) {
  if (code >= 0xd800 && code <= 0xdfff) continue;
  const c = String.fromCodePoint(code);
  const nfkd = c.normalize('NFKD');
  const lower = Array.from(nfkd, (d) => d.toLowerCase()).join('');
  const sk = skeleton(c);
  const f = FOLDS.get(code);
  const cured = f ? f[2] : null; // case-folded cure where listed
  const tag = code >= 0xe0020 && code <= 0xe007e ? String.fromCodePoint(code - 0xe0000) : '';
  const rs = [nfkd, lower, sk, tag];
  if (cured) rs.push(cured);
  const ours = {
    always: rs.some((r) => r.includes('&')) || code === 0x27e6,
    opener: rs.some((r) => r.includes('<')),
    readsU: rs.some((r) => /[uU]/.test(r)),
    readsSlash: rs.some((r) => r.includes('/')),
    dropped: /^[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}\p{M}]$/u.test(c),
  };
  for (const n of names) {
    const ref = envelopeClass[n](code);
    if (ref !== ours[n]) {
      if (!/\p{Assigned}/u.test(c)) { unassigned++; continue; }
      (diffs[`${n} ours=${ours[n]}`] ||= []).push(code.toString(16));
    }
  }
}
for (const k in diffs) console.log(k, diffs[k].length, diffs[k].slice(0, 30).join(' '));
console.log(`code points Node leaves unassigned where a class differs: ${unassigned}`);
