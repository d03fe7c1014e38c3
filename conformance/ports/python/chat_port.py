"""Python port of agentfence's chat role-marker boundary (suite ``chat``).

A faithful port of the Rust reference (core/src/chat/{mod,marker,readers,
render}.rs and core/src/char_class.rs); read those as the specification.
Standard library only.

Operations (PROTOCOL.md, "The chat suite"):

- ``chat_parse``: ``{"rendered": T}`` (non-strict) or
  ``{"rendered": T, "context": {"nonce": N, "markers": K}}`` (strict)
  -> ``{"messages": [...]}``;
- ``chat_pre_render``: ``{"template": T, "nonce": N}``
  -> ``{"prepared": P, "context": {...}}``;
- ``chat_flow``: ``{"template": T, "values": {...}, "nonce": N}``
  -> ``{"messages": [...]}`` (pre-render, render, strict parse).

Where Python and Rust differ and the reference's behaviour is kept by hand:

- Rust's ``char::is_whitespace`` (the Unicode White_Space property) is not
  ``str.isspace`` (which adds U+001C..U+001F): an explicit set is used, and
  ``str.strip()``/``lstrip()`` without arguments are never used on text;
- ``is_ascii_alphanumeric`` and ASCII case folding are explicit, never
  ``str.isalnum``/``str.lower`` on the whole string (``K`` Kelvin sign,
  Unicode digits);
- ``char::to_lowercase`` is per character (no final-sigma context), so
  lowering is done character by character;
- integers and floats are parsed with Rust's grammar (``i64``/``f64``
  ``from_str``), not ``int()``/``float()``, which accept blanks, ``_`` and
  non-ASCII digits.

Known limit: NFKC and lowercasing use Python's ``unicodedata`` (Unicode
14.0 on Python 3.11); the reference uses the ``unicode-normalization``
crate (0.1.26, Unicode 18 tables) and Rust's std. A look-alike that only
newer Unicode folds to a role letter is not refused by this port's strict
parse. An exhaustive per-code-point comparison with the reference found
exactly these (all unassigned in Unicode 14): U+209E, U+A7F1,
U+1CCD6..U+1CCEE (outlined Latin letters, Unicode 16) and
U+1E030..U+1E069 (Cyrillic modifier letters, Unicode 15). No vector uses
them.
"""

import re
import unicodedata

from char_class import is_invisible_format as _is_invisible_format
from port_errors import PortError

import chat_readers

NONCE_KEY = "nonce"
ROLES = ("system", "user", "assistant")

# ---------------------------------------------------------------------------
# Character classes (core/src/char_class.rs and Rust's char predicates)

# Rust's char::is_whitespace: the Unicode White_Space property.
_WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def _is_whitespace(c):
    return c in _WHITE_SPACE


def _is_control(c):
    """Rust's char::is_control: general category Cc."""
    o = ord(c)
    return o < 0x20 or 0x7F <= o <= 0x9F


def _is_invisible(c):
    """suspect.rs is_invisible: controls and invisible format characters."""
    return _is_control(c) or _is_invisible_format(c)


_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_KEY_CHARS = _ASCII_ALNUM | {"_"}
_NAME_CHARS = _KEY_CHARS | {"."}
_NONCE_CHARS = _KEY_CHARS | {"-"}

# ---------------------------------------------------------------------------
# The marker grammar (marker.rs)


class _Attribute:
    __slots__ = ("key", "value", "raw")

    def __init__(self, key, value, raw):
        self.key = key
        self.value = value
        self.raw = raw


class _Marker:
    __slots__ = ("role", "attributes")

    def __init__(self, role, attributes):
        self.role = role
        self.attributes = attributes

    def nonces(self):
        return [a.value for a in self.attributes if a.key == NONCE_KEY]


