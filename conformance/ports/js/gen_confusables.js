#!/usr/bin/env node
'use strict';
// Writes confusables.json: the UTS #39 prototype of every code point that
// Unicode's confusables.txt maps (the data behind TR39's skeleton), read
// from the table the `unicode-security` crate (0.1.3, Unicode 18.0.0)
// generates from confusables.txt into its src/tables.rs. The table is
// Unicode's data: Copyright © Unicode, Inc., under the Unicode License v3
// (https://www.unicode.org/license.txt).
//
//   node conformance/ports/js/gen_confusables.js [PATH/TO/unicode-security-0.1.3/src/tables.rs]
//
// Without a path, the crate is looked for in ~/.cargo/registry/src/.

const fs = require('fs');
const os = require('os');
const path = require('path');

function findTables() {
  const root = path.join(os.homedir(), '.cargo', 'registry', 'src');
  for (const index of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    const file = path.join(root, index, 'unicode-security-0.1.3', 'src', 'tables.rs');
    if (fs.existsSync(file)) return file;
  }
  throw new Error('unicode-security-0.1.3 not found under ~/.cargo/registry/src: give the path of its src/tables.rs');
}

const file = process.argv[2] ?? findTables();
const source = fs.readFileSync(file, 'utf8');
const version = /pub const UNICODE_VERSION: \(u64, u64, u64\) = \((\d+), (\d+), (\d+)\);/.exec(source);
const start = source.indexOf("const CONFUSABLES: &'static [(char, &'static [char])] = &[");
const end = source.indexOf('];', start);
if (version === null || start < 0 || end < 0) {
  throw new Error(`${file}: no confusables table of the expected form`);
}
const table = source.slice(start, end);
const entry = /\('\\u\{([0-9a-f]+)\}',\s*&\[([^\]]*)\]\)/g;
const prototypes = [];
let count = 0;
for (const [, from, to] of table.matchAll(entry)) {
  const chars = [...to.matchAll(/'\\u\{([0-9a-f]+)\}'/g)].map((m) => String.fromCodePoint(parseInt(m[1], 16)));
  prototypes.push([parseInt(from, 16), chars.join('')]);
  count += 1;
}
if (count < 6000) {
  throw new Error(`${file}: only ${count} confusables read, the table's form must have changed`);
}
const out = {
  description:
    "UTS #39 confusables: [code point, prototype] in code point order, from Unicode's confusables.txt as the unicode-security crate 0.1.3 embeds it; written by gen_confusables.js.",
  unicode_version: version.slice(1).join('.'),
  licence: 'Unicode License v3 (https://www.unicode.org/license.txt), Copyright © Unicode, Inc.',
  prototypes,
};
const target = path.join(__dirname, 'confusables.json');
prototypes.sort((a, b) => a[0] - b[0]);
const lines = prototypes.map((pair) => JSON.stringify(pair));
const head = JSON.stringify({ description: out.description, unicode_version: out.unicode_version, licence: out.licence }, null, 1);
fs.writeFileSync(target, `${head.slice(0, -2)},\n "prototypes": [\n${lines.join(',\n')}\n ]\n}\n`);
process.stderr.write(`${target}: ${count} prototypes, Unicode ${out.unicode_version}\n`);
