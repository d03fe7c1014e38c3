#!/usr/bin/env python3
"""Shows what changed in conformance/vectors/{strip,envelope,fetch}.json
against a git revision (HEAD by default) or a directory of earlier copies:
ids that lost or changed their input (never allowed), new cases, and cases
whose expected answer, upstream answer, flags or description changed.

    python3 conformance/tools/web_vectors/diff.py               # working tree against HEAD
    python3 conformance/tools/web_vectors/diff.py --rev HEAD~3
    python3 conformance/tools/web_vectors/diff.py --prev /tmp/old-vectors

Exits with status 1 when an id lost or changed its input. Standard library
only.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = "conformance/vectors"
FILES = ["strip.json", "envelope.json", "fetch.json"]
WIDTH = 300

_spec = importlib.util.spec_from_file_location(
    "record_upstream", os.path.join(ROOT, "conformance", "tools", "record_upstream.py"))
record_upstream = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record_upstream)


def show(value):
    # Invisible characters, look-alikes and line breaks as the files write them.
    text = record_upstream.escape_invisible(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= WIDTH else text[:WIDTH] + " …"


def answer(case):
    if "expected_error" in case:
        return {"error": case["expected_error"]}
    return case.get("expected")


def identity(case):
    return json.dumps([case["op"], case["input"], case.get("fixture")], sort_keys=True)


def load_previous(name, rev, prev_dir):
    if prev_dir:
        path = os.path.join(prev_dir, name)
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    shown = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:{VECTORS}/{name}"],
                           capture_output=True, text=True, encoding="utf-8")
    if shown.returncode:
        return None
    return json.loads(shown.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="git revision to compare with (default HEAD)")
    parser.add_argument("--prev", help="a directory holding the earlier strip/envelope/fetch.json instead")
    args = parser.parse_args()

    broken = 0
    for name in FILES:
        with open(os.path.join(ROOT, VECTORS, name), encoding="utf-8") as handle:
            now = json.load(handle)
        before = load_previous(name, args.rev, args.prev)
        if before is None:
            print(f"== {name}: nothing to compare with")
            continue
        old = {case["id"]: case for case in before["cases"]}
        new = {case["id"]: case for case in now["cases"]}
        by_input = {identity(case): case["id"] for case in before["cases"]}
        lines = []
        for cid in old:
            if cid not in new:
                lines.append(f"!! {cid} is gone (ids are never removed)")
                broken += 1
        if before.get("notes") != now.get("notes"):
            for flag in sorted(set(before.get("notes", {})) | set(now.get("notes", {}))):
                if before.get("notes", {}).get(flag) != now.get("notes", {}).get(flag):
                    lines.append(f"   note {flag}: {show(now.get('notes', {}).get(flag))}")
        if before.get("description") != now.get("description"):
            lines.append("   the file's description changed")
        for case in now["cases"]:
            cid = case["id"]
            was = old.get(cid)
            if was is None:
                moved = by_input.get(identity(case))
                lines.append(f"+  {cid} {case['description']}")
                lines.append(f"     flags  {', '.join(case['flags'])}")
                lines.append(f"     input  {show(case['input'])}")
                lines.append(f"     answer {show(answer(case))}")
                for upstream, value in case.get("upstream", {}).items():
                    lines.append(f"     {upstream} {show(value)}")
                if moved:
                    lines.append(f"     (the same input as {moved})")
                continue
            if identity(was) != identity(case):
                lines.append(f"!! {cid} changed its input (ids are never reused)")
                lines.append(f"     was    {show(was['input'])}")
                lines.append(f"     now    {show(case['input'])}")
                broken += 1
                continue
            changes = []
            if answer(was) != answer(case):
                changes += [f"     was    {show(answer(was))}", f"     now    {show(answer(case))}"]
            if was.get("upstream") != case.get("upstream"):
                changes += [f"     upstream was {show(was.get('upstream'))}",
                            f"     upstream now {show(case.get('upstream'))}"]
            if was["flags"] != case["flags"]:
                changes.append(f"     flags  {', '.join(was['flags'])} -> {', '.join(case['flags'])}")
            if was["description"] != case["description"]:
                changes.append(f"     description now: {case['description']}")
            if changes:
                lines.append(f"~  {cid} {case['description'][:100]}")
                lines.append(f"     input  {show(case['input'])}")
                lines += changes
        print(f"== {name}: {len(old)} -> {len(new)} cases")
        print("\n".join(lines) if lines else "   no change")
    if broken:
        print(f"{broken} id(s) lost or changed their input")
        sys.exit(1)


if __name__ == "__main__":
    main()