class _Reader:
    """A cursor over the characters of one line (marker.rs Reader)."""

    __slots__ = ("line", "at")

    def __init__(self, line):
        self.line = line
        self.at = 0

    def peek(self):
        return self.line[self.at] if self.at < len(self.line) else None

    def skip_spaces(self):
        line, n = self.line, len(self.line)
        while self.at < n and line[self.at] in " \t":
            self.at += 1

    def eat(self, ch):
        if self.peek() == ch:
            self.at += 1
            return True
        return False

    def role(self):
        for role in ROLES:
            candidate = self.line[self.at:self.at + len(role)]
            # eq_ignore_ascii_case on bytes: non-ASCII never matches.
            if len(candidate) == len(role) and candidate.isascii() and candidate.lower() == role:
                self.at += len(role)
                return role
        return None

    def take_while(self, keep):
        start = self.at
        line, n = self.line, len(self.line)
        while self.at < n and keep(line[self.at]):
            self.at += 1
        return line[start:self.at]

    def attribute(self):
        start = self.at
        key = self.take_while(lambda c: c in _KEY_CHARS)
        if not key:
            return None
        self.skip_spaces()
        if not self.eat("="):
            return None
        self.skip_spaces()
        if self.eat('"'):
            value = self.take_while(lambda c: c != '"')
            if not self.eat('"'):
                return None
        else:
            value = self.take_while(lambda c: c not in '",]')
            if self.peek() == '"':
                return None
            value = value.strip(" \t")
        raw = self.line[start:self.at].rstrip(" \t")
        return _Attribute(key, value, raw)

    def attributes(self):
        attributes = []
        while True:
            self.skip_spaces()
            if self.eat("]"):
                return attributes
            attribute = self.attribute()
            if attribute is None:
                return None
            attributes.append(attribute)
            self.skip_spaces()
            if self.eat("]"):
                return attributes
            if not self.eat(","):
                return None


def _parse_marker(line):
    """The marker this line (no `\\n` in it) is, or None."""
    if not line.rstrip(" \t").endswith(":"):
        return None
    reader = _Reader(line)
    reader.skip_spaces()
    if reader.eat("#"):
        reader.skip_spaces()
    role = reader.role()
    if role is None:
        return None
    if reader.eat("["):
        attributes = reader.attributes()
        if attributes is None:
            return None
    else:
        attributes = []
    reader.skip_spaces()
    if not reader.eat(":"):
        return None
    reader.skip_spaces()
    if reader.at != len(line):
        return None
    return _Marker(role, attributes)


# ---------------------------------------------------------------------------
# Lines (mod.rs); what strict mode refuses besides a marker without the
# nonce is read by chat_readers (readers.rs).


def _lines(text):
    """(number, start, body, crlf) for each line: split at `\\n` only, one
    `\\r` before a `\\n` dropped from the body."""
    pieces = text.split("\n")
    last = len(pieces) - 1
    start = 0
    for index, piece in enumerate(pieces):
        if index < last and piece.endswith("\r"):
            yield index + 1, start, piece[:-1], True
        else:
            yield index + 1, start, piece, False
        start += len(piece) + 1


def _without_bom(text):
    return text[1:] if text.startswith("\ufeff") else text


_I64 = re.compile(r"[+-]?([0-9]+)")
_F64_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_I64_MIN, _I64_MAX = -(2 ** 63), 2 ** 63 - 1


def _coerce(value):
    """`true`/`false` in any ASCII case, then i64, then finite f64 (Rust's
    `from_str` grammars); anything else stays the string as written."""
    if value.isascii():
        lowered = value.lower()
        if lowered == "true":
            return True
        if lowered == "false":
            return False
    match = _I64.fullmatch(value)
    if match is not None:
        digits = match.group(1).lstrip("0")
        if len(digits) <= 19:  # beyond that no i64 (and int() has a limit)
            number = int(value[0] + (digits or "0")) if value[0] in "+-" else int(digits or "0")
            if _I64_MIN <= number <= _I64_MAX:
                return number
    # inf/infinity/nan parse in Rust but are not finite: they stay strings.
    if _F64_NUMBER.fullmatch(value) is not None:
        number = _parse_f64(value)
        if number is not None and number not in (float("inf"), float("-inf")) and number == number:
            return number
    return value


def _parse_f64(value):
    # float() on a string matching Rust's grammar gives the same correctly
    # rounded value; a huge exponent overflows to inf (or 0.0) as in Rust.
    try:
        return float(value)
    except (ValueError, OverflowError):
        return None


def _metadata(marker):
    metadata = {}
    for attribute in marker.attributes:
        if attribute.key != NONCE_KEY:
            metadata[attribute.key] = _coerce(attribute.value)
    return metadata


def _shows_nothing(content):
    return all(_is_whitespace(c) or _is_invisible_format(c) for c in content)


class _Pending:
    __slots__ = ("role", "metadata", "span", "crlf", "preamble")

    def __init__(self, role, metadata, preamble):
        self.role = role
        self.metadata = metadata
        self.span = None
        self.crlf = False
        self.preamble = preamble

    def add(self, start, body, crlf):
        end = start + len(body)
        self.span = (start, end) if self.span is None else (self.span[0], end)
        self.crlf = self.crlf or crlf

    def finish(self, text, messages):
        region = "" if self.span is None else text[self.span[0]:self.span[1]]
        if self.crlf:
            region = region.replace("\r\n", "\n")
        content = region.strip("\n")
        if self.preamble and _shows_nothing(content):
            return
        messages.append({"role": self.role, "content": content, "metadata": self.metadata})


