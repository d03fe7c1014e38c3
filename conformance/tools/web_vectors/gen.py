#!/usr/bin/env python3
"""Builds conformance/vectors/{strip,envelope,fetch}.json from the cases in
strip_cases.py, envelope_cases.py and fetch_cases.py.

Each case's expected answer is the reference's: the cases go to `agentfence
run --report` as a draft with placeholder answers, and the answers the report
shows are written back (with the fixture's address put back as {base} and
{port}). Ids are assigned in list order (web-1001.. strip, web-2001..
envelope, web-3001.. fetch), so a new case is appended at the end of its
list; the run refuses to give an existing id another input.

    cargo build -p agentfence-conformance
    python3 conformance/tools/web_vectors/gen.py                  # expected answers
    python3 conformance/tools/web_vectors/gen.py --record \\
        --upstream target/release/upstream-agentsec               # and agentsec-core 0.5.0's answers
    python3 conformance/tools/web_vectors/gen.py --check          # are the files up to date?

Without --record, what agentsec-core 0.5.0 answered is carried over from the
current files for every case whose input is unchanged (its answer depends on
the input alone), dropped where it now agrees with the expected answer, and
missing for new cases, which are listed. Files are written in the canonical
form of conformance/tools/record_upstream.py. Standard library only.
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(ROOT, "conformance", "vectors")
RECORD_UPSTREAM = os.path.join(ROOT, "conformance", "tools", "record_upstream.py")
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
DEFAULT_BIN = os.path.join(TARGET, "debug", "agentfence")
DEFAULT_UPSTREAM_BIN = os.path.join(TARGET, "release", "upstream-agentsec")
UPSTREAM = "agentsec-core@0.5.0"
# The web suite's version, written into all three files. Bump it as
# conformance/CHANGELOG.md says (cases added: minor; an expected answer
# changed or a case retired: major; descriptions, notes, upstream answers:
# patch) and add the changelog section and vectors/VERSION with it.
SUITE_VERSION = "2.17.0"

sys.path.insert(0, HERE)
import envelope_cases  # noqa: E402
import fetch_cases  # noqa: E402
import strip_cases  # noqa: E402

_spec = importlib.util.spec_from_file_location("record_upstream", RECORD_UPSTREAM)
record_upstream = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record_upstream)
FLAG = record_upstream.FLAG


def notes(table):
    return {flag: {"description": d, "effect": e} for flag, (d, e) in sorted(table.items())}


def header(module):
    return {
        "$schema": "../schema/web.schema.json",
        "suite": "web",
        "version": SUITE_VERSION,
        "description": module.DESCRIPTION,
        "notes": notes(module.NOTES),
        "cases": [],
    }


def check_flags(module, name):
    for n, case in enumerate(module.CASES):
        description, flags = case[0], case[1]
        unknown = [flag for flag in flags if flag not in module.NOTES]
        if not description or unknown:
            sys.exit(f"{name} case {n + 1} ({description[:60]!r}): "
                     f"{'no description' if not description else 'flags not in NOTES: ' + ', '.join(unknown)}")


def build():
    """The three documents without answers, and the upstream note of every
    fetch case that is not run against upstream, by id."""
    for module, name in [(strip_cases, "strip_cases"), (envelope_cases, "envelope_cases"), (fetch_cases, "fetch_cases")]:
        check_flags(module, name)
    files = {}
    doc = header(strip_cases)
    for n, (desc, flags, text) in enumerate(strip_cases.CASES):
        doc["cases"].append({"id": f"web-{1001 + n}", "description": desc, "flags": list(flags), "op": "strip",
                             "input": {"text": text}})
    files["strip.json"] = doc
    doc = header(envelope_cases)
    for n, (desc, flags, value) in enumerate(envelope_cases.CASES):
        doc["cases"].append({"id": f"web-{2001 + n}", "description": desc, "flags": list(flags), "op": "envelope",
                             "input": value})
    files["envelope.json"] = doc
    doc = header(fetch_cases)
    upstream_notes = {}
    for n, (desc, flags, value, fixture, note) in enumerate(fetch_cases.CASES):
        cid = f"web-{3001 + n}"
        value = dict(value)
        if value["id"] == "ID":
            value["id"] = f"00000000-0000-4000-8000-00000000{3001 + n:04d}"
        flags = list(flags)
        if note:
            flags.append("outside-address")
        case = {"id": cid, "description": desc, "flags": flags, "op": "fetch", "input": value}
        if fixture is not None:
            case["fixture"] = fixture
        doc["cases"].append(case)
        if note:
            upstream_notes[cid] = note
    files["fetch.json"] = doc
    return files, upstream_notes


def identity(case):
    """What an id stands for: a case's id is never given another of these."""
    return json.dumps([case["op"], case["input"], case.get("fixture")], sort_keys=True)


