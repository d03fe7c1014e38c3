#!/usr/bin/env python3
"""Writes case_folding.json: the full case folding (Unicode's
CaseFolding.txt, statuses C and F, as Python's str.casefold applies it) of
every code point whose folding is not its full lowercase mapping
(str.lower): ß to ss, ſ to s, ς to σ, ﬁ to fi, Cherokee small letters to
their capitals, ... Node has the lowercase mapping (toLowerCase) but no
case folding; skeleton.js folds with this table and toLowerCase elsewhere.
Unicode's data: Copyright © Unicode, Inc., under the Unicode License v3
(https://www.unicode.org/license.txt).

    python3 conformance/ports/js/gen_case_folding.py
"""

import json
import os
import sys
import unicodedata

pairs = []
for code in range(sys.maxunicode + 1):
    if 0xD800 <= code <= 0xDFFF:
        continue
    c = chr(code)
    folded = c.casefold()
    if folded != c.lower():
        pairs.append([code, folded])

head = {
    "description": "Full case folding [code point, folding] where it is not the full lowercase "
    "mapping, from Unicode's CaseFolding.txt as Python's str.casefold applies it; written by "
    "gen_case_folding.py.",
    "unicode_version": unicodedata.unidata_version,
    "licence": "Unicode License v3 (https://www.unicode.org/license.txt), Copyright © Unicode, Inc.",
}
target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "case_folding.json")
with open(target, "w", encoding="utf-8") as f:
    text = json.dumps(head, ensure_ascii=False, indent=1)
    f.write(text[:-2] + ',\n "foldings": [\n')
    f.write(",\n".join(json.dumps(p, ensure_ascii=False) for p in pairs))
    f.write("\n ]\n}\n")
print(f"{target}: {len(pairs)} foldings, Unicode {head['unicode_version']}", file=sys.stderr)
