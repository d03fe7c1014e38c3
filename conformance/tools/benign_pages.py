#!/usr/bin/env python3
"""How many benign real pages the strip layer changes.

    python3 conformance/tools/benign_pages.py --bin target/release/agentfence \\
        /usr/share/doc/git-doc /usr/share/doc/python3.11/html \\
        /usr/share/doc/postgresql-doc-15/html

Every `.html`, `.htm` and `.txt` file under the folders given (or the
suffixes `--suffixes` names; a `.gz` file is decompressed: with
`--suffixes .gz /usr/share/doc`, the change logs and NEWS files a Debian
machine installs), of any size, is read as UTF-8 (files that are not are
left out and counted), sent as one line of `agentfence web strip --jsonl`,
and counted as changed when the text that comes back differs. Prints the
figure and each changed file with what was removed from it. Standard
library only; the texts are pages a machine installs, not committed here.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys


def pages(folders, suffixes):
    for folder in folders:
        for root, dirs, files in os.walk(folder, followlinks=True):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(suffixes):
                    yield os.path.join(root, name)


def removed_spans(original, stripped):
    """What each `[STRIPPED]` replaced: the text between the pieces kept."""
    pieces = stripped.split("[STRIPPED]")
    spans, at = [], len(pieces[0])
    for piece in pieces[1:]:
        key = piece[:60]
        end = original.find(key, at) if key else len(original)
        if end < 0:
            break
        spans.append(original[at:end])
        at = end + len(piece)
    return spans


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="target/release/agentfence")
    parser.add_argument("--suffixes", default=".html,.htm,.txt",
                        help="comma-separated file name endings to read (.gz files are decompressed)")
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args()
    names, texts, unreadable = [], [], 0
    for path in pages(args.folders, tuple(args.suffixes.split(","))):
        try:
            with open(path, "rb") as f:
                data = f.read()
            if path.endswith(".gz"):
                data = gzip.decompress(data)
            texts.append(data.decode("utf-8"))
            names.append(path)
        except (OSError, UnicodeDecodeError, EOFError, gzip.BadGzipFile):
            unreadable += 1
    lines = "".join(json.dumps(text) + "\n" for text in texts).encode()
    run = subprocess.run([args.bin, "web", "strip", "--jsonl"], input=lines,
                         capture_output=True, check=True)
    answers = run.stdout.decode().splitlines()
    if len(answers) != len(texts):
        sys.exit(f"{args.bin} answered {len(answers)} lines for {len(texts)} pages")
    changed = 0
    for name, text, answer in zip(names, texts, answers):
        answer = json.loads(answer)
        if answer["text"] != text:
            changed += 1
            print(name, answer["removed_patterns"])
            for span in removed_spans(text, answer["text"]):
                print("   ", repr(span[:160]))
    total = len(texts)
    share = 100 * changed / total if total else 0.0
    print(f"{changed} of {total} pages changed: {share:.2f}% ({unreadable} not UTF-8, left out)")


if __name__ == "__main__":
    main()
