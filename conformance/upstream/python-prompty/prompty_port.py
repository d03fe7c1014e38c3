#!/usr/bin/env python3
"""Python prompty 2.1.0 (Microsoft's runtime, PyPI `prompty`) as a port of
protocol v1 (conformance/PROTOCOL.md), so the chat suite measures it as it
measures any port. Run it with the venv install.sh makes:

    agentfence run --suite chat --port "$VENV/bin/python conformance/upstream/python-prompty/prompty_port.py"

Every answer is prompty's own: the adapter calls prompty and translates
its result to the protocol's JSON, and reimplements none of its logic.

- `chat_parse` calls the registered `prompty` parser (`PromptyChatParser`)
  the way `prompty.parse` does: `parse(agent, rendered)` without a context
  (non-strict), `parse(agent, rendered, nonce=N)` with one. prompty has no
  marker count, so `context.markers` is not passed on.
- `chat_pre_render` calls `PromptyChatParser.pre_render(template)` and
  answers the text and the context it returns.
- `chat_flow` calls `prompty.prepare(Agent(instructions=template), values)`:
  prompty's default configuration, which is strict (pre-render, then
  rendering with Jinja2, prompty's default template format, then the
  strict parse).

prompty draws its nonce itself, with `secrets.token_hex(8)` in
`prompty.parsers.prompty`. For the length of one call the adapter replaces
that module's `secrets` with one whose `token_hex` returns the case's
nonce, and checks afterwards that prompty drew exactly one nonce, so that a
prompty that draws it some other way is reported instead of measured
wrongly.

Answers prompty cannot give in JSON, or exceptions it raises, are errors:
`nonce_mismatch` for its "Nonce mismatch" ValueError, `unrepresentable`
for metadata JSON cannot carry (prompty coerces `inf` and `nan` to Python
floats), `other` for any other exception (its type and text in the
message). stdout carries protocol replies only: anything prompty prints
goes to stderr.
"""

import contextlib
import json
import math
import sys
import traceback

import prompty
import prompty.parsers.prompty as prompty_parser_module
from prompty.core.discovery import get_parser
from prompty.model import Agent

PROTOCOL = 1
OPERATIONS = ("chat_parse", "chat_pre_render", "chat_flow")
# The parser kind prompty's pipeline uses when a template names none.
PARSER_KIND = "prompty"


class Refused(Exception):
    """An answer of kind `kind`: prompty refused the input, or the adapter
    cannot put prompty's answer into the protocol."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


class CaseNonce:
    """Stands in for the `secrets` module inside prompty's parser module:
    `token_hex` returns the case's nonce and counts the draws."""

    def __init__(self, nonce):
        self.nonce = nonce
        self.draws = 0

    def token_hex(self, nbytes=None):
        self.draws += 1
        return self.nonce


@contextlib.contextmanager
def nonce_drawn_as(nonce):
    original = prompty_parser_module.secrets
    stand_in = CaseNonce(nonce)
    prompty_parser_module.secrets = stand_in
    try:
        yield stand_in
    finally:
        prompty_parser_module.secrets = original
    if stand_in.draws != 1:
        raise Refused(
            "internal",
            "prompty drew %d nonces through secrets.token_hex, not one: the adapter "
            "no longer knows which nonce it used" % stand_in.draws,
        )


def json_value(value, where):
    """`value` as JSON can carry it, or Refused naming what it holds."""
    if isinstance(value, float) and not math.isfinite(value):
        raise Refused("unrepresentable", "%s is the float %r, which JSON cannot carry" % (where, value))
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    raise Refused("unrepresentable", "%s is a %s" % (where, type(value).__name__))


def message_json(message, index):
    content = []
    for part in message.parts:
        if getattr(part, "kind", None) != "text":
            raise Refused("unrepresentable", "message %d has a %r part" % (index, getattr(part, "kind", part)))
        content.append(part.value)
    metadata = message.metadata
    if metadata is None:
        metadata = {}
    return {
        "role": message.role,
        "content": "".join(content),
        "metadata": {
            key: json_value(value, "message %d's metadata %r" % (index, key)) for key, value in metadata.items()
        },
    }