def _check_nonce(marker, expected, line):
    nonces = marker.nonces()
    if len(nonces) >= 2:
        raise PortError("duplicate_nonce", "line %d: a role marker with more than one nonce attribute" % line)
    if len(nonces) == 1 and nonces[0] == expected:
        return
    raise PortError(
        "nonce_mismatch",
        "line %d: a role marker, or text that reads as one, without the expected nonce "
        "(a template value may be injecting role markers)" % line,
    )


def _odd_marker(line, number):
    """pre_render's reading of a template line the grammar does not read as
    a marker but some reader does (mod.rs odd_marker)."""
    role = chat_readers.read_line(line, False)
    if role is None:
        if chat_readers.read_line(line, True) is not None:
            raise _unclear(number)
        return None
    open_, close = line.find("["), line.rfind("]")
    if open_ >= 0 and close >= 0 and open_ < close:
        block = line[open_:close + 1]
    elif open_ < 0 and close < 0:
        block = ""
    else:
        raise _unclear(number)
    return role + block + ":"


def _unclear(number):
    return PortError(
        "unclear_template_marker",
        "template line %d: some reader takes this line for a role marker, but it is not one "
        "this parser can put the nonce into" % number,
    )


def parse(rendered, context=None):
    """Messages of `rendered`: non-strict without a context, strict with
    `(nonce, markers)`."""
    if context is not None:
        _check_nonce_spelling(context[0])
    text = _without_bom(rendered)
    messages = []
    pending = _Pending("system", {}, True)
    markers = 0
    whole_text = chat_readers.WholeText() if context is not None else None
    for number, start, body, crlf in _lines(text):
        marker = _parse_marker(body)
        if marker is not None:
            if context is not None:
                _check_nonce(marker, context[0], number)
                if chat_readers.other_reading_is_marker(body):
                    raise PortError(
                        "nonce_mismatch",
                        "line %d: a role marker line in which a reader that splits or "
                        "reverses it sees another marker" % number,
                    )
                whole_text.reset()
            markers += 1
            pending.finish(text, messages)
            pending = _Pending(marker.role, _metadata(marker), False)
        else:
            if context is not None and (
                chat_readers.read_line(body) is not None
                or whole_text.content_line(body) is not None
            ):
                raise PortError(
                    "nonce_mismatch",
                    "line %d: a role marker, or text that reads as one, without the expected "
                    "nonce (a template value may be injecting role markers)" % number,
                )
            pending.add(start, body, crlf)
    pending.finish(text, messages)
    if context is not None and markers != context[1]:
        raise PortError(
            "marker_count_mismatch",
            "the template had %d role markers but the rendered text has %d: a marker was lost "
            "or added in rendering" % (context[1], markers),
        )
    return messages


def _check_nonce_spelling(nonce):
    """1 to 64 of A-Z a-z 0-9 - _: an empty nonce would let a forged
    `user[nonce=""]:` pass as the template's own."""
    if not (1 <= len(nonce) <= 64 and all(c in _NONCE_CHARS for c in nonce)):
        raise PortError(
            "invalid_nonce",
            "nonce %r cannot be written into a marker: use 1 to 64 ASCII letters, digits, "
            "`-` or `_`" % (nonce,),
        )


def pre_render(template, nonce):
    """`template` with `nonce` in every marker, and the context."""
    _check_nonce_spelling(nonce)
    body = _without_bom(template)
    out = [template[:len(template) - len(body)]]
    markers = 0
    whole_text = chat_readers.WholeText()
    for number, _start, line, crlf in _lines(body):
        if number > 1:
            out.append("\n")
        cr = "\r" if crlf else ""
        marker = _parse_marker(line)
        if marker is None:
            odd = _odd_marker(line, number)
            if odd is not None:
                marker = _parse_marker(odd)
                if marker is None:
                    raise _unclear(number)
        if marker is None:
            if whole_text.content_line(line) is not None:
                raise _unclear(number)
            out.append(line)
            out.append(cr)
            continue
        whole_text.reset()
        if marker.nonces():
            raise PortError(
                "reserved_attribute",
                "template line %d: the author may not set the reserved `nonce` attribute" % number,
            )
        markers += 1
        written = marker.role + '[nonce="' + nonce + '"'
        for attribute in marker.attributes:
            written += ", " + attribute.raw
        written += "]:"
        if chat_readers.other_reading_is_marker(written):
            raise _unclear(number)
        out.append(written)
        out.append(cr)
    return "".join(out), (nonce, markers)


