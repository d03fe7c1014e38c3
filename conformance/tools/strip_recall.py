#!/usr/bin/env python3
"""Recall and false positives of any port's `strip` on labelled rows.

    python3 conformance/tools/strip_recall.py --port CMD [--by-category] FILE.jsonl...

Each FILE holds one JSON object per line with `label` ("attack" or
"benign") and `text` (the format of `corpus/injection/`). Every text is
sent to the port as a protocol v1 `strip` case; a row counts as caught when
the answer removes anything, as `core/tests/injection_corpus.rs` counts it.
Only the figures are printed, never a text, so a blind set stays blind.
`--by-category` adds each category's figure, and each language's in the
multilingual categories (the first word of `note`, as `BLIND4.md` writes
it), which is how the blind sets ask to be scored.
"""

import argparse
import json
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", required=True, help="the port's command line")
    parser.add_argument("--by-category", action="store_true", help="also print each category's and language's figure")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    port = subprocess.Popen(
        args.port, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def ask(message):
        port.stdin.write(json.dumps(message) + "\n")
        port.stdin.flush()
        line = port.stdout.readline()
        if not line:
            sys.exit(f"the port closed its output (exit {port.wait()})")
        return json.loads(line)

    hello = ask({"type": "hello", "protocol": 1})
    if "strip" not in hello.get("operations", []):
        sys.exit("the port does not list the strip operation")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors", "strip.json"), encoding="utf-8") as suite:
        version = json.load(suite)["version"]
    # A suite message answers nothing; the strip suite has no config.
    port.stdin.write(json.dumps({"type": "suite", "suite": "web", "version": version, "config": {}}) + "\n")
    for path in args.files:
        counts = {"attack": [0, 0], "benign": [0, 0]}
        groups = {}
        with open(path, encoding="utf-8") as rows:
            for number, line in enumerate(rows, 1):
                row = json.loads(line)
                if row["label"] not in counts:
                    sys.exit(f"{path}:{number}: unknown label {row['label']!r}")
                answer = ask(
                    {"type": "case", "id": f"row-{number}", "op": "strip", "input": {"text": row["text"]}}
                )
                if "output" not in answer:
                    sys.exit(f"{path}:{number}: the port answered without an output: {answer}")
                flagged_row = bool(answer["output"].get("removed_patterns"))
                counts[row["label"]][0] += 1
                counts[row["label"]][1] += flagged_row
                for group in row_groups(row):
                    tally = groups.setdefault((row["label"], group), [0, 0])
                    tally[0] += 1
                    tally[1] += flagged_row
        (attacks, caught), (benign, flagged) = counts["attack"], counts["benign"]
        print(
            f"{path}: recall {caught}/{attacks} = {100 * caught / max(attacks, 1):.1f}%, "
            f"false positives {flagged}/{benign} = {100 * flagged / max(benign, 1):.1f}%"
        )
        if args.by_category:
            for (label, group), (rows_in, hit) in sorted(groups.items()):
                what = "caught" if label == "attack" else "changed"
                print(f"  {label} {group}: {what} {hit}/{rows_in} = {100 * hit / rows_in:.1f}%")
    port.stdin.close()
    port.wait()


def row_groups(row):
    """The category of `row`, and in a multilingual category also its
    language (`note` opens with the ISO 639 code and a colon)."""
    category = row.get("category", "?")
    groups = [category]
    if category.startswith("multilingual"):
        code = row.get("note", "").split(":", 1)[0].strip()
        if code and " " not in code:
            groups.append(f"{category} {code}")
    return groups


if __name__ == "__main__":
    main()
