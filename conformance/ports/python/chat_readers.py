"""The readers strict chat mode answers to, as core/src/chat/readers.rs has
them (read that as the specification): prompty's spec line reader, the
whole-text reader, line splitters, the confusable reader and markdown
emphasis. The confusable folds come from unicode_data.json, which the
reference generates from its Unicode crates; a char it does not list folds
to itself."""

import json
import os
import unicodedata

from char_class import is_bidi_control, is_default_ignorable, is_invisible_format, is_line_break

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "unicode_data.json")) as _f:
    _FOLDS = {int(k, 16): v for k, v in json.load(_f)["folds"].items()}

ROLES = ("system", "user", "assistant")
_ORDERS = (0, 1, 2)
_EMPHASIS = frozenset("*_~`")

# Rust's char::is_whitespace (White_Space).
_WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _is_control(c):
    return unicodedata.category(c) == "Cc"


def _fold_ascii(c, order):
    if c in " \t\n\r\x0b\x0c":
        return " "
    if ord(c) < 0x20 or c == "\x7f":
        return ""
    if c.isalnum():
        return _FOLDS[ord(c)][order]
    return c


def fold_char(c, order, tags_as_ascii):
    """One char as the confusable reader sees it (readers.rs fold_char)."""
    o = ord(c)
    if tags_as_ascii and 0xE0020 <= o <= 0xE007E:
        c = chr(o - 0xE0000)
        o = ord(c)
    if o < 0x80:
        return _fold_ascii(c, order)
    if c in _WHITE_SPACE:
        return " "
    if is_default_ignorable(c) or _is_control(c):
        return ""
    entry = _FOLDS.get(o)
    if entry is not None:
        return entry[order]
    return c


def _targets():
    out = []
    for order in _ORDERS:
        names = []
        for role in ROLES:
            for spelling in (role, role.upper(), role[0].upper() + role[1:]):
                folded = "".join(fold_char(c, order, False) for c in spelling)
                if (role, folded) not in names:
                    names.append((role, folded))
        out.append(names)
    return out


_TARGETS = _targets()
_STARTS = frozenset(name[0] for names in _TARGETS for _, name in names)

# Phases of the marker-shape automaton (readers.rs Phase).
(LEAD, NAME, AFTERNAME, BLOCK, KEY, KEYMORE, EQUALS, VALUE, VALUERUN,
 AFTERVALUE, NEXTKEY, AFTERBLOCK, COLON) = range(13)


class Shape:
    def __init__(self, order, spec_block):
        self.order = order
        self.spec_block = spec_block
        self.states = set()

    def start(self):
        self.states.add((LEAD, None, 0, 0))

    def begun(self):
        return any(s[0] != LEAD for s in self.states)

    def complete(self):
        for phase, role, _t, _a in self.states:
            if phase == COLON:
                return role
        return None

    def feed(self, c):
        if not self.states:
            return
        names = _TARGETS[self.order]
        blank = c in _WHITE_SPACE
        word = c.isalnum() or c == "_"
        nxt = set()

        def name_step(target, at):
            role, name = names[target]
            if at < len(name) and name[at] == c:
                if at + 1 == len(name):
                    return (AFTERNAME, role, 0, 0)
                return (NAME, role, target, at + 1)
            return None

        for phase, role, target, at in self.states:
            if phase == LEAD:
                if blank or c in "#>" or c in _EMPHASIS:
                    nxt.add((LEAD, None, 0, 0))
                for t in range(len(names)):
                    step = name_step(t, 0)
                    if step:
                        nxt.add(step)
            elif phase == NAME:
                step = name_step(target, at)
                if step:
                    nxt.add(step)
            elif phase == AFTERNAME:
                if c == "[":
                    nxt.add((KEY if self.spec_block else BLOCK, role, 0, 0))
                elif c == ":":
                    nxt.add((COLON, role, 0, 0))
                elif blank or c in _EMPHASIS:
                    nxt.add((AFTERNAME, role, 0, 0))
            elif phase == BLOCK:
                nxt.add((BLOCK, role, 0, 0))
                if c == "]":
                    nxt.add((AFTERBLOCK, role, 0, 0))
            elif phase == KEY:
                if blank:
                    nxt.add((KEY, role, 0, 0))
                elif word:
                    nxt.add((KEYMORE, role, 0, 0))
            elif phase == KEYMORE:
                if word:
                    nxt.add((KEYMORE, role, 0, 0))
                elif blank:
                    nxt.add((EQUALS, role, 0, 0))
                elif c == "=":
                    nxt.add((VALUE, role, 0, 0))
            elif phase == EQUALS:
                if blank:
                    nxt.add((EQUALS, role, 0, 0))
                elif c == "=":
                    nxt.add((VALUE, role, 0, 0))
            elif phase in (VALUE, VALUERUN):
                if c == '"':
                    if phase == VALUE:
                        nxt.add((VALUERUN, role, 0, 0))
                    nxt.add((AFTERVALUE, role, 0, 0))
                elif blank and phase == VALUE:
                    nxt.add((VALUE, role, 0, 0))
                else:
                    nxt.add((VALUERUN, role, 0, 0))
                    if c == "]":
                        nxt.add((AFTERBLOCK, role, 0, 0))
                    if word:
                        nxt.add((KEYMORE, role, 0, 0))
                    if c == ",":
                        nxt.add((NEXTKEY, role, 0, 0))
            elif phase == AFTERVALUE:
                if blank:
                    nxt.add((AFTERVALUE, role, 0, 0))
                elif c == ",":
                    nxt.add((NEXTKEY, role, 0, 0))
                elif c == "]":
                    nxt.add((AFTERBLOCK, role, 0, 0))
                elif word:
                    nxt.add((KEYMORE, role, 0, 0))
            elif phase == NEXTKEY:
                if blank:
                    nxt.add((NEXTKEY, role, 0, 0))
                elif word:
                    nxt.add((KEYMORE, role, 0, 0))
                elif c == "]":
                    nxt.add((AFTERBLOCK, role, 0, 0))
            elif phase == AFTERBLOCK:
                if c == ":":
                    nxt.add((COLON, role, 0, 0))
                elif blank or c in _EMPHASIS:
                    nxt.add((AFTERBLOCK, role, 0, 0))
            elif phase == COLON:
                if blank or c in _EMPHASIS:
                    nxt.add((COLON, role, 0, 0))
        self.states = nxt