# ---------------------------------------------------------------------------
# The `{{name}}` renderer (render.rs)


def _is_name(name):
    return bool(name) and (name[0] in _KEY_CHARS and not name[0].isdigit()) and all(
        c in _NAME_CHARS for c in name
    )


def _placeholder(text, at):
    """`name }}` at `text[at:]`, blanks allowed around the name: the name and
    the index just past the `}}`, or None."""
    n = len(text)
    start = at
    while start < n and text[start] in " \t":
        start += 1
    if start == n:
        return None
    end = start
    while end < n and text[end] in _NAME_CHARS:
        end += 1
    name = text[start:end]
    close = end
    while close < n and text[close] in " \t":
        close += 1
    if close == n:
        return None
    if _is_name(name) and text.startswith("}}", close):
        return name, close + 2
    return None


def render(template, values):
    out = []
    at = 0
    while True:
        open_ = template.find("{{", at)
        if open_ < 0:
            break
        out.append(template[at:open_])
        after = open_ + 2
        found = _placeholder(template, after)
        if found is None:
            out.append("{{")
            at = after
            continue
        name, at = found
        if name not in values:
            raise PortError("unknown_variable", "the template uses {{%s}}, which has no value" % name)
        line_start = template.rfind("\n", 0, open_) + 1
        line_end = template.find("\n", open_)
        line = template[line_start:len(template) if line_end < 0 else line_end]
        if line.endswith("\r"):
            line = line[:-1]
        if _parse_marker(line) is not None or chat_readers.read_line(line) is not None:
            quoted = template.count('"', line_start, open_) % 2 == 1
            found_char = chat_readers.breaks_a_marker_line(values[name], quoted)
            if found_char is not None:
                raise PortError(
                    "value_in_marker",
                    "template line %d: the value of {{%s}} holds %r, which would change the role "
                    "marker it is written into" % (template.count("\n", 0, open_) + 1, name,
                                                   found_char),
                )
        out.append(values[name])
    out.append(template[at:])
    return "".join(out)


# ---------------------------------------------------------------------------
# Operations: input shapes as the reference port reads them (unknown fields
# refused), outputs as PROTOCOL.md writes them.


def _bad_request(op, message):
    return PortError("bad_request", "%s: %s" % (op, message))


def _read(op, data, required, optional=()):
    if not isinstance(data, dict):
        raise _bad_request(op, "input is not an object")
    for key in data:
        if key not in required and key not in optional:
            raise _bad_request(op, "input: unknown field %r" % key)
    for key in required:
        if key not in data:
            raise _bad_request(op, "input: missing field %r" % key)
    return data


def _string(op, data, key):
    value = data[key]
    if not isinstance(value, str):
        raise _bad_request(op, "input.%s: not a string" % key)
    return value


def _context_json(context):
    return {"nonce": context[0], "markers": context[1]}


def chat_parse(data, config):
    op = "chat_parse"
    _read(op, data, ("rendered",), ("context",))
    rendered = _string(op, data, "rendered")
    context = data.get("context")
    if context is not None:
        if not isinstance(context, dict):
            raise _bad_request(op, "input.context: not an object")
        _read(op + ": context", context, ("nonce", "markers"))
        nonce = context["nonce"]
        markers = context["markers"]
        if not isinstance(nonce, str):
            raise _bad_request(op, "input.context.nonce: not a string")
        if isinstance(markers, bool) or not isinstance(markers, int) or not 0 <= markers < 2 ** 64:
            raise _bad_request(op, "input.context.markers: not an unsigned integer")
        context = (nonce, markers)
    return {"messages": parse(rendered, context)}


def chat_pre_render(data, config):
    op = "chat_pre_render"
    _read(op, data, ("template", "nonce"))
    template = _string(op, data, "template")
    nonce = _string(op, data, "nonce")
    prepared, context = pre_render(template, nonce)
    return {"prepared": prepared, "context": _context_json(context)}


def chat_flow(data, config):
    op = "chat_flow"
    _read(op, data, ("template", "values", "nonce"))
    template = _string(op, data, "template")
    values = data["values"]
    if not isinstance(values, dict):
        raise _bad_request(op, "input.values: not an object")
    for name, value in values.items():
        if not isinstance(value, str):
            raise _bad_request(op, "input.values.%s: not a string" % name)
    nonce = _string(op, data, "nonce")
    prepared, context = pre_render(template, nonce)
    rendered = render(prepared, values)
    return {"messages": parse(rendered, context)}


OPERATIONS = {
    "chat_parse": chat_parse,
    "chat_pre_render": chat_pre_render,
    "chat_flow": chat_flow,
}