def read_current(name):
    path = os.path.join(OUT, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def check_ids(files, current):
    """Every id of the current files keeps its input; ids are only added."""
    problems = []
    for name, doc in files.items():
        if current.get(name) is None:
            continue
        new = {case["id"]: case for case in doc["cases"]}
        for case in current[name]["cases"]:
            if case["id"] not in new:
                problems.append(f"{name}: {case['id']} would disappear")
            elif identity(case) != identity(new[case["id"]]):
                problems.append(f"{name}: {case['id']} would get another input "
                                f"(was {json.dumps(case['input'], ensure_ascii=False)[:120]})")
    if problems:
        sys.exit("ids must stay stable: append new cases at the end of a CASES list, never insert, "
                 "remove or edit an input in place.\n  " + "\n  ".join(problems[:20])
                 + (f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""))


def placeholder(doc):
    """The document with a placeholder answer on every case and no upstream
    entries (the runner's lint wants the flag and the entry together)."""
    draft = json.loads(json.dumps(doc))
    for case in draft["cases"]:
        for key in ["result", "expected", "expected_error", "upstream"]:
            case.pop(key, None)
        case["flags"] = [flag for flag in case["flags"] if flag != FLAG]
        case["result"] = "valid"
        case["expected"] = {}
    return draft


def unsubstitute(value, port):
    if port is None:
        return value
    if isinstance(value, str):
        value = value.replace(f"http://127.0.0.1:{port}", "{base}")
        return re.sub(rf":{port}(?![0-9])", ":{port}", value)
    if isinstance(value, list):
        return [unsubstitute(v, port) for v in value]
    if isinstance(value, dict):
        return {unsubstitute(k, port): unsubstitute(v, port) for k, v in value.items()}
    return value


def port_of(original, prepared):
    """The fixture port, from the original and the prepared input."""
    a, b = json.dumps(original, sort_keys=True), json.dumps(prepared, sort_keys=True)
    if a == b:
        return None
    pattern = (re.escape(a).replace(re.escape("{base}"), r"http://127\.0\.0\.1:([0-9]+)")
               .replace(re.escape("{port}"), r"([0-9]+)"))
    match = re.fullmatch(pattern, b)
    assert match, (a, b)
    return match.group(1)


def run_reference(runner, files, port_cmd=None, ids=None):
    """Each case's answer, by id, from `runner run` (against `port_cmd` if
    given): ("output", value), ("error", {"kind": ...}), ("skipped", why) or
    ("broken", why)."""
    with tempfile.TemporaryDirectory(prefix="web-vectors-") as scratch:
        draft = os.path.join(scratch, "draft")
        os.mkdir(draft)
        for name, doc in files.items():
            with open(os.path.join(draft, name), "w", encoding="utf-8") as handle:
                json.dump(placeholder(doc), handle, ensure_ascii=False)
        report = os.path.join(scratch, "report.json")
        args = [runner, "run", "--vectors", draft, "--suite", "web", "--report", report, "--timeout", "10"]
        if port_cmd:
            args += ["--port", port_cmd]
        for cid in ids or []:
            args += ["--id", cid]
        # Every case fails against its placeholder answer, so the exit status
        # says nothing; the report is what counts.
        run = subprocess.run(args, capture_output=True, text=True)
        if not os.path.exists(report):
            sys.exit(f"{' '.join(args[:2])} wrote no report (exit {run.returncode}):\n{run.stderr.strip()}")
        with open(report, encoding="utf-8") as handle:
            data = json.load(handle)
    originals = {c["id"]: c for doc in files.values() for c in doc["cases"]}
    answers = {}
    for file in data["files"]:
        for case in file["cases"]:
            answer = case["answer"]
            port = port_of(originals[case["id"]]["input"], case["input"])
            if "broken" in answer:
                answers[case["id"]] = ("broken", answer["broken"]["reason"])
                continue
            if "not_sent" in answer:
                answers[case["id"]] = ("skipped", answer["not_sent"]["reason"])
                continue
            replied = answer["replied"]
            if "output" in replied:
                answers[case["id"]] = ("output", unsubstitute(replied["output"], port))
            elif "error" in replied:
                answers[case["id"]] = ("error", replied["error"])
            else:
                answers[case["id"]] = ("skipped", replied["skipped"]["reason"])
    missing = [cid for cid in (ids or originals) if cid not in answers]
    if missing:
        sys.exit(f"the report has no answer for {', '.join(missing[:10])}")
    return answers


ORDER = ["id", "url", "fetched_at", "sanitized_text", "text", "removed_patterns", "semantic"]


def ordered(output):
    assert set(output) <= set(ORDER), output
    return {key: output[key] for key in ORDER if key in output}


def sync_flag(case):
    """The upstream-divergence flag, last, exactly when an upstream entry is there."""
    flags = [flag for flag in case["flags"] if flag != FLAG]
    if case.get("upstream"):
        flags.append(FLAG)
    case["flags"] = flags


def set_upstream(case, answer):
    """Records agentsec-core's `answer` (or removes its entry when None)."""
    upstream = case.pop("upstream", {})
    if answer is None:
        upstream.pop(UPSTREAM, None)
    else:
        upstream[UPSTREAM] = answer
    if upstream:
        case["upstream"] = dict(sorted(upstream.items()))
    sync_flag(case)


def carry_over(case, previous, upstream_notes):
    """Puts back what each upstream answered for this input in the current
    file, less the entries that now agree with the expected answer; returns
    False when there is nothing to go by (a new case)."""
    case.pop("upstream", None)
    if case["id"] in upstream_notes:
        set_upstream(case, {"error": {"message": upstream_notes[case["id"]]}})
        return True
    if previous is None or identity(previous) != identity(case):
        sync_flag(case)
        return False
    kept = {name: answer for name, answer in previous.get("upstream", {}).items()
            if answer not in record_upstream.accepted(case)}
    if kept:
        case["upstream"] = dict(sorted(kept.items()))
    sync_flag(case)
    return True


def generate(runner):
    """The three files' canonical text, by name, and the ids that have no
    upstream answer yet."""
    files, upstream_notes = build()
    current = {name: read_current(name) for name in files}
    check_ids(files, current)
    answers = run_reference(runner, files)
    unrecorded = []
    texts = {}
    for name, doc in files.items():
        previous = {c["id"]: c for c in (current[name] or {"cases": []})["cases"]}
        for case in doc["cases"]:
            kind, answer = answers[case["id"]]
            fixture = case.pop("fixture", None)
            if fixture is not None:
                case["fixture"] = fixture
            if kind == "output":
                case["result"] = "valid"
                case["expected"] = ordered(answer)
            elif kind == "error":
                case["result"] = "invalid"
                case["expected_error"] = {"kind": answer["kind"]}
            else:
                sys.exit(f"{case['id']}: the reference gave no answer ({kind}: {answer})")
            if not carry_over(case, previous.get(case["id"]), upstream_notes):
                unrecorded.append(case["id"])
        texts[name] = record_upstream.canonical(doc)
    return texts, unrecorded


def write(texts):
    for name, text in texts.items():
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"{name}: {len(json.loads(text)['cases'])} cases")


