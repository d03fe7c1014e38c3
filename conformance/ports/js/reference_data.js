'use strict';
// The Unicode classes both suites need that Node has no data for: the
// chat reader set's confusable folds (UTS #39 skeletons in two orders and
// decancer's cure) and the envelope's reader classes. PORTING.md §2b
// points a port in any language at the two files the reference generates
// from its Unicode crates and `cargo test` keeps fresh:
//
//   ../python/unicode_data.json       core/src/chat/readers.rs (unicode_data)
//   ../python/envelope_readings.json  `agentfence web readings`
//
// They are read from there, not copied, so that this port cannot hold a
// stale copy. Nothing here is a hand-typed table.

const fs = require('fs');
const path = require('path');

function load(name) {
  const file = path.join(__dirname, '..', 'python', name);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** A predicate over sorted inclusive code point ranges [[low, high], ...]. */
function rangeClass(ranges) {
  const lows = Int32Array.from(ranges, (r) => r[0]);
  const highs = Int32Array.from(ranges, (r) => r[1]);
  return (code) => {
    let lo = 0;
    let hi = lows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (code < lows[mid]) hi = mid - 1;
      else if (code > highs[mid]) lo = mid + 1;
      else return true;
    }
    return false;
  };
}

const unicodeData = load('unicode_data.json');
const readings = load('envelope_readings.json');

// Code point -> [case_first, skeleton_first, cured] folds; a code point
// not listed folds to itself (no fold of it spells ASCII text).
const FOLDS = new Map(Object.entries(unicodeData.folds).map(([hex, folds]) => [parseInt(hex, 16), folds]));

module.exports = {
  FOLDS,
  isInvisibleFormatCode: rangeClass(unicodeData.invisible_format),
  isDefaultIgnorableCode: rangeClass(unicodeData.default_ignorable),
  isBidiControlCode: rangeClass(unicodeData.bidi_control),
  envelopeClass: {
    always: rangeClass(readings.always),
    opener: rangeClass(readings.opener),
    readsU: rangeClass(readings.reads_u),
    readsSlash: rangeClass(readings.reads_slash),
    dropped: rangeClass(readings.dropped),
  },
};
