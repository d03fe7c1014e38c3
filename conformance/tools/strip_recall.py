#!/usr/bin/env python3
"""Recall and false positives of any port's `strip` on labelled rows.

    python3 conformance/tools/strip_recall.py --port CMD FILE.jsonl...

Each FILE holds one JSON object per line with `label` ("attack" or
"benign") and `text` (the format of `corpus/injection/`). Every text is
sent to the port as a protocol v1 `strip` case; a row counts as caught when
the answer removes anything, as `core/tests/injection_corpus.rs` counts it.
Only the figures are printed, never a text, so a blind set stays blind.
"""

import argparse
import json
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", required=True, help="the port's command line")
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
                counts[row["label"]][0] += 1
                counts[row["label"]][1] += bool(answer["output"].get("removed_patterns"))
        (attacks, caught), (benign, flagged) = counts["attack"], counts["benign"]
        print(
            f"{path}: recall {caught}/{attacks} = {100 * caught / max(attacks, 1):.1f}%, "
            f"false positives {flagged}/{benign} = {100 * flagged / max(benign, 1):.1f}%"
        )
    port.stdin.close()
    port.wait()


if __name__ == "__main__":
    main()