def _is_tag(c):
    return 0xE0000 <= ord(c) <= 0xE007F


_SPLITTERS = (
    lambda c: False,
    lambda c: c == "\r",
    lambda c: c in "\r\u2028\u2029",
    is_line_break,
)


def _split(text, splits):
    out, cur = [], []
    for c in text:
        if splits(c):
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return out


def _ends_with_colon(segment):
    for c in reversed(segment):
        if ord(c) < 0x80:
            if c in " \t\n\r\x0b\x0c" or ord(c) < 0x20 or c == "\x7f" or c in _EMPHASIS:
                continue
            return c == ":"
        if c in _WHITE_SPACE or is_line_break(c):
            continue
        last = []
        for tags in (False, True):
            found = None
            for order in _ORDERS:
                for d in fold_char(c, order, tags):
                    if not (d in _WHITE_SPACE or d in _EMPHASIS):
                        found = d
            last.append(found)
        if last == [None, None]:
            continue
        return ":" in last
    return False


def _read_segment(segment, order, tags):
    shape = Shape(order, False)
    shape.start()
    for c in segment:
        if is_line_break(c):
            shape.feed(" ")
        else:
            for d in fold_char(c, order, tags):
                shape.feed(d)
        if not shape.states:
            return None
    return shape.complete()


def _is_plain(line):
    return all(c == "\t" or "\x20" <= c <= "\x7e" for c in line)


def read_line(line, split_and_reverse=True):
    """The role some line reader takes `line` for, or None."""
    if _is_plain(line):
        if not line.rstrip(" \t*_~`").endswith(":"):
            return None
        for order in _ORDERS:
            role = _read_segment(line, order, False)
            if role:
                return role
        return None
    texts = [line]
    if split_and_reverse and any(is_bidi_control(c) for c in line):
        texts.append(line[::-1])
    has_tags = any(_is_tag(c) for c in line)
    has_breaks = any(is_line_break(c) for c in line)
    splitters = _SPLITTERS if (has_breaks and split_and_reverse) else _SPLITTERS[:1]
    for text in texts:
        for splits in splitters:
            for segment in _split(text, splits):
                role = _segment_role(segment, has_tags)
                if role:
                    return role
    return None


class WholeText:
    """The whole-text reader, fed line by line (readers.rs WholeText)."""

    def __init__(self):
        self.shapes = [(Shape(order, True), order, tags)
                       for tags in (False, True) for order in _ORDERS]

    def reset(self):
        for shape, _o, _t in self.shapes:
            shape.states = set()

    def _may_begin(self, line, order, tags):
        for c in line:
            if is_line_break(c):
                continue
            for d in fold_char(c, order, tags):
                if not (d in _WHITE_SPACE or d in "#>" or d in _EMPHASIS):
                    return d in _STARTS
        return False

    def content_line(self, line):
        begun = any(shape.begun() for shape, _o, _t in self.shapes)
        if not begun and not any(self._may_begin(line, o, t) for _s, o, t in self.shapes):
            return None
        found = None
        for shape, order, tags in self.shapes:
            shape.feed(" ")
            shape.start()
            for c in line:
                if not shape.states:
                    break
                if is_line_break(c):
                    shape.feed(" ")
                else:
                    for d in fold_char(c, order, tags):
                        shape.feed(d)
            if found is None:
                found = shape.complete()
            shape.states = {s for s in shape.states if s[0] != LEAD}
        return found


def _segment_role(segment, has_tags):
    if not _ends_with_colon(segment):
        return None
    for tags in ((False, True) if has_tags else (False,)):
        for order in _ORDERS:
            role = _read_segment(segment, order, tags)
            if role:
                return role
    return None


def other_reading_is_marker(line):
    """Whether a reader that splits `line` at a break or reads it reversed
    sees a marker there (readers.rs other_reading_is_marker): of a marker
    line, a marker other than the one the grammar reads."""
    has_bidi = any(is_bidi_control(c) for c in line)
    has_breaks = any(is_line_break(c) for c in line)
    has_tags = any(_is_tag(c) for c in line)
    if has_breaks:
        for splits in _SPLITTERS[1:]:
            if any(splits(c) for c in line) and any(
                _segment_role(segment, has_tags) for segment in _split(line, splits)
            ):
                return True
    if has_bidi:
        reversed_line = line[::-1]
        for splits in _SPLITTERS if has_breaks else _SPLITTERS[:1]:
            if any(_segment_role(segment, has_tags) for segment in _split(reversed_line, splits)):
                return True
    return False


def breaks_a_marker_line(value, quoted):
    """The first char of a value that would change the marker line it is
    written into, or None (readers.rs breaks_a_marker_line)."""
    for c in value:
        if is_line_break(c) or _is_control(c) or is_default_ignorable(c) or is_bidi_control(c):
            return c
        if '"' in unicodedata.normalize("NFKD", c):
            return c
        for order in _ORDERS:
            folded = fold_char(c, order, True)
            if '"' in folded or "\\" in folded or "''" in folded:
                return c
            if not quoted and any(d in folded for d in ",[]="):
                return c
        if is_invisible_format(c):
            return c
    return None