def record(runner, upstream_bin):
    """Records agentsec-core 0.5.0's answers into the files as written:
    strip and envelope through record_upstream.py, fetch through the runner
    (only the cases that reach nothing but loopback)."""
    if not os.access(upstream_bin, os.X_OK):
        sys.exit(f"no upstream port at {upstream_bin}: build it with\n"
                 "  cargo build --release -p agentfence-upstream --features agentsec --bin upstream-agentsec\n"
                 "(that feature alone, see conformance/upstream/Cargo.toml) or pass --upstream PATH")
    for name in ["strip.json", "envelope.json"]:
        out = subprocess.run([sys.executable, RECORD_UPSTREAM, "--port", upstream_bin,
                              "--name", UPSTREAM, os.path.join(OUT, name)], capture_output=True, text=True)
        if out.returncode:
            sys.exit(f"record_upstream.py failed on {name}:\n{out.stderr.strip()}")
        print(f"{name}: {out.stdout.strip()}")
    path = os.path.join(OUT, "fetch.json")
    doc = read_current("fetch.json")
    _, notes_by_id = build()
    safe = [case["id"] for case in doc["cases"] if case["id"] not in notes_by_id]
    answers = run_reference(runner, {"fetch.json": doc}, port_cmd=upstream_bin, ids=safe)
    diverging = 0
    for case in doc["cases"]:
        if case["id"] in notes_by_id:
            set_upstream(case, {"error": {"message": notes_by_id[case["id"]]}})
            diverging += 1
            continue
        kind, answer = answers[case["id"]]
        if kind == "output":
            same = case.get("expected") == answer
            recorded = ordered(answer)
        elif kind == "error":
            same = case.get("expected_error") == {"kind": answer["kind"]}
            recorded = {"error": {"kind": answer["kind"]}}
        else:
            sys.exit(f"{case['id']}: upstream {kind}: {answer} (a build of the port with other features "
                     "skips fetch; build it with --features agentsec alone)")
        set_upstream(case, None if same else recorded)
        diverging += not same
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(record_upstream.canonical(doc))
    print(f"fetch.json: {UPSTREAM}: {diverging} of {len(doc['cases'])} cases diverge")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("AGENTFENCE_BIN", DEFAULT_BIN),
                        help="the agentfence CLI (default $AGENTFENCE_BIN, else %(default)s)")
    parser.add_argument("--record", action="store_true",
                        help="also record agentsec-core 0.5.0's answers with the upstream port")
    parser.add_argument("--upstream", default=os.environ.get("AGENTFENCE_UPSTREAM_BIN", DEFAULT_UPSTREAM_BIN),
                        help="the upstream-agentsec port (default $AGENTFENCE_UPSTREAM_BIN, else %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail if the files differ from what would be written")
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"no agentfence CLI at {args.bin}: run `cargo build -p agentfence-conformance` first, "
                 "or pass --bin / set AGENTFENCE_BIN")
    if args.check and args.record:
        sys.exit("--check and --record do not go together")
    texts, unrecorded = generate(args.bin)
    if args.check:
        stale = []
        for name, text in texts.items():
            path = os.path.join(OUT, name)
            with open(path, encoding="utf-8") as handle:
                if handle.read() != text:
                    stale.append(name)
        if stale or unrecorded:
            sys.exit(f"out of date: {', '.join(stale) or 'none'}; without an upstream answer: "
                     f"{', '.join(unrecorded) or 'none'}. Run gen.py (with --record for new cases).")
        print("up to date")
        return
    write(texts)
    if args.record:
        record(args.bin, args.upstream)
    elif unrecorded:
        print(f"no {UPSTREAM} answer yet for {len(unrecorded)} case(s): {', '.join(unrecorded)}; "
              "run again with --record")


if __name__ == "__main__":
    main()
