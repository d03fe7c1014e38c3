#!/usr/bin/env python3
"""Rough check: share of corpus messages with at least two vocabulary words.

Tokens containing a digit, '/', '.', or a quote are ignored (they become
placeholders); edge punctuation is trimmed; the rest is lowercased.
Usage: python3 coverage.py  (run from anywhere)
"""
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent
VOCAB_FILE = HERE.parents[2] / "src" / "template" / "vocabulary.txt"
vocab = {w for w in VOCAB_FILE.read_text().split("\n") if w and not w.startswith("#")}

total = covered = 0
for path in sorted(HERE.glob("*.txt")):
    n = ok = 0
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("# "):
            continue
        words = [
            tok.strip("()[]{},;:!?<>*").lower()
            for tok in line.split()
            if not re.search(r"[0-9/.\"'`‘’«»]", tok)
        ]
        n += 1
        ok += sum(w in vocab for w in words) >= 2
    print(f"{path.name:14} {ok:5}/{n:<5} {ok / n:6.1%}")
    total += n
    covered += ok
print(f"{'total':14} {covered:5}/{total:<5} {covered / total:6.1%}")