def messages_json(messages):
    return {"messages": [message_json(message, index) for index, message in enumerate(messages)]}


def string_field(data, name):
    value = data.get(name) if isinstance(data, dict) else None
    if not isinstance(value, str):
        raise Refused("bad_request", "input.%s is missing or not a string" % name)
    return value


def prompty_call(function, *args, **kwargs):
    """Calls prompty; its exceptions become the protocol's errors."""
    try:
        return function(*args, **kwargs)
    except Refused:
        raise
    except ValueError as error:
        if "Nonce mismatch" in str(error):
            raise Refused("nonce_mismatch", str(error)) from error
        raise Refused("other", "%s: %s" % (type(error).__name__, error)) from error
    except Exception as error:  # prompty's (or Jinja2's) answer to this input
        raise Refused("other", "%s: %s" % (type(error).__name__, error)) from error


def chat_parse(data):
    rendered = string_field(data, "rendered")
    context = data.get("context")
    parser = get_parser(PARSER_KIND)
    if context is None:
        return messages_json(prompty_call(parser.parse, Agent(), rendered))
    nonce = string_field(context if isinstance(context, dict) else {}, "nonce")
    return messages_json(prompty_call(parser.parse, Agent(), rendered, nonce=nonce))


def chat_pre_render(data):
    template = string_field(data, "template")
    nonce = string_field(data, "nonce")
    parser = get_parser(PARSER_KIND)
    with nonce_drawn_as(nonce):
        prepared, context = prompty_call(parser.pre_render, template)
    return {"prepared": prepared, "context": {key: json_value(value, "context") for key, value in context.items()}}


def chat_flow(data):
    template = string_field(data, "template")
    nonce = string_field(data, "nonce")
    values = data.get("values")
    if not isinstance(values, dict) or not all(isinstance(value, str) for value in values.values()):
        raise Refused("bad_request", "input.values is not an object of strings")
    with nonce_drawn_as(nonce):
        messages = prompty_call(prompty.prepare, Agent(instructions=template), dict(values))
    return messages_json(messages)


ANSWERS = {"chat_parse": chat_parse, "chat_pre_render": chat_pre_render, "chat_flow": chat_flow}


def reply_to(request):
    kind = request.get("type")
    if kind == "hello":
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "implementation": {"name": "prompty", "language": "python", "version": prompty.__version__},
            "operations": list(OPERATIONS),
        }
    if kind != "case":
        return None  # suite (chat needs no config) and unknown types get no reply
    reply = {"type": "result", "id": request["id"]}
    answer = ANSWERS.get(request.get("op"))
    if answer is None:
        reply["skipped"] = {"reason": "prompty has no operation %r" % (request.get("op"),)}
        return reply
    try:
        reply["output"] = answer(request.get("input"))
    except Refused as refused:
        reply["error"] = {"kind": refused.kind, "message": refused.message}
    except Exception as bug:  # the adapter's own fault: say so, keep serving
        traceback.print_exc(file=sys.stderr)
        reply["error"] = {"kind": "internal", "message": "adapter: %s: %s" % (type(bug).__name__, bug)}
    return reply


def main():
    out = sys.stdout.buffer
    # Nothing but replies may reach stdout: whatever prompty prints goes to stderr.
    sys.stdout = sys.stderr
    for number, raw in enumerate(iter(sys.stdin.buffer.readline, b""), 1):
        try:
            request = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as bad:
            print("prompty port: request line %d unreadable, no reply: %s" % (number, bad), file=sys.stderr)
            continue
        if not isinstance(request, dict) or (request.get("type") == "case" and not isinstance(request.get("id"), str)):
            print("prompty port: request line %d is not a request, no reply" % number, file=sys.stderr)
            continue
        if request.get("type") == "bye":
            break
        reply = reply_to(request)
        if reply is not None:
            out.write(json.dumps(reply, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii") + b"\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
