#!/usr/bin/env python3
"""Records what an upstream implementation answers for every case of a
vector file, through the port protocol v1, and marks the divergences.

    python3 conformance/tools/record_upstream.py \
        --port target-upstream/release/upstream-lean-ctx \
        conformance/vectors/template.json

The answers are recorded under the upstream's key, taken from the port's
hello unless --name gives it: NAME@VERSION for an upstream written in Rust
(the language of the upstream crates this suite first measured:
`lean-ctx@3.12.0`, `prompty@2.1.0`), NAME-LANGUAGE@VERSION for any other
(`prompty-python@2.1.0`), so that two runtimes published under one name,
such as prompty's Rust crate and its Python package, each keep their own
entry in a case. A case holds the entries of every upstream recorded.

For each case the port answers: when the answer differs from what the case
expects, it is stored under "upstream"/NAME and the case gets the flag
"upstream-divergence"; when it agrees, any stale entry for NAME is removed
(and the flag too, if no other upstream diverges). Cases the port skips keep
what they had. The file is rewritten in the suite's canonical form.
Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys

FLAG = "upstream-divergence"


# Non-ASCII characters written as themselves: placeholders, the ellipsis,
# quote marks and dashes, and CJK text. Every other one is escaped, so that
# a reviewer sees each line break, joiner, control code and look-alike.
READABLE = set("‹›…«»“”‘’„‚「」『』—–")


def is_readable(ch):
    code = ord(ch)
    if code < 0x80:
        return ch == "\n" or 0x20 <= code < 0x7F
    return ch in READABLE or 0x3040 <= code <= 0x30FF or 0x4E00 <= code <= 0x9FFF


def escape_invisible(text):
    """Escapes every character that is not readable as itself."""
    out = []
    for ch in text:
        if not is_readable(ch):
            code = ord(ch)
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(ch)
    return "".join(out)


def canonical(document):
    """The suite's canonical form: the file, its notes and its cases one key
    per line with 2-space indentation; the values inside a case or a note on
    one line each. `agentfence vectors fmt` (conformance/src/canonical.rs)
    writes the same bytes, and `cargo test` checks that the two agree; change
    both together."""
    def render(value, depth):
        if depth >= 3 or not isinstance(value, (dict, list)) or not value:
            return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        pad = "  " * (depth + 1)
        if isinstance(value, dict):
            items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {render(v, depth + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
        items = [pad + render(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    return escape_invisible(render(document, 0)) + "\n"


def same_json(value):
    """A key equal for two JSON values exactly when the runner takes them for
    the same answer: Python's == takes 1 for True and for 1.0, the runner
    does not."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def accepted(case):
    """The answers, as this tool records them, that agree with the case: an
    output, or {"error": {"kind": K}}. An acceptable answer that needs a
    policy flag (its "flags") does not agree: the suite chose otherwise, so
    an upstream answering it is recorded."""
    if case.get("result") == "acceptable":
        alternatives = [alternative for alternative in case.get("acceptable", [])
                        if not alternative.get("flags")]
        return [alternative["expected"] if "expected" in alternative
                else {"error": alternative["expected_error"]}
                for alternative in alternatives]
    if case.get("result") == "invalid":
        return [{"error": case.get("expected_error")}]
    return [case.get("expected")]


def upstream_key(hello):
    """The key under which an upstream's answers are recorded, from its
    hello's implementation (see the module's docstring)."""
    implementation = hello.get("implementation") or {}
    name, language, version = (implementation.get(field) for field in ("name", "language", "version"))
    if not all(isinstance(part, str) and part for part in (name, language, version)):
        sys.exit(f"the port's hello names no implementation name, language and version: {implementation!r}")
    return f"{name}@{version}" if language == "rust" else f"{name}-{language}@{version}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", required=True, help="command of the upstream port")
    parser.add_argument("--name", help="the upstream key, name@version (default: from the port's hello)")
    parser.add_argument("vectors", help="vector file to update in place")
    args = parser.parse_args()

    with open(args.vectors, encoding="utf-8") as handle:
        document = json.load(handle)
    port = subprocess.Popen(args.port, shell=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def send(message):
        port.stdin.write(json.dumps(message) + "\n")
        port.stdin.flush()

    def receive():
        line = port.stdout.readline()
        if not line:
            sys.exit("the port closed its output")
        return json.loads(line)

    send({"type": "hello", "protocol": 1})
    hello = receive()
    operations = set(hello.get("operations", []))
    if args.name is None:
        args.name = upstream_key(hello)
    config = {}
    if "vocabulary" in document:
        path = os.path.join(os.path.dirname(args.vectors), document["vocabulary"])
        with open(path, encoding="utf-8") as handle:
            config["vocabulary"] = [word for word in handle.read().split("\n")
                                    if word and not word.startswith("#")]
    send({"type": "suite", "suite": document["suite"], "version": document["version"], "config": config})
    changed = 0
    for case in document["cases"]:
        if case["op"] not in operations:
            continue
        send({"type": "case", "id": case["id"], "op": case["op"], "input": case["input"]})
        result = receive()
        if result.get("id") != case["id"]:
            sys.exit(f"{case['id']}: the port answered for {result.get('id')}")
        if "skipped" in result:
            continue
        answer = result["output"] if "output" in result else {"error": {"kind": result["error"]["kind"]}}
        upstream = case.get("upstream", {})
        before = json.dumps(case, sort_keys=True)
        if same_json(answer) in {same_json(alternative) for alternative in accepted(case)}:
            upstream.pop(args.name, None)
        else:
            upstream[args.name] = answer
        flags = [flag for flag in case.get("flags", []) if flag != FLAG]
        if upstream:
            case["upstream"] = dict(sorted(upstream.items()))
            flags.append(FLAG)
        else:
            case.pop("upstream", None)
        case["flags"] = flags
        changed += before != json.dumps(case, sort_keys=True)
    send({"type": "bye"})
    port.stdin.close()
    port.wait(timeout=10)

    with open(args.vectors, "w", encoding="utf-8") as handle:
        handle.write(canonical(document))
    divergent = sum(1 for case in document["cases"] if args.name in case.get("upstream", {}))
    print(f"{args.name}: {divergent} of {len(document['cases'])} cases diverge; {changed} cases changed")


if __name__ == "__main__":
    main()
