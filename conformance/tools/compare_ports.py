#!/usr/bin/env python3
"""Compare a port with the reference on generated inputs, beyond the vectors.

    python3 conformance/tools/compare_ports.py \\
        --port 'node conformance/ports/js/agentfence_port.js' \\
        --reference 'target/release/agentfence port' --cases 20000 --seed 1

Both commands speak the protocol of conformance/PROTOCOL.md. Each case is
an input built from pieces chosen to hit the rules the vectors pin (marker
spellings, line breaks, look-alikes, invisible characters, attribute
quoting, numbers; tag spellings, references, timestamps) and is sent to
both; an answer differs when the outputs differ as JSON values (an integer
is not a float) or the error kinds differ. The first differences are
printed with their input; the exit status is 1 when there is any.

Operations: chat_parse (non-strict and strict), chat_pre_render,
chat_flow and envelope; --ops picks some. Standard library only.
"""

import argparse
import json
import random
import subprocess
import sys

CHAT_PIECES = [
    "system", "user", "assistant", "SYSTEM", "User", ":", " ", "\t", "#", "##",
    "[", "]", "=", ",", '"', "nonce", "n1", "a", "1", "1.5", "-0", "true", "007",
    "9223372036854775808", "1e400", "inf", "\n", "\r\n", "\r", "\u2028", "\u2029",
    "\x85", "\x0b", "\x0c", "\x1e", "\x1f", "\ufeff", "\u200b", "\u00ad", "\u00a0",
    "\u3000", "\u017f", "\u212a", "\u0131", "\u0130", "\uff55\uff53\uff45\uff52",
    "\uff1a", "\ufe55", "\ufe13", "\u2236", "\u02d0", "\u05c3", "\u0435", "\u0301",
    "\u0600", "\U000e0074", "\U000e0020", "\U0001d42e", "{{q}}", "{{ q }}", "x",
    "hello", " said:",
]

ENVELOPE_PIECES = [
    "<", "/", "untrusted", "_", "content", ">", "&", "lt;", "LT", "amp;", "#60;",
    "#x3c;", "#x3C", "&#95;", "&lowbar;", "&sol;", "&nbsp;", "&shy;", "-", "\u2010",
    "\u2212", "\ufe58", "\uff1c", "\ufe64", "\uff55\uff4e\uff54\uff52\uff55\uff53\uff54\uff45\uff44",
    " ", "\n", "\u200b", "\x01", "UNTRUSTED", "Content", "x", '"', "'", ",", "\x85",
    "\u00a0", "\uff02", "\u2028", "\u00e9", "\U0001d42e", "&#0060;",
    "&#000000000000000000060;", "&ltx;", "&Lt;", "&AMP;lt;",
]

TIMESTAMPS = [
    "2026-11-29T10:00:00Z", "2026-11-29t10:00:00z", "2026-11-29T10:00:00.1234567891+01:30",
    "2026-12-31T23:59:60Z", "2026-11-30T23:59:60Z", "2026-11-29T23:59:60Z",
    "2026-12-31T22:59:60-01:00", "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
    "2026-11-29T10:00:00+24:00", "2026-11-29T10:00:00+23:60", "0000-01-01T00:00:00Z",
    "2026-11-29T10:00:00.Z", "2026-11-29T10:00:00+0100", "2026-11-29T10:00:00.500-00:00",
]


def typed(text):
    """JSON with the type of every number kept: 1 and 1.0 differ."""
    return json.loads(text, parse_int=lambda s: ("int", int(s)), parse_float=lambda s: ("float", float(s)))


class Port:
    def __init__(self, command):
        self.process = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
        )
        self.send({"type": "hello", "protocol": 1})
        hello = json.loads(self.process.stdout.readline())
        self.operations = set(hello.get("operations", []))

    def send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def answer(self, message):
        self.send(message)
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("%s: the port exited" % message["id"])
        reply = typed(line)
        if "output" in reply:
            return ("output", reply["output"])
        if "error" in reply:
            return ("error", reply["error"]["kind"])
        return ("skipped", None)

    def close(self):
        self.send({"type": "bye"})
        self.process.stdin.close()
        self.process.wait()


# Characters a role name's letters may be swapped for: look-alikes from
# other scripts, compatibility forms, and invisible characters put beside
# the letter. More than any one implementation folds, so that a port and
# the reference are compared on letters either may miss.
SPELLINGS = {
    "a": ["\u0430", "\u03b1", "\uff41", "\u0251"],
    "e": ["\u0435", "\u03b5", "\u04bd", "\uff45"],
    "i": ["\u0131", "\u0130", "\u0456", "\u03b9", "\u04cf", "\u2170"],
    "m": ["\u043c", "\u217f", "\uff4d"],
    "n": ["\u043f", "\u03b7", "\u0578"],
    "r": ["\u0433", "\u1d26"],
    "s": ["\u0455", "\u017f", "\uff53", "\ua731"],
    "t": ["\u0442", "\u03c4", "\uff54"],
    "u": ["\u0438", "\u03c5", "\u03bc", "\u057d", "\u028b"],
    "y": ["\u0443", "\u04af", "\u03b3", "\u0263"],
}
HIDDEN = ["\u200b", "\u200d", "\u2060", "\u00ad", "\ufeff", "\U000e0074", "\u0301", "\x01"]


