#!/usr/bin/env python3
"""Python port of agentfence: the JSON-lines protocol loop (PROTOCOL.md).

Run it through the runner:

    agentfence run --port 'python3 conformance/ports/python/agentfence_port.py'

Module contract: a module ``X_port.py`` next to this file defines

    OPERATIONS = {"op_name": function(input: dict, config: dict) -> dict}

where ``config`` is the ``config`` of the last ``suite`` message (``{}``
before any). A function returns the operation's output, or raises
``port_errors.PortError(kind, message)`` to refuse the input. Any other
exception becomes an error of kind ``internal`` (traceback on stderr); the
loop never dies of one. The modules imported are listed in MODULES; one
that fails to import is skipped (logged on stderr) and its operations are
not announced, so the runner counts their cases as skipped.

Standard library only; Python 3.9 or later.
"""

import importlib
import json
import os
import sys
import traceback

# A port run from a checkout leaves no __pycache__ behind in it.
sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from port_errors import PortError  # noqa: E402

PROTOCOL = 1
IMPLEMENTATION = {"name": "agentfence-python", "language": "python", "version": "0.1.0"}
MODULES = ("template_port", "chat_port", "web_port")


def log(*parts):
    print("agentfence-python:", *parts, file=sys.stderr, flush=True)


def log_failure(name):
    log("module %s not loaded, its operations are skipped:" % name)
    traceback.print_exc(file=sys.stderr)
    sys.stderr.flush()


def load_operations(names=MODULES):
    """Import each module and merge its OPERATIONS; skip those that fail."""
    operations = {}
    for name in names:
        try:
            module = importlib.import_module(name)
            table = getattr(module, "OPERATIONS")
            if not isinstance(table, dict):
                raise TypeError("%s.OPERATIONS is not a dict" % name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                log_failure(name)
            else:
                log("module %s not found, its operations are skipped" % name)
            continue
        except Exception:  # a module that does not load must not stop the rest
            log_failure(name)
            continue
        for op, function in table.items():
            if not isinstance(op, str) or not callable(function):
                log("module %s: ignoring OPERATIONS entry %r" % (name, op))
            elif op in operations:
                log("module %s: operation %s already provided, ignored" % (name, op))
            else:
                operations[op] = function
    return operations


class Session:
    def __init__(self, operations, out):
        self.operations = operations
        self.out = out
        self.configs = {}  # suite name -> its last config
        self.suite = None  # the suite of the last `suite` message

    def send(self, reply):
        # ensure_ascii keeps every line plain ASCII, whatever the strings hold.
        line = json.dumps(reply, ensure_ascii=True, separators=(",", ":"))
        self.out.write(line.encode("ascii") + b"\n")
        self.out.flush()

    def hello(self, request):
        self.send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "implementation": IMPLEMENTATION,
                "operations": list(self.operations),
            }
        )

    def set_suite(self, request):
        suite = request.get("suite")
        config = request.get("config")
        if not isinstance(config, dict):
            config = {}
        self.suite = suite if isinstance(suite, str) else None
        self.configs[self.suite] = config

    def config(self):
        return self.configs.get(self.suite, {})

    def case(self, request):
        case_id = request["id"]
        reply = {"type": "result", "id": case_id}
        op = request.get("op")
        data = request.get("input")
        function = self.operations.get(op) if isinstance(op, str) else None
        if function is None:
            reply["error"] = {"kind": "bad_request", "message": "unknown operation %r" % (op,)}
        elif not self.configs:
            reply["error"] = {"kind": "bad_request", "message": "a case before any suite message"}
        else:
            try:
                output = function(data, self.config())
                if not isinstance(output, dict):
                    raise TypeError("operation %s returned %s, not a dict" % (op, type(output).__name__))
                reply["output"] = output
            except PortError as refused:
                reply["error"] = {"kind": refused.kind, "message": refused.message}
            except RecursionError:
                log("case %s: recursion too deep" % case_id)
                reply["error"] = {"kind": "internal", "message": "recursion too deep"}
            except Exception as bug:
                log("case %s (op %s) raised:" % (case_id, op))
                traceback.print_exc(file=sys.stderr)
                sys.stderr.flush()
                reply["error"] = {"kind": "internal", "message": "%s: %s" % (type(bug).__name__, bug)}
        try:
            self.send(reply)
        except (TypeError, ValueError) as bad:  # an output JSON cannot hold
            log("case %s: output not serializable: %s" % (case_id, bad))
            self.send(
                {
                    "type": "result",
                    "id": case_id,
                    "error": {"kind": "internal", "message": "output not serializable: %s" % bad},
                }
            )

    def run(self, lines):
        for number, raw in enumerate(lines, 1):
            try:
                request = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError) as bad:
                log("request line %d unreadable, no reply: %s" % (number, bad))
                continue
            if not isinstance(request, dict):
                log("request line %d is not an object, no reply" % number)
                continue
            kind = request.get("type")
            if kind == "hello":
                self.hello(request)
            elif kind == "suite":
                self.set_suite(request)
            elif kind == "case":
                if not isinstance(request.get("id"), str):
                    log("request line %d: case without a string id, no reply" % number)
                    continue
                self.case(request)
            elif kind == "bye":
                return
            # any other type is ignored


def main():
    out = sys.stdout.buffer
    # Nothing but replies may reach stdout: a stray print() goes to stderr.
    sys.stdout = sys.stderr
    operations = load_operations()
    session = Session(operations, out)
    try:
        session.run(iter(sys.stdin.buffer.readline, b""))
    except BrokenPipeError:
        pass
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