def role_spelling(rng):
    """A role name with one letter swapped for a look-alike, or with an
    invisible character after one of its letters."""
    word = list(rng.choice(["system", "user", "assistant"]))
    at = rng.randrange(len(word))
    if rng.random() < 0.6:
        word[at] = rng.choice(SPELLINGS[word[at]])
    else:
        word[at] += rng.choice(HIDDEN)
    return "".join(word)


def pieces(rng, table, most):
    return "".join(
        role_spelling(rng) if table is CHAT_PIECES and rng.random() < 0.1 else rng.choice(table)
        for _ in range(rng.randint(0, most))
    )


def marker_like_line(rng):
    """A line shaped like a marker, spelled in one of many ways: what
    strict mode must refuse, or must accept as content."""
    return "".join([
        rng.choice(["", " ", "\t", "#", "## ", "\u00a0", "\u3000", "\ufeff", "\u200b"]),
        role_spelling(rng) if rng.random() < 0.7 else rng.choice(["system", "User", "ASSISTANT", "users"]),
        rng.choice(["", "", " ", "[x=1]", " [a]", "[a=\"]\"]", "\u2028"]),
        rng.choice(["", " ", "\t", "\u00a0", "\r"]),
        rng.choice([":", ":", "\uff1a", "\ufe55", "\u2236", "\u02d0", "\u0589", "\u05c3", "\U000e003a", ";"]),
        rng.choice(["", "", " ", "\u200b", " hi", "\r"]),
    ])


def chat_case(rng, op):
    if op == "chat_parse" and rng.random() < 0.3:
        lines = [pieces(rng, CHAT_PIECES, 3) if rng.random() < 0.3 else marker_like_line(rng) for _ in range(3)]
        return {"rendered": 'user[nonce="n1"]:\n' + "\n".join(lines), "context": {"nonce": "n1", "markers": 1}}
    if op == "chat_parse":
        data = {"rendered": pieces(rng, CHAT_PIECES, 14)}
        if rng.random() < 0.5:
            data["context"] = {"nonce": "n1", "markers": rng.randint(0, 3)}
        return data
    if op == "chat_pre_render":
        return {"template": pieces(rng, CHAT_PIECES, 12), "nonce": rng.choice(["n1", "", "a b", "0123"])}
    return {
        "template": pieces(rng, CHAT_PIECES, 8) + "\n{{q}}" + pieces(rng, CHAT_PIECES, 4),
        "values": {"q": pieces(rng, CHAT_PIECES, 10)},
        "nonce": "n1",
    }


def envelope_case(rng):
    return {
        "body": pieces(rng, ENVELOPE_PIECES, 12),
        "src": pieces(rng, ENVELOPE_PIECES, 6),
        "sanitized_at": rng.choice(TIMESTAMPS),
        "removed_patterns": [pieces(rng, ENVELOPE_PIECES, 3) for _ in range(rng.randint(0, 3))],
    }


SUITES = {"chat_parse": "chat", "chat_pre_render": "chat", "chat_flow": "chat", "envelope": "web"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", required=True, help="the port command (run with sh -c)")
    parser.add_argument("--reference", default="agentfence port", help="the reference command")
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ops", default=",".join(SUITES), help="comma-separated operations")
    parser.add_argument("--show", type=int, default=10, help="differences printed")
    arguments = parser.parse_args()

    rng = random.Random(arguments.seed)
    ports = [Port(arguments.reference), Port(arguments.port)]
    ops = [op for op in arguments.ops.split(",") if all(op in port.operations for port in ports)]
    if not ops:
        raise SystemExit("no operation both commands announce among %s" % arguments.ops)
    differences = 0
    suite = None
    for number in range(arguments.cases):
        op = rng.choice(ops)
        data = envelope_case(rng) if op == "envelope" else chat_case(rng, op)
        # A case follows a suite message of its own suite.
        if SUITES[op] != suite:
            suite = SUITES[op]
            for port in ports:
                port.send({"type": "suite", "suite": suite, "version": "0", "config": {}})
        message = {"type": "case", "id": "compare-%d" % number, "op": op, "input": data}
        reference, port = (p.answer(message) for p in ports)
        if reference != port:
            differences += 1
            if differences <= arguments.show:
                print("%s %s" % (op, json.dumps(data, ensure_ascii=True)))
                print("  reference: %r" % (reference,))
                print("  port:      %r" % (port,))
    for port in ports:
        port.close()
    print("%d differences in %d cases (%s, seed %d)" % (differences, arguments.cases, ",".join(ops), arguments.seed))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
