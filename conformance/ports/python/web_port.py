"""The web suite's strip and envelope operations, ported from the Rust
reference (core/src/web/strip/, entity.rs, envelope.rs, and mod.rs's
format_timestamp/parse_timestamp). Standard library only.

Rule table. The strip layer's rules live in strip_rules.json next to this
file: the output of `cargo run -q -p agentfence-conformance -- web rules`,
committed as it is printed. When core/src/web/strip/rules.rs changes,
regenerate it from the repository root with

    cargo run -q -p agentfence-conformance -- web rules \
        > conformance/ports/python/strip_rules.json

and run the web suite against this port. The patterns are Rust `regex`
syntax on the normalized view; `_translate` turns them into Python `re`
mechanically (`(?-u:\\b)` becomes `\\b` under re.ASCII, `\\z` becomes `\\Z`)
and the module refuses to load if one does not compile or names a code
check this file does not implement (the checks are the functions of
rules.rs of the same names, below). Two patterns of rules.rs are not in the
table (DIRECTIVE, read by `starts_with_directive`, and the DOCUMENT pattern
of `not_about_a_document`): they are copied below in rules.rs's own
notation; a rule change that touches them needs the copy updated too (the
load checks that DIRECTIVE still appears inside the table's `then`
patterns).

Character properties. Rust's char methods differ from Python's str ones on
a few sets, mirrored here: `char::is_whitespace` (White_Space, not
str.isspace, which adds U+001C..U+001F), `char::is_alphanumeric`
(Alphabetic also holds the Other_Alphabetic marks and symbols: the table
below, generated from the Rust std of the reference), and
unicode-normalization's `is_combining_mark` (General_Category Mark, not
unicodedata.combining). Python 3.11 carries Unicode 14; the reference
carries newer tables, so characters assigned after Unicode 14 may fold
differently here (no vector uses one; fuzzing against the reference found
U+10EF1, a mark since Unicode 16, kept here and dropped there).

Speed. Python's `re` backtracks where Rust's `regex` runs automata: on
adversarial text some rules take quadratic time (a word of thousands of
letters) or exponential time (an ambiguous word repeated, `do not follow
preset preset ...`, since `~` may be a space or nothing). Answers are the
same; the vectors are short and run in about a second in all.
"""

import itertools
import json
import os
import re
import unicodedata
from bisect import bisect_right

import port_errors
from char_class import LINE_BREAKS as _LINE_BREAKS
from char_class import is_invisible_format

STRIPPED = "[STRIPPED]"

# ---------------------------------------------------------------------------
# Character classes (core/src/char_class.rs and Rust's char methods)

_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_WS_CLASS = (
    "\\t\\n\\x0b\\x0c\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029"
    "\\u202f\\u205f\\u3000"
)


def is_whitespace(c):
    return c in _WHITESPACE


def is_control(c):
    o = ord(c)
    return o < 0x20 or 0x7F <= o <= 0x9F


# Characters Rust's char::is_alphanumeric accepts and str.isalnum does not
# (Other_Alphabetic marks and circled letters), among those Python's
# Unicode 14 database assigns; hex ranges.
_ALNUM_EXTRA_TEXT = (
    "345 363-36f 5b0-5bd 5bf 5c1-5c2 5c4-5c5 5c7 610-61a 64b-657 659-65f 670 6d6-6dc 6e1-6e4 "
    "6e7-6e8 6ed 711 730-73f 7a6-7b0 816-817 81b-823 825-827 829-82c 8d4-8df 8e3-8e9 8f0-903 "
    "93a-93b 93e-94c 94e-94f 955-957 962-963 981-983 9be-9c4 9c7-9c8 9cb-9cc 9d7 9e2-9e3 "
    "a01-a03 a3e-a42 a47-a48 a4b-a4c a51 a70-a71 a75 a81-a83 abe-ac5 ac7-ac9 acb-acc ae2-ae3 "
    "afa-afc b01-b03 b3e-b44 b47-b48 b4b-b4c b56-b57 b62-b63 b82 bbe-bc2 bc6-bc8 bca-bcc bd7 "
    "c00-c04 c3e-c44 c46-c48 c4a-c4c c55-c56 c62-c63 c81-c83 cbe-cc4 cc6-cc8 cca-ccc cd5-cd6 "
    "ce2-ce3 d00-d03 d3e-d44 d46-d48 d4a-d4c d57 d62-d63 d81-d83 dcf-dd4 dd6 dd8-ddf df2-df3 "
    "e31 e34-e3a e4d eb1 eb4-eb9 ebb-ebc ecd f71-f83 f8d-f97 f99-fbc 102b-1036 1038 103b-103e "
    "1056-1059 105e-1060 1062-1064 1067-106d 1071-1074 1082-108d 108f 109a-109d 1712-1713 "
    "1732-1733 1752-1753 1772-1773 17b6-17c8 1885-1886 18a9 1920-192b 1930-1938 1a17-1a1b "
    "1a55-1a5e 1a61-1a74 1abf-1ac0 1acc-1ace 1b00-1b04 1b35-1b43 1b80-1b82 1ba1-1ba9 "
    "1bac-1bad 1be7-1bf1 1c24-1c36 1dd3-1df4 24b6-24e9 2de0-2dff a674-a67b a69e-a69f a802 "
    "a80b a823-a827 a880-a881 a8b4-a8c3 a8c5 a8ff a926-a92a a947-a952 a980-a983 a9b4-a9bf "
    "a9e5 aa29-aa36 aa43 aa4c-aa4d aa7b-aa7d aab0 aab2-aab4 aab7-aab8 aabe aaeb-aaef aaf5 "
    "abe3-abea fb1e 10376-1037a 10a01-10a03 10a05-10a06 10a0c-10a0f 10d24-10d27 10eab-10eac "
    "11000-11002 11038-11045 11073-11074 11080-11082 110b0-110b8 110c2 11100-11102 "
    "11127-11132 11145-11146 11180-11182 111b3-111bf 111ce-111cf 1122c-11234 11237 1123e "
    "112df-112e8 11300-11303 1133e-11344 11347-11348 1134b-1134c 11357 11362-11363 "
    "11435-11441 11443-11445 114b0-114c1 115af-115b5 115b8-115be 115dc-115dd 11630-1163e "
    "11640 116ab-116b5 1171d-1172a 1182c-11838 11930-11935 11937-11938 1193b-1193c 11940 "
    "11942 119d1-119d7 119da-119df 119e4 11a01-11a0a 11a35-11a39 11a3b-11a3e 11a51-11a5b "
    "11a8a-11a97 11c2f-11c36 11c38-11c3e 11c92-11ca7 11ca9-11cb6 11d31-11d36 11d3a "
    "11d3c-11d3d 11d3f-11d41 11d43 11d47 11d8a-11d8e 11d90-11d91 11d93-11d96 11ef3-11ef6 "
    "16f4f 16f51-16f87 16f8f-16f92 16ff0-16ff1 1bc9e 1e000-1e006 1e008-1e018 1e01b-1e021 "
    "1e023-1e024 1e026-1e02a 1e947 1f130-1f149 1f150-1f169 1f170-1f189 "
)


def _ranges(text):
    starts, ends = [], []
    for item in text.split():
        lo, _, hi = item.partition("-")
        starts.append(int(lo, 16))
        ends.append(int(hi or lo, 16))
    return starts, ends


_ALNUM_EXTRA_STARTS, _ALNUM_EXTRA_ENDS = _ranges(_ALNUM_EXTRA_TEXT)


def is_alphanumeric(c):
    if c.isalnum():
        return True
    o = ord(c)
    i = bisect_right(_ALNUM_EXTRA_STARTS, o) - 1
    return i >= 0 and o <= _ALNUM_EXTRA_ENDS[i]


def is_alphabetic(c):
    """Rust's char::is_alphabetic: letters, letter numbers (Nl) and the
    Other_Alphabetic characters of the table above."""
    if c.isalpha():
        return True
    o = ord(c)
    i = bisect_right(_ALNUM_EXTRA_STARTS, o) - 1
    return (i >= 0 and o <= _ALNUM_EXTRA_ENDS[i]) or unicodedata.category(c) == "Nl"


def _ascii_alnum(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or ("0" <= c <= "9")


def _ascii_alpha(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _ascii_lower(text):
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _trim_start(text):
    i = 0
    while i < len(text) and text[i] in _WHITESPACE:
        i += 1
    return text[i:]


def _trim_end(text):
    i = len(text)
    while i > 0 and text[i - 1] in _WHITESPACE:
        i -= 1
    return text[:i]


def _utf8_len(c):
    o = ord(c)
    return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4


# ---------------------------------------------------------------------------
# HTML character references (core/src/web/entity.rs)

_NAMED = {
    "amp": "&", "lt": "<", "gt": ">", "quot": '"',
    "AMP": "&", "LT": "<", "GT": ">", "QUOT": '"',
    "apos": "'", "nbsp": "\u00a0", "ensp": "\u2002", "emsp": "\u2003",
    "thinsp": "\u2009", "shy": "\u00ad", "zwsp": "\u200b", "zwnj": "\u200c",
    "zwj": "\u200d", "lrm": "\u200e", "rlm": "\u200f", "NoBreak": "\u2060",
    "Tab": "\t", "NewLine": "\n", "lowbar": "_", "UnderBar": "_",
    "hyphen": "\u2010", "dash": "\u2010", "ndash": "\u2013", "mdash": "\u2014",
    "colon": ":", "semi": ";", "comma": ",", "period": ".", "excl": "!",
    "quest": "?", "num": "#", "vert": "|", "verbar": "|", "VerticalLine": "|",
    "lsqb": "[", "lbrack": "[", "rsqb": "]", "rbrack": "]", "lpar": "(",
    "rpar": ")", "sol": "/", "bsol": "\\", "ast": "*", "midast": "*",
    "equals": "=", "lsquo": "\u2018", "rsquo": "\u2019", "ldquo": "\u201c",
    "rdquo": "\u201d", "laquo": "\u00ab", "raquo": "\u00bb",
    "lsaquo": "\u2039", "rsaquo": "\u203a", "hellip": "\u2026",
    "middot": "\u00b7", "bull": "\u2022", "copy": "\u00a9", "reg": "\u00ae",
    "trade": "\u2122", "iexcl": "\u00a1", "iquest": "\u00bf",
    "szlig": "\u00df", "aacute": "\u00e1", "agrave": "\u00e0",
    "acirc": "\u00e2", "auml": "\u00e4", "atilde": "\u00e3",
    "aring": "\u00e5", "ccedil": "\u00e7", "eacute": "\u00e9",
    "egrave": "\u00e8", "ecirc": "\u00ea", "euml": "\u00eb",
    "iacute": "\u00ed", "igrave": "\u00ec", "icirc": "\u00ee",
    "iuml": "\u00ef", "ntilde": "\u00f1", "oacute": "\u00f3",
    "ograve": "\u00f2", "ocirc": "\u00f4", "ouml": "\u00f6",
    "otilde": "\u00f5", "oslash": "\u00f8", "uacute": "\u00fa",
    "ugrave": "\u00f9", "ucirc": "\u00fb", "uuml": "\u00fc",
    "yacute": "\u00fd", "yuml": "\u00ff", "Aacute": "\u00c1",
    "Agrave": "\u00c0", "Auml": "\u00c4", "Eacute": "\u00c9",
    "Egrave": "\u00c8", "Iacute": "\u00cd", "Ntilde": "\u00d1",
    "Oacute": "\u00d3", "Ouml": "\u00d6", "Uacute": "\u00da",
    "Uuml": "\u00dc",
}
_BARE_NAMES = ("amp", "lt", "gt", "quot", "nbsp", "AMP", "LT", "GT", "QUOT")
_MAX_ENTITY_LEN = 20
_DEC = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")


def decode_after_ampersand(text, at):
    """The reference at text[at:] (just after the `&`): (char, length
    without the `&`), or None."""
    if text.startswith("#", at):
        i = at + 1
        if i < len(text) and text[i] in "xX":
            i += 1
            radix, allowed, skip = 16, _HEX, 2
        else:
            radix, allowed, skip = 10, _DEC, 1
        j = i
        while j < len(text) and text[j] in allowed:
            j += 1
        n = j - i
        if n == 0 or n > _MAX_ENTITY_LEN:
            return None
        code = int(text[i:j], radix)
        if code > 0xFFFFFFFF or code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None
        semicolon = 1 if text.startswith(";", j) else 0
        return chr(code), skip + n + semicolon
    j = at
    while j < len(text) and j - at < _MAX_ENTITY_LEN and _ascii_alnum(text[j]):
        j += 1
    name = text[at:j]
    if text.startswith(";", j) and name in _NAMED:
        return _NAMED[name], len(name) + 1
    best = None
    for bare in _BARE_NAMES:
        if name.startswith(bare) and (best is None or len(bare) > len(best)):
            best = bare
    if best is None:
        return None
    return _NAMED[best], len(best)


def decode_at(text, at):
    """The reference at text[at:] (which starts with `&`): (char, length)."""
    if not text.startswith("&", at):
        return None
    found = decode_after_ampersand(text, at + 1)
    if found is None:
        return None
    return found[0], found[1] + 1


# ---------------------------------------------------------------------------
# The normalized view (core/src/web/strip/normalize.rs)

def _load_lookalikes():
    # Computed by the reference from Unicode's confusables data and
    # decancer (normalize.rs, `lookalike`), which Python's standard library
    # lacks: regenerate with `agentfence web lookalikes`.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strip_lookalikes.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


_LOOKALIKES = _load_lookalikes()


def _fold_lookalike(c):
    if c == "_":
        return "-"
    return _LOOKALIKES.get(c, c)


_FOLD_CACHE = {}


def fold_char(c):
    """Compatibility decomposition, combining marks dropped, lowercase,
    look-alikes to the ASCII letter they imitate: a string."""
    found = _FOLD_CACHE.get(c)
    if found is not None:
        return found
    # A lowercase look-alike whose decomposition is not ASCII is read
    # before it, which can lose the likeness (lunate sigma decomposes to
    # final sigma).
    if (
        not c.isascii()
        and c.islower()
        and c in _LOOKALIKES
        and not all(
            d.isascii() or unicodedata.category(d)[0] == "M"
            for d in unicodedata.normalize("NFKD", c)
        )
    ):
        _FOLD_CACHE[c] = _LOOKALIKES[c]
        return _LOOKALIKES[c]
    out = []
    for d in unicodedata.normalize("NFKD", c):
        if unicodedata.category(d)[0] == "M":
            continue
        for lower in d.lower():
            out.append(_fold_lookalike(lower))
    found = "".join(out)
    _FOLD_CACHE[c] = found
    return found


def fold_literal(text):
    return "".join(
        " " if f == "-" else f for c in text for f in fold_char(c)
    )


_INLINE_ELEMENTS = frozenset((
    "a abbr b bdi bdo big cite code data del dfn em font i ins kbd label mark "
    "q rp rt ruby s samp small span strike strong sub sup time tt u var wbr"
).split())
_BLOCK_ELEMENTS = frozenset((
    "address area article aside audio base blockquote body br button canvas "
    "caption center col colgroup dd details dialog div dl dt embed fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hr html "
    "iframe img input legend li link main map math meta nav noscript object "
    "ol option p picture pre script section select source style summary svg "
    "table tbody td template textarea tfoot th thead title tr track ul video"
).split())
_MAX_TAG_LEN = 4096
_NOTHING, _BREAK = 0, 1


def _markup_at(text, at):
    """An HTML tag or comment at text[at] (a `<`): (kind, length)."""
    if text.startswith("<!--", at):
        end = text.find("-->", at + 4)
        return _NOTHING, (len(text) - at if end < 0 else end + 3 - at)
    name_start = at + 2 if text.startswith("/", at + 1) else at + 1
    j = name_start
    while j < len(text) and _ascii_alnum(text[j]):
        j += 1
    if j == name_start:
        return None
    name = _ascii_lower(text[name_start:j])
    if name in _INLINE_ELEMENTS:
        kind = _NOTHING
    elif name in _BLOCK_ELEMENTS:
        kind = _BREAK
    else:
        return None
    if j >= len(text) or text[j] not in ">/ \t\n\r\x0c":
        return None
    byte = j - at
    k = j
    quote = None
    while k < len(text) and byte < _MAX_TAG_LEN:
        c = text[k]
        if c == "<":
            return None
        if quote is None and c in "\"'":
            quote = c
        elif quote is not None and c == quote:
            quote = None
        elif quote is None and c == ">":
            return kind, k + 1 - at
        byte += _utf8_len(c)
        k += 1
    return None


class Normalized:
    """The view: its text, and for each of its characters the original
    range [start, end) it came from (code point offsets)."""

    __slots__ = ("text", "starts", "ends")

    def __init__(self, text, starts, ends):
        self.text = text
        self.starts = starts
        self.ends = ends

    def original_range(self, start, end):
        return min(self.starts[start:end]), max(self.ends[start:end])


class _Builder:
    __slots__ = ("chars", "starts", "ends")

    def __init__(self):
        self.chars = []
        self.starts = []
        self.ends = []

    def push(self, c, start, end):
        self.chars.append(c)
        self.starts.append(start)
        self.ends.append(end)

    def push_space(self, line_break, start, end):
        last = self.chars[-1] if self.chars else None
        # A run grows to cover both ranges: in a reversed run the new one
        # lies before the old.
        if last == " " and line_break:
            self.chars.pop()
            old_end = self.ends.pop()
            old_start = self.starts.pop()
            self.push("\n", min(old_start, start), max(old_end, end))
        elif last == " " or last == "\n":
            self.starts[-1] = min(self.starts[-1], start)
            self.ends[-1] = max(self.ends[-1], end)
        else:
            self.push("\n" if line_break else " ", start, end)

    def push_folded(self, c, start, end):
        if c < "\x80":
            if c in _LINE_BREAKS:
                self.push_space(True, start, end)
            elif c in " \t\x0c\r" or c == "-" or c == "_":
                self.push_space(False, start, end)
            elif c in "*`~":
                pass
            else:
                self.push(_ascii_lower(c), start, end)
            return
        if is_invisible_format(c):
            return
        if c in _WHITESPACE or c in _LINE_BREAKS:
            self.push_space(c in _LINE_BREAKS, start, end)
            return
        if unicodedata.category(c)[0] == "M":
            # A mark written apart from its letter belongs to the letter
            # before it (normalize.rs, push_folded).
            if self.chars and self.chars[-1] not in (" ", "\n"):
                self.starts[-1] = min(self.starts[-1], start)
                self.ends[-1] = max(self.ends[-1], end)
            return
        for folded in fold_char(c):
            if folded == "-":
                self.push_space(False, start, end)
            elif folded in "*`~":
                pass
            elif folded in _WHITESPACE:
                self.push_space(False, start, end)
            else:
                self.push(folded, start, end)


_PLAIN = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    ".,;:!?()\"'/=#[]|+@${}>\\^"
)


def _percent_escape(text, at):
    hexits = text[at + 1:at + 3]
    if len(hexits) != 2 or hexits[0] not in _HEX or hexits[1] not in _HEX:
        return None
    byte = int(hexits, 16)
    return chr(byte) if 0x20 <= byte < 0x7F else None


def normalize(original):
    return _build(original, True)


def normalize_as_written(original):
    return _build(original, False)


def _build(original, as_seen):
    out = _Builder()
    chars, starts, ends = out.chars, out.starts, out.ends
    n = len(original)
    at = 0
    while at < n:
        c = original[at]
        if c in _PLAIN or (c == " " and not (chars and chars[-1] in " \n")):
            chars.append(_ascii_lower(c))
            starts.append(at)
            ends.append(at + 1)
            at += 1
            continue
        if c == "<":
            markup = _markup_at(original, at)
            if markup is not None:
                kind, length = markup
                if kind == _BREAK:
                    out.push_space(True, at, at + length)
                at += length
                continue
        if (
            (c == "-" or c == "_")
            and at > 0
            and is_alphanumeric(original[at - 1])
            and at + 1 < n
            and is_alphanumeric(original[at + 1])
        ):
            at += 1
            continue
        if c == "-":
            joined = _hyphenated_line_end(original, at)
            if joined is not None:
                at = joined
                continue
        if c == "\u202e" and as_seen:
            run_start = at + 1
            run_end = run_start
            while run_end < n and original[run_end] not in "\u202c\n":
                run_end += 1
            for k in range(run_end - 1, run_start - 1, -1):
                out.push_folded(original[k], k, k + 1)
            at = run_end
            continue
        if c == "&":
            decoded = decode_at(original, at)
            if decoded is not None:
                out.push_folded(decoded[0], at, at + decoded[1])
                at += decoded[1]
                continue
        if c == "%":
            decoded = _percent_escape(original, at)
            if decoded is not None:
                out.push_folded(decoded, at, at + 3)
                at += 3
                continue
        o = ord(c)
        if 0xE0020 <= o <= 0xE007E:
            out.push_folded(chr(o - 0xE0000), at, at + 1)
            at += 1
            continue
        out.push_folded(c, at, at + 1)
        at += 1
    view = Normalized("".join(chars), starts, ends)
    _collapse_letter_spacing(view, original)
    _fold_leetspeak(view)
    return view


def _hyphenated_line_end(original, at):
    """normalize::hyphenated_line_end: where a word hyphenated at a line's
    end goes on (`ign-\\nore`), or None."""
    if at == 0 or not is_alphanumeric(original[at - 1]):
        return None
    k = at + 1
    if original.startswith("\r\n", k):
        k += 2
    elif original.startswith("\n", k):
        k += 1
    else:
        return None
    while k < len(original) and original[k] in " \t":
        k += 1
    if k >= len(original):
        return None
    nxt = original[k]
    if is_alphanumeric(nxt) and not ("A" <= nxt <= "Z") and not ("0" <= nxt <= "9"):
        return k
    return None


def _collapse_letter_spacing(view, original):
    """normalize::collapse_letter_spacing: letters of any script (an ASCII
    lowercase letter, or any other alphanumeric character) standing alone,
    one separator apart."""
    text = view.text
    n = len(text)
    starts, ends = view.starts, view.ends

    def width(i):
        return ends[i] - starts[i]

    def is_single(i):
        c = text[i]
        letter = ("a" <= c <= "z") or (not c.isascii() and is_alphanumeric(c))
        return (
            letter
            and (i == 0 or not is_alphanumeric(text[i - 1]))
            and (i + 1 >= n or not is_alphanumeric(text[i + 1]))
        )

    runs = []
    i = 0
    while i < n:
        if not is_single(i):
            i += 1
            continue
        separator = text[i + 1] if i + 1 < n else None
        gap = width(i + 1) if i + 1 < n else 0
        end = i
        while (
            separator in (" ", ".", "\n", "/", "|")
            and end + 1 < n
            and text[end + 1] == separator
            and width(end + 1) == gap
            and end + 2 < n
            and is_single(end + 2)
        ):
            end += 2
        letters = (end - i) // 2 + 1
        # The run's separator before spaced punctuation (`A S S I S T A N T
        # :`), or a stop closing a run spaced by stops (`I.G.N.O.R.E.`).
        after = end + 1
        trailing = None
        if letters >= 2 and after < n and text[after] == separator and width(after) == gap:

            def closes(k):
                return k >= n or not is_alphanumeric(text[k])

            if separator == ".":
                if closes(after + 1):
                    trailing = after
            elif after + 1 < n and text[after + 1] in ":,;.!?" and closes(after + 2):
                trailing = after
        runs.append((i, end, letters, trailing))
        i = end + 1
    if not any(letters >= 4 for _, _, letters, _ in runs) and (
        sum(1 for _, _, letters, _ in runs if letters >= 3) < 3
    ):
        return
    drop = [False] * n
    for first, last, letters, trailing in runs:
        if letters >= 2:
            for g in range(first + 1, last, 2):
                drop[g] = True
        if trailing is not None:
            drop[trailing] = True
    keep = [i for i in range(n) if not drop[i]]
    view.text = "".join(text[i] for i in keep)
    view.starts = [starts[i] for i in keep]
    view.ends = [ends[i] for i in keep]


_LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "@": "a", "5": "s", "$": "s",
         "7": "t", "8": "b", "6": "g", "9": "g"}


def _fold_leetspeak(view):
    b = list(view.text)
    n = len(b)
    for i in range(1, n - 1):
        if _ascii_alnum(b[i - 1]) and _ascii_alnum(b[i + 1]):
            if b[i] == "!":
                b[i] = "i"
            elif b[i] == "|":
                b[i] = "l"

    def is_word(c):
        return _ascii_alnum(c) or c == "@" or c == "$"

    i = 0
    while i < n:
        if not is_word(b[i]):
            i += 1
            continue
        start = i
        while i < n and is_word(b[i]):
            i += 1
        if b[start] == "@" and i - start > 4:
            start += 1
        word = b[start:i]
        letters = any("a" <= c <= "z" for c in word)
        stand_ins = any(c in _LEET for c in word)
        # normalize.rs holds_a_number: letters, then three digits or more.
        lead = 0
        while lead < len(word) and ("a" <= word[lead] <= "z" or "A" <= word[lead] <= "Z"):
            lead += 1
        tail = word[lead:]
        number = lead > 0 and len(tail) >= 3 and all("0" <= c <= "9" for c in tail)
        if letters and stand_ins and not number:
            for k in range(start, i):
                b[k] = _LEET.get(b[k], b[k])
    view.text = "".join(b)


# ---------------------------------------------------------------------------
# Rules (core/src/web/strip/rules.rs), loaded from strip_rules.json

PLANTED_MARKER = "planted [STRIPPED]"
NESTED_MARKERS = "nested_markers"
SEED_COMMENT_SYSTEM = "<!-- system"
HIDDEN_COMMENT = "hidden_comment"
HIDDEN_ELEMENT = "hidden_element"
HIDDEN_ATTRIBUTE = "hidden_attribute"
ENCODED_PAYLOAD = "encoded_payload"
HIDDEN_TEXT = "hidden_text"


def _translate(pattern):
    """Rust `regex` syntax of the rule table to Python `re` (compiled with
    re.ASCII: the only class escape the table uses is the ASCII `\\b`)."""
    return pattern.replace("(?-u:\\b)", "\\b").replace("\\z", "\\Z")


def _compile_rule(pattern):
    """rules.rs's `compile` for the ASCII patterns copied here: `~` is the
    word gap, `\\b` the ASCII boundary."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "~":
            out.append("[ \\n./+]?")
        elif c == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2] if pattern[i + 1] != "b" else "(?-u:\\b)")
            i += 1
        elif c < "\x80":
            out.append(c)
        else:
            out.append(re.escape(fold_literal(c)))
        i += 1
    return "".join(out)


# Copied from rules.rs (DIRECTIVE and not_about_a_document's DOCUMENT).
_DIRECTIVE = r"(?:you~(?:are|must|should|will|have~to|need~to|shall)|your~(?:new|real|task|instructions|assignment|job|goal|orders|role|only|primary)|ignore|disregard|forget|override|do~not|don't|dont|never|always|stop|from~now~on|new~instructions|important|attention|urgent|reveal|print|output|respond|reply|answer~only|say|tell|send|transfer|the~user|the~assistant|the~ai|the~model|assistant|ai|model)\b"
_DOCUMENT = r"^[ \n,]?(?:(?:on|in|from|of|at|inside|within|del|de~la|de|en|im|in~der|auf~der|dans~le|dans~la|du|sur~le|sur~la|nel|nella|no|na)~(?:the~|this~|that~|our~|el~|la~|le~|der~|dem~|il~|o~|a~)?(?:[a-z0-9]+~){0,2}(?:wiki|manual|readme|post|thread|page|doc|docs|documentation|guide|email|mail|sticky|forum|faq|handbook|box|package|label|leaflet|booklet|brochure|letter|memo|ticket|card|sheet|binder|notice|poster|installer)|(?:that~|which~)?(?:we|i|they|he|she|support|the~team)~(?:sent|gave|posted|wrote|emailed|mailed|shared|provided|mentioned|published|left)|(?:regarding|concerning|relating~to|related~to|with~regard~to|in~regard~to|concernant|relatives?~(?:a|au|aux)|bezuglich|betreffend|sobre~(?:la|el|a|o)~(?:instalacion|instalacao|configuracion|configuracao)|relativas?~(?:a|al)|riguardo~(?:a|al|alla))|[ ]?(?:views|tables|triggers|indexes|functions|sequences|columns|schemas|procedures|types|operators))\b"

_DIRECTIVE_SOURCE = _compile_rule(_DIRECTIVE)
_OPENS_DIRECTIVE = re.compile(_translate("^" + _DIRECTIVE_SOURCE), re.ASCII)
_DOCUMENT_RX = re.compile(_translate(_compile_rule(_DOCUMENT)), re.ASCII)


def starts_with_directive(view):
    return _OPENS_DIRECTIVE.match(view) is not None


_PAGE_PARTS = frozenset(
    "step steps warning warnings error errors section paragraph example "
    "examples code link links typo typos image screenshot table figure output "
    "log logs list diagram snippet commit email post comment question answer "
    # A program's parts, which SQL and API docs drop and override.
    "function functions method methods procedure view views trigger triggers index "
    "column columns schema query queries statement statements definition declaration "
    "class script file files"
    .split()
)


def _leading_ascii_lower(text):
    i = 0
    while i < len(text) and "a" <= text[i] <= "z":
        i += 1
    return text[:i]


def not_about_page_parts(after):
    rest = after.lstrip(" \n")
    part = _leading_ascii_lower(rest)
    # `delete the above mentioned files`: the part comes after the participle.
    if part in ("mentioned", "listed", "named", "described", "shown"):
        part = _leading_ascii_lower(rest[len(part):].lstrip(" \n"))
    return part not in _PAGE_PARTS


def not_about_a_document(after):
    return _DOCUMENT_RX.match(after) is None


def not_followed_by_word(after):
    return not (after and is_alphanumeric(after[0]))


def not_an_identifier(original):
    return "_" not in original


def not_negated(before):
    tail = _trim_end(before[-24:])
    return not any(
        tail.endswith(word) for word in ("never", "not", "n't", "dont", "avoid", "no")
    )


_NOT_CREDENTIALS = frozenset(
    (
        "number numbers ingredient ingredients recipe sauce santa garden passage door "
        "level levels menu society service history life lives of "
        # What a program prints about a secret, not the secret.
        "size sizes length algorithm algorithms type types status strength prompt prompts "
        "constraints field fields format setup "
        # `the original password protected URL`.
        "protected "
        # `print out all the private key components`, `a usable private key string`.
        "components component string strings"
    ).split()
)


_SOURCE_FILES = frozenset(
    "h c cc cpp hpp cxx o py rs go js ts java rb pl m4 am in".split()
)


def names_a_leak(after):
    if _leading_ascii_lower(after.lstrip(" \n")) in _NOT_CREDENTIALS:
        return False
    # `Include cookies.h.`: a source file named after the secret.
    if after.startswith("."):
        k = 1
        while k < len(after) and after[k].isascii() and after[k].isalnum():
            k += 1
        if after[1:k] in _SOURCE_FILES:
            return False
    line = after.split("\n", 1)[0][:64]
    return not any(place in line for place in _NOT_LEAK_PLACES)


_NOT_LEAK_PLACES = (
    "header",
    "authorization",
    "secrets manager",
    "secret manager",
    "password manager",
    "vault",
    "keychain",
    "under admin",
    "settings",
    "dashboard",
    "admin console",
    "admin panel",
    "over https",
    "over tls",
    "over ssl",
)

_REPORTING = (
    "ask you to",
    "asks you to",
    "asked you to",
    "asking you to",
    "ask users to",
    "asks users to",
    "asked users to",
    "told me to",
    "tells me to",
    "told you to",
    "tells you to",
    "told them to",
    "told users to",
    "ask them to",
    "asks them to",
    "asked them to",
    "asking them to",
    "asking staff to",
    "asking employees to",
    "a request to",
    "requests to",
    "request to",
    "attempts to",
    "attempt to",
    "tries to",
    "tried to",
    "trying to",
    "a model to",
    "the model to",
    "the bot to",
    "a bot to",
    "the chatbot to",
    "the assistant to",
    "the ai to",
    "the llm to",
    "an llm to",
    "an assistant to",
    "a chatbot to",
    "an ai to",
    "claiming",
    "claiming that",
    "claim that",
    "claims that",
)


_FIRST_PERSON = ("i", "i'm", "im", "am", "we", "we're")
# rules::not_reported's causative verbs.
_CAUSES = (
    "force", "forces", "forced", "forcing", "cause", "causes", "caused", "teach", "teaches",
    "taught", "configure", "configures",
)


_ASKING = (
    "ask", "asks", "asked", "asking", "tell", "tells", "told", "telling", "instruct",
    "instructs", "instructed", "trick", "tricks", "tricked", "convince", "convinced",
    "prompt", "prompts", "prompted", "coax", "coaxed", "get", "gets", "got",
)


def not_asked_of_a_model(before):
    """rules::not_asked_of_a_model."""
    sentence = re.split(r"[.!?\n]", before[-200:])[-1]
    words = _words(sentence)
    for at, word in enumerate(words):
        if word not in _ASKING:
            continue
        obj = at + 2 if at + 1 < len(words) and words[at + 1] in ("the", "a", "an", "its", "their") else at + 1
        if (
            obj < len(words)
            and words[obj] in _READERS
            and words[obj] not in ("you", "u")
            and obj + 1 < len(words)
            and words[obj + 1] == "to"
        ):
            return False
    return True


def not_reported(before):
    tail = _trim_end(before[-40:])
    for word in ("the", "these", "those", "all", "any"):
        lead = tail[: len(tail) - len(word)]
        if tail.endswith(word) and lead and lead[-1] in _WHITESPACE:
            tail = _trim_end(lead)
            break
    # Someone made a model do it: `got our Copilot pilot to`; or a program
    # made to do it: `force certtool to` (not `force you to`, nor a model).
    reported = False
    if tail.endswith(" to"):
        made = _words(tail[:-3])[::-1][:4]
        who = made[0] if made else ""
        reported = any(
            w in ("got", "gets", "getting", "tricked", "convinced")
            or (w in _CAUSES and who != "yourself" and who not in _READERS)
            for w in made[1:]
        )
    reported = reported or _states_a_tendency(before)
    for phrase in _REPORTING:
        if tail.endswith(phrase):
            lead = _trim_end(tail[: len(tail) - len(phrase)])
            start = len(lead)
            while start > 0 and lead[start - 1] not in _WHITESPACE:
                start -= 1
            # Said by the writer, the words are the order itself.
            reported = reported or lead[start:] not in _FIRST_PERSON
    return not_negated(before) and not reported


_QUANTIFIERS = (
    "all", "none", "any", "each", "every", "some", "most", "many", "both", "half", "rest",
    "remainder", "part", "parts", "one", "several", "few", "majority",
)


def not_a_prepositions_object(before):
    # `the OLD behaviors of all policies are deprecated`: the noun before
    # `of` is what is declared void, unless it is a quantifier.
    tail = before[-48:]
    if not tail or tail[-1] not in _WHITESPACE:
        return True
    words = _words(tail)
    if len(words) >= 2 and words[-1] == "of":
        return words[-2] in _QUANTIFIERS
    return True


def an_override_declared(before):
    return not_reported(before) and not_a_prepositions_object(before)


def _words(text):
    """Rust's `split_whitespace`."""
    return list(_iter_words(text))


def _iter_words(text):
    """Rust's `split_whitespace`, lazily: a caller that reads the first few
    words of the rest of a page reads no further."""
    cur = []
    for c in text:
        if c in _WHITESPACE:
            if cur:
                yield "".join(cur)
                cur = []
        else:
            cur.append(c)
    if cur:
        yield "".join(cur)


def _after_last(text, chars):
    at = max(text.rfind(c) for c in chars)
    return text[at + 1:] if at >= 0 else text


# rules::STATED_OF
_STATEMENT_SUBJECTS = (
    "we", "they", "it", "he", "she", "which", "who", "models", "agents", "assistants",
    "chatbots", "llms", "attackers", "users", "people", "researchers",
    # What a program's parts do (`your rules override the default rules`).
    "rules", "settings", "options", "values", "files", "scripts", "plugins", "modules", "methods",
    "functions", "programs", "commands", "servers", "clients", "browsers", "applications",
    "libraries", "packages",
    # `Standard variables include the full set of environment variables`.
    "variables", "fields", "headers", "requests", "responses", "messages", "errors", "logs", "pages",
    "templates",
    # What attacks do, in articles about them.
    "injections", "attacks", "jailbreaks", "exploits", "payloads", "adversaries", "hackers",
    "scammers", "emails", "documents", "websites",
    # A question to the people of a chat.
    "someone", "somebody", "anyone", "anybody", "everyone", "everybody",
)
_MODALS = (
    "could", "would", "might", "may", "can", "should", "will", "shall", "must", "did", "does",
)
_READERS = (
    "you u assistant assistants ai model models agent agents bot bots llm llms chatbot chatbots"
).split()
_CONDITIONS = ("if", "when", "whenever", "once", "unless")


def _last_clause(before):
    """rules::last_clause: the sentence before a verb and its clause."""
    sentence = _after_last(before[-120:], ".!?;")
    return sentence, _after_last(sentence, ",:")


# rules::not_a_statement's adverbs.
_ADVERBS = ("also", "then", "just", "still", "usually", "automatically", "simply", "only")


def not_a_wrapped_line(before):
    """rules::not_a_wrapped_line: `in a custom user\nmodel, you must`."""
    tail = before.rstrip(" ")
    return not (tail and (is_alphanumeric(tail[-1]) or tail[-1] == ","))


def not_a_condition(before):
    """rules::not_a_condition: `if you don't follow the rules given above`."""
    return not _a_conditions_you(_last_clause(before)[1])


def _a_conditions_you(clause):
    words = _words(clause)
    return len(words) >= 2 and words[-1] == "you" and words[-2] in _CONDITIONS


def not_a_statement(before):
    sentence, clause = _last_clause(before)
    words = _words(clause)[::-1]
    at = 0
    # A verb joined to the one before it shares its subject (`MAY store and
    # forward`); after a modal, the modal's subject decides.
    if words and words[0] in ("and", "or"):
        if any(word in _MODALS for word in words):
            return said_to_the_reader(before)
        at = 2
    # An adverb between a subject or modal and its verb (`it will also forward`).
    while at < len(words) and words[at] in _ADVERBS:
        at += 1
    # `has to` is a modal, and a modal before it one more.
    if at < len(words) and words[at] == "to":
        semi = at + 1
        if semi < len(words) and words[semi] in ("has", "have", "had", "needs", "need", "ought"):
            semi += 1
            while semi < len(words) and words[semi] in _MODALS:
                semi += 1
            return semi >= len(words) or words[semi] in _READERS
    if at >= len(words):
        return True
    last = words[at]
    if last in _STATEMENT_SUBJECTS:
        return False
    if last == "you":
        conditioned = _a_conditions_you(clause)
        first = _words(sentence)
        condition = len(sentence) > len(clause) and bool(first) and first[0] in _CONDITIONS
        return not (conditioned or condition)
    if last in _MODALS:
        # A modal after `and` has the clause's subject (`… assistant and may`).
        if at + 1 < len(words) and words[at + 1] in ("and", "or"):
            return said_to_the_reader(before)
        return at + 1 >= len(words) or words[at + 1] in _READERS
    return True


def said_to_the_reader(before):
    _, clause = _last_clause(before)
    words = _words(clause)
    modals = [i for i, word in enumerate(words) if word in _MODALS]
    if not modals or modals[-1] == 0:
        return True
    return any(word in _READERS for word in words[: modals[-1]])


# rules::DEMONSTRATIVES, among the determiners and read alone too.
_DEMONSTRATIVES = frozenset(("this", "that", "these", "those"))
_DETERMINERS = _DEMONSTRATIVES | frozenset(
    "the a an same its their our his her each every default custom own".split()
)


def _last_word(before):
    """rules::last_word."""
    tail = before[-24:]
    words = _words(tail)
    if not words or not (tail and tail[-1] in _WHITESPACE):
        return None
    return words[-1]


def not_after_a_determiner(before):
    word = _last_word(before)
    return word is None or word not in _DETERMINERS


_PROGRAMS = (
    "tool", "tools", "model", "program", "script", "command", "function", "api", "plugin", "process",
    "memory", "descriptor", "fd", "handle", "socket", "resource",
    # `Disables verbose output from CMake`: words that only qualify a noun.
    "verbose", "debug", "diagnostic",
    # `There can be some output differences`.
    "some", "no",
)


# rules::not_a_changelog_item
_ENTRY_VERBS = frozenset(
    (
        "fix fixed fixes add added adds skip allow remove removed support improve avoid handle "
        "implement update updated clean rework rename bump document initialize refactor port new "
        "change changed correct ensure prevent"
    ).split()
)


def not_after_an_entry_verb(before):
    """rules::not_after_an_entry_verb: `gpg: Fix output of --with-secret`."""
    word = _last_word(before)
    return word is None or word not in _ENTRY_VERBS


_GOES_ON = frozenset(
    "and or nor as like such which who whose that is are was were has have had can could will "
    "would may might the a an its their etc e i but so also too for of in on at with by from".split()
)
_AI_LIST_WORDS = frozenset(
    "ai llm llms chatbot chatbots assistant assistants agent agents model models bot bots gpt "
    "chatgpt claude gemini copilot".split()
)


def not_a_list_nor_a_clause(after):
    """rules::not_a_list_nor_a_clause: `AI assistant, chatbot and agent are …`."""
    rest = after.lstrip(" \n")
    word = _leading_ascii_lower(rest.lstrip(" \n"))
    return not (word in _GOES_ON or word in _AI_LIST_WORDS or rest == "")


def not_a_changelog_item(after):
    return _next_word(after) not in _ENTRY_VERBS


def not_after_a_program(before):
    word = _last_word(before)
    return word is None or word not in _PROGRAMS


_APPOSITIVES = (
    "such as",
    "including",
    "like",
    "which",
    "e.g",
    "i.e",
    "for example",
    "for instance",
    "especially",
    "in particular",
)


def not_an_appositive(after):
    rest = after.lstrip(" \n")
    for words in _APPOSITIVES:
        if rest.startswith(words):
            tail = rest[len(words):]
            if not (tail and is_alphanumeric(tail[0])):
                return False
    return True


_TASK_RX = re.compile(r"^[ ]?(?:[a-z'-]+[ ]){0,3}?for[ ](?:this|my|a|an|our)[ ]([a-z]+)")


def not_a_task_for_the_user(after):
    found = _TASK_RX.match(after)
    return found is None or found.group(1) in (
        "conversation", "session", "chat", "rest", "remainder", "whole", "entire",
    )


def not_a_quoted_value(after):
    value = after.lstrip(" ")
    block_scalar = False
    if value[:1] in ("|", ">"):
        rest = value[1:].lstrip("-+").lstrip(" ")
        block_scalar = rest == "" or rest.startswith("\n")
    return not (value.startswith(("'", '"')) or block_scalar)


_PERMITS = ("let", "lets", "allow", "allows", "allowing", "permit", "permits", "enable", "enables")


def not_a_permission(before):
    tail = before[-48:]
    clause = _after_last(tail, ".!?;:,\n")
    words = _words(clause)[::-1][:3]
    return not any(
        word in _PERMITS and (at == 0 or words[at - 1] not in ("me", "us"))
        for at, word in enumerate(words)
    )


def an_order_not_a_setting(before):
    return (
        not _states_a_tendency(before)
        and not_after_a_determiner(before)
        and not_a_permission(before)
        and not_negated(before)
        and not a_program_part_is_for(before)
        and not a_program_parts_participle(before)
        and not_a_statement(before)
        and not_a_changelog_entry(before)
    )


_TENDING = (
    "seem", "seems", "seemed", "appear", "appears", "appeared", "tend", "tends", "tended",
    "start", "starts", "started", "begin", "begins", "began", "happen", "happens", "happened",
)


def _states_a_tendency(before):
    """rules::states_a_tendency."""
    return _word_before_to(before) in _TENDING


_CONDITION_CALLING = (
    "a", "an", "the", "any", "every", "all", "each", "some", "dear", "hey", "my", "our",
    "are", "you", "u", "you're", "youre", "be", "is", "if", "when", "whenever", "once",
    "unless",
)


def not_a_conditions_object(before):
    """rules::not_a_conditions_object."""
    sentence = re.split(r"[.!?;:\n]", before[-120:])[-1]
    words = _words(sentence)
    return not (words and words[0] in _CONDITIONS and words[-1].rstrip("'") not in _CONDITION_CALLING)


def neither_a_conditions_object_nor_a_turn(before):
    return (
        not_a_conditions_object(before)
        and not_a_transcript_turn(before)
        and not _in_a_purpose_clause(before)
    )


_LABELLING = (
    "example", "sample", "default", "suggested", "recommended", "minimal", "basic", "simple",
    "good", "bad", "original", "final",
)


def not_a_labelled_example(before):
    """rules::not_a_labelled_example."""
    words = _words(before[-32:].split("\n")[-1])
    return not (words and words[-1] in _LABELLING)


def _word_before_to(before):
    """The word before a closing ` to` (what rules::a_program_part_is_for
    and not_a_question_of_whether read)."""
    return _word_before(before, " to")


def _word_before(before, closing):
    """rules::word_before: the word before `closing` in the last 32 chars."""
    tail = _trim_end(before[-32:])
    if not tail.endswith(closing):
        return None
    lead = _words(tail[: len(tail) - len(closing)])
    return lead[-1] if lead else None


# rules::a_program_part_is_for
_PARTS_FOR = frozenset(
    "used argument arguments parameter parameters option options flag flags setting settings "
    "variable method function attribute keyword hook field property".split()
)


def a_program_part_is_for(before):
    return _word_before_to(before) in _PARTS_FOR


def a_program_parts_participle(before):
    """rules::a_program_parts_participle: `the datatype parameter, overriding …`."""
    part = _word_before(before, ",")
    return part is not None and part != "used" and part in _PARTS_FOR


_ASKED = (
    "the model to",
    "a model to",
    "the assistant to",
    "an assistant to",
    "the ai to",
    "an ai to",
    "the llm to",
    "an llm to",
)


def not_a_report_inside(original):
    lower = original.lower()
    return not any(asked in lower for asked in _ASKED)


def not_as_the_only(original):
    words = [word.lower() for word in _words(original)]
    return not any(
        words[i] == "as" and words[i + 1] == "the" and words[i + 2] == "only"
        for i in range(len(words) - 2)
    )


def not_a_docstrings_summary(before):
    """rules::not_a_docstrings_summary."""
    lines = before[-240:].split("\n")
    opening = _trim_start(_trim_end(lines[-1])) if lines else ""
    if opening not in ('"""', "'''", 'r"""'):
        return True
    heading = _trim_start(_trim_end(lines[-2])) if len(lines) > 1 else ""
    return not (
        heading.startswith(("def ", "async def ", "class ")) and heading.endswith(":")
    )


def neither_reported_nor_a_docstrings_summary(before):
    return not_reported(before) and not_a_docstrings_summary(before)


_TRADES = (
    "travel", "insurance", "estate", "booking", "sales", "shipping", "leasing", "letting",
    "ticket", "talent", "literary", "press", "border", "secret", "special", "free",
    "double", "claims", "rental", "patent", "enrolled", "registered", "listing", "buyer's",
    "buyers", "seller's", "sellers", "land",
)
_MODEL_WORDS = ("ai", "llm", "llms", "gpt", "bot", "bots", "automated", "virtual")


def not_a_peoples_agent(original):
    """rules::not_a_peoples_agent."""
    words = _alphanumeric_words(original.lower(), keep="'")
    return any(w in _MODEL_WORDS for w in words) or not any(
        a in _TRADES and b in ("agent", "agents") for a, b in zip(words, words[1:])
    )


def not_after_a_demonstrative(before):
    """rules::not_after_a_demonstrative."""
    return _last_word(before) not in _DEMONSTRATIVES


def an_order_to_leak(before):
    return (
        not_after_a_demonstrative(before)
        and not_a_docstrings_summary(before)
        and not_reported(before)
        and not_a_statement(before)
        and not_after_a_program(before)
        and not_a_question_of_whether(before)
        and not_a_purpose(before)
        and not_after_an_entry_verb(before)
        and not_a_changelog_entry(before)
        and not_after_a_sigil(before)
        and not_hedged(before)
        and not_the_other_end(before)
    )


def not_hedged(before):
    """rules::not_hedged: `and thus possibly send back cookies it received`."""
    return _last_word(before) not in ("possibly", "probably", "perhaps", "maybe", "likely")


def not_the_other_end(before):
    """rules::not_the_other_end: `have curl receive and send cookies`."""
    words = _words(before[-40:])
    return not (
        len(words) >= 2
        and words[-1] in ("and", "or")
        and words[-2] in (
            "receive", "accept", "store", "read", "get", "verify", "validate", "input", "parse",
        )
    )


def _prefix_of_bytes(text, count):
    """`&text[..text.floor_char_boundary(count)]`: the longest prefix of at
    most `count` UTF-8 bytes."""
    used = 0
    for at, c in enumerate(text):
        used += _utf8_len(c)
        if used > count:
            return text[:at]
    return text


def not_a_system_identity(after):
    """rules::not_a_system_identity: `assume the identity of an unprivileged user`."""
    accounts = ("user", "users", "root", "superuser", "caller", "process", "uid", "account", "owner")
    # The first three words, read lazily: `after` is the rest of the page.
    words = itertools.islice(_iter_words(after), 3)
    return not any(word.rstrip(",.;:") in accounts for word in words)


# rules::not_a_section_of_roles
_TURNS = frozenset(
    "user assistant human system ai model bot instruction instructions response input output".split()
)


def not_a_section_of_roles(after):
    """rules::not_a_section_of_roles: `## User` over a description, then `## Contributor`."""
    window = _prefix_of_bytes(after, 1200)
    for line in window.split("\n")[1:]:
        line = line.lstrip(" ")
        if line.startswith("##"):
            title = line.lstrip("#").lstrip(" ")
            k = 0
            while k < len(title) and "a" <= title[k] <= "z":
                k += 1
            return k == 0 or title[:k] in _TURNS
    return True


def not_after_a_sigil(before):
    """rules::not_after_a_sigil: `@include common-password`."""
    return not before.endswith(("@", "#", "$"))


def neither_reported_nor_code(before):
    return not_reported(before) and not_after_a_sigil(before)


def not_a_call(original):
    """rules::not_a_call: `sign.write('some data to sign')`."""
    return not original[_verb_end(original):].startswith("(")


def not_a_programs_commands(original):
    """rules::not_a_programs_commands: `The old commands are now deprecated`."""
    words = [word.lower() for word in _alphanumeric_words(original)]
    return not (
        any(word in ("command", "commands") for word in words)
        and words
        and words[-1] in ("deprecated", "removed", "replaced", "obsolete", "superseded", "retired")
    )


# rules::ASKING_BEFORE_TO
_ASKING_BEFORE_TO = frozenset(
    (
        "you u ya need needs have has had want wants required requested asked instructed told "
        "supposed expected sure remember forget going gonna is are be was were proceed now then "
        "also please and or must should will able ready free important necessary time wish like "
        "love agree tasked directed ordered allowed permitted authorized authorised encouraged "
        "invited welcome mandatory essential critical crucial vital imperative urgent obliged "
        "obligated forced compelled meant designed configured programmed trained job task goal "
        "duty role mission step next first instead just only always immediately quickly kindly "
        "try continue begin start hesitate fail neglect "
        # `help me to …`, `it's fine to print …`.
        "me us great okay ok fine good best better safe helpful acceptable appropriate"
    ).split()
)

# rules::CLAUSE_OPENERS
_CLAUSE_OPENERS = frozenset(
    "if when whenever whether unless because while since until after before though although where for".split()
)


def not_a_purpose(before):
    """rules::not_a_purpose: `To send your own cookies to the server, …`."""
    opening = _after_last(before[-40:], ".!?;\n>")
    if _words(opening) in (["to"], ["in", "order", "to"]):
        return False
    # `fix the __repr__ of os.environ to show the environment variables`:
    # after a noun an infinitive is a purpose; after a word that asks, an order.
    word = _word_before_to(before)
    return word is None or word in _ASKING_BEFORE_TO


def not_a_question_of_whether(before):
    """rules::not_a_question_of_whether: `when to send`, `whether or not to send`."""
    return _word_before_to(before) not in (
        "when", "whether", "how", "where", "what", "which", "not",
    )


def an_unstated_leak(before):
    """rules::an_unstated_leak."""
    words = _words(_last_clause(before)[1])
    return not_reported(before) and (not words or words[-1] not in _STATEMENT_SUBJECTS)


_PARTICULAR = frozenset(
    "your the my his her their our its this these those all user's users'".split()
)


# rules::SEND_VERBS and SHOW_VERBS
_SEND_VERBS = (
    "print", "paste", "send", "post", "upload", "include", "share", "push", "leak", "output", "dump",
    "exfiltrate", "forward", "email",
)
_SHOW_VERBS = ("reveal", "display", "show")


def names_a_particular_secret(original):
    words, cur = [], []
    for c in original:
        if is_alphanumeric(c) or c == "'":
            cur.append(c)
        elif cur:
            words.append("".join(cur).lower())
            cur = []
    if cur:
        words.append("".join(cur).lower())
    if (
        a_name_not_a_verb(original)
        or names_harmless_variables(original)
        or (len(words) > 1 and another_verbs_object(words))
    ):
        return False
    # `Display the current environment variables`: a command shows state.
    if words and words[0] in ("display", "show") and "current" in words:
        return False
    # `upload methods which send passwords`: the secret is a relative
    # clause's object.
    for i in range(1, len(words) - 1):
        if words[i] in ("which", "that", "who") and any(
            words[i + 1] in (verb, verb + "s", verb + "es") for verb in _SEND_VERBS + _SHOW_VERBS
        ):
            return False
    # One bare singular noun names a kind (`Send password, response …`,
    # `[Share password]`); in capitals it is a placeholder (`print SECRET`).
    if len(words) == 2 and words[1] in ("password", "secret", "cookie"):
        bare_noun = _alphanumeric_words(original)[-1]
        if any(c.islower() for c in bare_noun):
            return False
    # `Show error if entered passwords do not match`: a clause opener between
    # the verb and the secret.
    if len(words) > 2 and any(word in _CLAUSE_OPENERS for word in words[1:-1]):
        return False
    # A particle of the verb (`dump out a usable private key string`).
    obj = 2 if len(words) > 1 and words[1] in ("out", "back", "up", "over") else 1
    if len(words) > obj and words[obj] in ("a", "an"):
        return any(word in _PARTICULAR for word in words[obj + 1:])
    # A verb that is a noun (`an email with …`), or half of a toggle
    # (`Reveal or hide the password`).
    if len(words) > obj and words[obj] in ("with", "hide", "mask", "address", "addresses"):
        return False
    # A verb right after it makes it a noun (`The output consists of …`).
    if len(words) > obj and words[obj] in (
        "consists", "contains", "includes", "lists", "shows", "is", "are", "was", "has",
    ):
        return False
    if len(words) > obj + 1 and words[obj] == "or" and words[obj + 1] in (
        "hide", "mask", "receive", "store", "verify",
    ):
        return False
    # `to send and receive credentials`: both ends of a protocol.
    if len(words) > obj + 1 and words[obj] == "and" and words[obj + 1] in ("receive", "store", "verify"):
        return False
    return True


def _alphanumeric_words(text, keep=""):
    """`text.split(|c| !c.is_alphanumeric())` without the empty pieces (and
    `keep`'s characters kept in words)."""
    words, cur = [], []
    for c in text:
        if is_alphanumeric(c) or c in keep:
            cur.append(c)
        elif cur:
            words.append("".join(cur))
            cur = []
    if cur:
        words.append("".join(cur))
    return words


def _verb_end(original):
    """Where the first character that is not alphanumeric stands."""
    for at, c in enumerate(original):
        if not is_alphanumeric(c):
            return at
    return len(original)


_SECRET_PARTS = frozenset(
    "KEY KEYS TOKEN TOKENS SECRET SECRETS PASS PASSWORD PASSWD PWD CREDENTIALS CREDS AUTH SESSION "
    "COOKIE COOKIES PRIVATE".split()
)


def _a_secrets_name(name):
    return any(
        part in _SECRET_PARTS or part.endswith(("KEY", "TOKEN", "SECRET", "PASSWORD"))
        for part in name.split("_")
    )


def names_harmless_variables(original):
    """rules::names_harmless_variables: `Print value of SRC environment variable`."""
    at = _ascii_lower(original).rfind("environment")
    if at < 0:
        return False
    seen, in_tag = [], False
    for c in original[:at]:
        if c == "<":
            in_tag = True
        elif c == ">" and in_tag:
            in_tag = False
        elif c in "`*" and not in_tag:
            pass
        elif not in_tag:
            seen.append(c)
    names = 0
    for word in reversed(_words("".join(seen))):
        word = word.strip(",")
        if word in ("and", "or", ""):
            continue
        a_name = (
            len(word) > 1
            and any("A" <= c <= "Z" for c in word)
            and all("A" <= c <= "Z" or "0" <= c <= "9" or c == "_" for c in word)
        )
        if not a_name:
            break
        if _a_secrets_name(word):
            return False
        names += 1
    return names > 0


def a_leak_not_a_name(original):
    return not a_name_not_a_verb(original) and not names_harmless_variables(original)


def not_clear_text(original):
    """rules::not_clear_text: `added as clear text before the PEM …`."""
    words = [w.lower() for w in _alphanumeric_words(original)]
    return not (len(words) > 1 and words[0] == "clear" and words[1] in ("text", "content"))


def a_name_not_a_verb(original):
    """rules::a_name_not_a_verb: `` `EMAIL` ``, `<code>EMAIL</code>`, `name/email`."""
    rest = original[_verb_end(original):]
    return (
        rest.startswith(("</code>", "</span></code>", "</tt>", "</kbd>", "</samp>", "</var>"))
        or rest.startswith("`")
        or (rest.startswith("/") and len(rest) > 1 and is_alphabetic(rest[1]))
    )


# rules::another_verbs_object
_GERUND_ADJECTIVES = frozenset(
    (
        "existing remaining incoming outgoing following matching corresponding pending "
        "missing resulting underlying preceding upcoming ongoing working signing staging "
        "banking hosting streaming messaging billing testing including containing during"
    ).split()
)
_GERUND_PREPOSITIONS = frozenset("by for without when while after before on in of from".split())


def another_verbs_object(words):
    """rules::another_verbs_object: `include storing hashed passwords`,
    `by setting the environment variable`, `include them in the …`."""
    gap = words[1:-1]
    gerund = any(
        sum(_utf8_len(c) for c in word) > 4
        and word.endswith("ing")
        and not word.endswith("thing")
        and word not in _GERUND_ADJECTIVES
        and (at == 0 or gap[at - 1] in _GERUND_PREPOSITIONS)
        for at, word in enumerate(gap)
    )
    placed = (
        len(gap) > 1
        and gap[0] in ("it", "them", "this", "these", "those")
        and gap[1] in ("in", "into", "as", "under")
    )
    # `print certificate and import password`: a second verb takes the secret.
    joined = any(
        gap[at] in ("and", "or") and gap[at + 1] in _SECOND_VERBS for at in range(len(gap) - 1)
    )
    return gerund or placed or joined


# rules::SECOND_VERBS
_SECOND_VERBS = frozenset(
    (
        "import export generate set change reset enter check verify validate store save load "
        "read update create delete remove rotate revoke hash encrypt decrypt receive accept "
        "manage configure"
    ).split()
)


def a_header_by_its_form(original):
    """rules::a_header_by_its_form: marked off, in capitals, or capitalised
    alone on its line."""
    head = _trim_start(original)
    marked = any(c in "#>[(<{|=:])}" for c in head)
    alone_on_its_line = not (original and original[-1] in _WHITESPACE and original[-1] != "\n")
    letters = [c for c in head if is_alphabetic(c)]
    capitalised = bool(letters) and letters[0].isupper()
    capitals = all(c.isupper() for c in letters)
    return marked or capitals or (alone_on_its_line and capitalised)


def not_a_placeholder(after):
    """rules::not_a_placeholder: `goes to <developer>.`, `<system>:0.0`."""
    address = after.startswith(":") and len(after) > 1 and "0" <= after[1] <= "9"
    # `dimensionless_unit<System>::type`: a C++ template's argument.
    template = after.startswith("::") or (after.startswith(" ") and after.lstrip(" ").startswith(">"))
    return not (after.startswith((".", ",", ";", ")")) or address or template)


def opens_with_a_capital(original):
    """rules::opens_with_a_capital: `Hello assistant\nAct as …`."""
    for c in original:
        if is_alphabetic(c):
            return c.isupper()
    return False


def not_a_turn_nor_a_wrapped_line(before):
    return not_a_transcript_turn(before) and not_a_wrapped_line(before)


_PARAMETER_TYPES = frozenset(
    "bool boolean int integer str string float number list dict tuple set callable function "
    "object array iterable sequence mapping none optional".split()
)


def not_a_parameters_type(after):
    """rules::not_a_parameters_type: `human : bool, optional`."""
    rest = after.lstrip(" \n")
    word = _leading_ascii_lower(rest)
    rest = rest[len(word):].lstrip(" ")
    return not (word in _PARAMETER_TYPES and (rest == "" or rest.startswith((",", "\n", "|"))))


_DEFAULT_SETTINGS = ("policy", "policies", "filter", "filters", "protocol", "protocols", "context")


def not_a_config_value(before):
    """rules::not_a_config_value: `HOMEHOST <system>`, a setting's value."""
    line = before[-200:].rsplit("\n", 1)[-1]
    words = _words(line)
    return not (
        len(words) == 1
        and line.endswith(" ")
        and len(words[0]) > 2
        and all("a" <= c <= "z" for c in words[0])
    )


def not_a_default_setting(original):
    """rules::not_a_default_setting: `override the default policy`."""
    words = [word.lower() for word in _alphanumeric_words(original)]
    configures = (
        len(words) > 2
        and words[0].startswith(("overrid", "overwrit"))
        and words[1] == "the"
        and words[2] == "default"
        and words[-1] in _DEFAULT_SETTINGS
    )
    return not configures


def not_a_code_default(original):
    """rules::not_a_code_default: `filters=None` in a Python signature."""
    value_start = 0
    for at in range(len(original) - 1, -1, -1):
        if not is_alphanumeric(original[at]):
            value_start = at + 1
            break
    return original[value_start:] not in ("None", "False")


# rules::not_a_count_of_them
_GAINS = frozenset(
    "adds added introduces introduced includes contains has have supports gains".split()
)
_COUNTS = frozenset("two three four five six seven eight nine ten several many some more".split())


def not_a_count_of_them(before):
    """rules::not_a_count_of_them: `Adds five new instructions:`."""
    words = _words(before[-40:])[::-1]
    count = bool(words) and (
        all("0" <= c <= "9" for c in words[0]) or words[0] in _COUNTS
    )
    return not (count and len(words) > 1 and words[1] in _GAINS)


def not_a_glued_name(original):
    """rules::not_a_glued_name: `the rewrite rule newrule:`."""
    name_len = 0
    while name_len < len(original) and "a" <= original[name_len] <= "z":
        name_len += 1
    # What follows the name: the colon, and markup the name sits in.
    rest = original[name_len:]
    while rest.startswith("<") and ">" in rest[1:]:
        rest = rest[rest.index(">", 1) + 1:]
    rest = _trim_start(rest).lstrip(":")
    return not (name_len > 3 and _trim_start(rest) == "")


# rules::names_a_named_secret
_GENERAL_DETERMINERS = frozenset(
    "the a an this that each every its their some any which whose".split()
)


def names_a_named_secret(original):
    """rules::names_a_named_secret: `the value of the token`."""
    words = [word.lower() for word in _alphanumeric_words(original)]
    return not (
        len(words) == 4
        and words[0] in ("value", "contents")
        and words[1] == "of"
        and words[2] in _GENERAL_DETERMINERS
    )


def not_before_an_ing_word(after):
    """rules::not_before_an_ing_word: `the command processing`, `the text before pasting`."""
    word = _leading_ascii_lower(after.lstrip(" \n"))
    return not (len(word) > 4 and word.endswith("ing"))


_SETUPS = (
    "if you use",
    "if you are using",
    "if you're using",
    "if you have",
    "if you run",
    "if you installed",
    "si vous",
    "si tu ",
    "si usted",
    "si usas",
    "si utilizas",
    "si tienes",
    "wenn sie",
    "wenn du",
    "falls sie",
    "falls du",
    "se você",
    "se voce",
    "se usi",
    "se utilizzi",
    "se hai",
    "kalau pakai",
    "kalau menggunakan",
    "jika anda menggunakan",
    "jika menggunakan",
    "如果您",
    "如果你",
)
_MODELS = (" ai", " ia", " ki", "assistant", "model", "llm", "bot", "agent")


_REPORTS = (
    "the model to",
    "a model to",
    "al modelo que",
    "al modelo a",
    "au modèle de",
    "au modèle d'",
    "das modell,",
    "dem modell,",
    "ao modelo que",
    "al modello di",
    "просят модель",
    "заставить модель",
    "заставляют модель",
    "让模型",
    "讓模型",
    "要求模型",
    "诱导模型",
    "试图让",
    "企图让",
    "诱使",
    "モデルに",
    "모델에게",
    "मॉडल से",
    "من النموذج",
)


def not_a_setup_or_report(before):
    sentence = re.split(r"[.!?\n]", before)[-1]
    sentence = _trim_start(sentence)
    for_a_setup = any(
        sentence.startswith(fold_literal(setup)) for setup in _SETUPS
    ) and not any(model in sentence for model in _MODELS)
    return not for_a_setup and not any(
        fold_literal(report) in sentence for report in _REPORTS
    )


_USER_SPEAKERS = ("user", "customer", "human", "client", "visitor", "guest", "me")


def _after_speaker(line):
    line = line.lstrip(" >")
    for speaker in _USER_SPEAKERS:
        if line.startswith(speaker):
            return line[len(speaker):].lstrip(" ")
    return None


def _is_user_turn(line):
    rest = _after_speaker(line)
    return rest is not None and rest.startswith(":")


def not_a_transcript_turn(before):
    recent = before[-2000:]
    current = recent.rsplit("\n", 1)[-1]
    # A match may open on the speaker's own colon (`User: act as ...`).
    on_the_colon = _after_speaker(current) == ""
    if not (current.strip(" ") == "" or _is_user_turn(current) or on_the_colon):
        return True
    return not (on_the_colon or any(_is_user_turn(line) for line in recent.split("\n")))


_PROGRAM_PARTS = frozenset("""
    proxy reverse server client gateway bridge relay cache load router firewall wrapper drop
    replacement middleware adapter backend frontend mirror daemon service plugin library tunnel
    forwarder resolver registry broker sink buffer queue placeholder fallback shim facade
    container hub node peer replica leader follower controller switch dns http https tcp udp
    socks vpn web database backup default sidecar primary secondary substitute catalyst stand
    template single thin transparent local remote central simple lightweight
""".split())


def not_a_program_part(after):
    word = re.match(r"[a-z]*", after.lstrip(" ")).group(0)
    return word not in _PROGRAM_PARTS


def a_part_for_the_reader(after):
    return not_a_task_for_the_user(after) and not_a_program_part(after)


def not_after_a_quote(before):
    return not before.endswith(("'", '"'))


def not_before_a_quote(after):
    return not after.startswith(("'", '"'))


def not_plain_lowercase(original):
    return (
        any("A" <= c <= "Z" for c in original)
        or not original.isascii()
        or "&" in original
    )


# rules::not_owned_nor_a_turn's words that pick one out, and that call one.
_PICKED = frozenset(
    "one particular its their his her some same other specific given individual single".split()
)
_CALLING = frozenset("for to dear hey hi hello attention note attn".split())
_CONDITION_OPENERS = frozenset(
    "if when whenever unless while since because although once".split()
)


def not_owned_nor_a_turn(before):
    trimmed = before.rstrip(" ")
    for owner in ("your", "my", "our"):
        if trimmed.endswith(owner):
            rest = trimmed[: len(trimmed) - len(owner)]
            if not rest or not (is_alphanumeric(rest[-1]) or rest[-1] == "_"):
                return False
    # `for one particular model, list it`, `applications' models, call …`:
    # a role word after a word that picks one out or a possessive; an
    # article after anything but the words that call (`for the assistant:`).
    words = _words(trimmed[-64:])
    last = words[-1] if words else None
    called = words[-2] if len(words) > 1 else None
    article = last in ("the", "a", "an") and called not in _CALLING
    possessive = False
    if last is not None and last.endswith(("s'", "'s")):
        letters = last.rstrip("'s")
        possessive = letters != "" and all("a" <= c <= "z" for c in letters)
    picked = (article or possessive or last in _PICKED) and (
        is_alphanumeric(trimmed[-1]) or trimmed[-1] == "'"
    )
    if picked:
        return False
    # `If you override … in a custom user model, you must …`: a role word
    # closing a condition; `If you are an AI model, …` names the reader.
    sentence = _after_last(before[-200:], ".!?;")
    if any(word in _CONDITION_OPENERS for word in _words(sentence)) and not any(
        reader in sentence for reader in ("you are", "you're", "youre")
    ):
        return False
    # `import { Agent, request } from 'node:https'`: a name in a list of imports.
    line = before[-200:].rsplit("\n", 1)[-1]
    if "import {" in line or "import{" in line:
        return False
    if _in_a_purpose_clause(before):
        return False
    return not_a_transcript_turn(before) and not_a_changelog_entry(before)


def _in_a_purpose_clause(before):
    """rules::in_a_purpose_clause: `To view information about a specific iOS model, run …`."""
    sentence = _after_last(before[-200:], ".!?;:\n")
    words = _words(sentence)
    return (
        "," not in sentence
        and len(words) > 1
        and words[0] == "to"
        and all("a" <= c <= "z" for c in words[1])
        and words[1] not in (
            "the", "a", "an", "any", "all", "every", "each", "my", "our", "your", "whoever",
            "whom", "you",
        )
    )


def not_a_changelog_entry(before):
    """rules::not_a_changelog_entry: `(name_match): Ignore …`, or a line
    under a `20211114 Name <address>` header."""
    line = before[-200:].rsplit("\n", 1)[-1]
    head = _trim_end(line)
    # A label may follow the function (`(gethttp) <auth>: Only send …`).
    if head.endswith(" only"):
        head = head[: -len(" only")]
    head = _trim_end(head[:-1]) if head.endswith(":") else ""
    if head.endswith(">"):
        labelled = head[:-1]
        head = _trim_end(labelled.rsplit("<", 1)[0]) if "<" in labelled else _trim_end(labelled)
    if head.endswith(")") and "(" in head[:-1]:
        name = head[:-1].rsplit("(", 1)[1]
        if any(_ascii_alpha(c) for c in name) and " " not in name and ":" not in name:
            return False
    # `* debian/at-spi2-core.maintscript: Drop old rule for …`, `ci/lib: if
    # …, show the environment variables`: an entry opening with a file.
    opening = _trim_start(line)
    if _names_a_file(_trim_start(head)) or (
        ": " in opening and _names_a_file(opening.split(": ", 1)[0])
    ):
        return False
    if _trim_start(line) != "":
        return True
    for header in before[-1200:].split("\n"):
        header = _trim_end(_trim_start(header))
        if (
            len(header) > 9
            and all("0" <= c <= "9" for c in header[:8])
            and header[8] == " "
            and "<" in header
            and header.endswith(">")
        ):
            return False
    # Entries that open with the part they change (`* gpgsm: Avoid …`): one
    # of the six non-blank lines before opens with a name, `: ` and an entry verb.
    lines = [_trim_end(_trim_start(line)) for line in before[-600:].split("\n")[:-1]]
    for line in [line for line in reversed(lines) if line][:6]:
        if ": " not in line:
            continue
        part, entry = line.split(": ", 1)
        if (
            1 <= len(part.encode()) <= 40
            and all("a" <= c <= "z" or "0" <= c <= "9" or c in "._/-" for c in part)
            and _next_word(entry) in _ENTRY_VERBS
        ):
            return False
    return True


def _next_word(after):
    """rules::next_word."""
    rest = after.lstrip(" \n")
    k = 0
    while k < len(rest) and "a" <= rest[k] <= "z":
        k += 1
    return rest[:k]


def _names_a_file(part):
    """rules::names_a_file: `debian/at-spi2-core.maintscript`, `ci/lib`."""
    return (
        part != ""
        and all("a" <= c <= "z" or "0" <= c <= "9" or c in "._/-+" for c in part)
        and ("/" in part or "." in part.rstrip("."))
    )


def neither_a_count_nor_a_changelog_entry(before):
    return not_a_count_of_them(before) and not_a_changelog_entry(before)


def neither_a_changelog_entry_nor_a_purpose(before):
    return not_a_changelog_entry(before) and not_a_purpose(before)


def not_owned_a_turn_nor_a_changelog_entry(before):
    return not_owned_nor_a_turn(before) and not_a_changelog_entry(before)


def neither_a_conditions_nor_an_entrys_object(before):
    return not_a_conditions_object(before) and not_after_an_entry_verb(before)


def not_a_statement_nor_a_state(before):
    """rules::not_a_statement_nor_a_state: `if in unaligned mode enabled`."""
    return not_a_statement(before) and _last_word(before) != "in"


def names_an_email_address(original):
    return "@" in original or "\uff20" in original


def has_capital_head(original):
    return any(head in original for head in ("SYSTEM", "DEVELOPER", "ADMIN"))


_CHECKS = {
    "not_about_page_parts": not_about_page_parts,
    "not_about_a_document": not_about_a_document,
    "not_followed_by_word": not_followed_by_word,
    "not_an_identifier": not_an_identifier,
    "not_negated": not_negated,
    "names_a_leak": names_a_leak,
    "not_reported": not_reported,
    "not_asked_of_a_model": not_asked_of_a_model,
    "not_a_conditions_object": not_a_conditions_object,
    "not_a_peoples_agent": not_a_peoples_agent,
    "not_a_docstrings_summary": not_a_docstrings_summary,
    "neither_reported_nor_a_docstrings_summary": neither_reported_nor_a_docstrings_summary,
    "neither_a_conditions_object_nor_a_turn": neither_a_conditions_object_nor_a_turn,
    "not_a_labelled_example": not_a_labelled_example,
    "not_a_condition": not_a_condition,
    "not_a_wrapped_line": not_a_wrapped_line,
    "a_leak_not_a_name": a_leak_not_a_name,
    "not_a_turn_nor_a_wrapped_line": not_a_turn_nor_a_wrapped_line,
    "not_a_parameters_type": not_a_parameters_type,
    "opens_with_a_capital": opens_with_a_capital,
    "not_a_list_nor_a_clause": not_a_list_nor_a_clause,
    "not_clear_text": not_clear_text,
    "an_override_declared": an_override_declared,
    "an_order_to_leak": an_order_to_leak,
    "not_a_statement": not_a_statement,
    "an_unstated_leak": an_unstated_leak,
    "said_to_the_reader": said_to_the_reader,
    "names_a_particular_secret": names_a_particular_secret,
    "not_after_a_determiner": not_after_a_determiner,
    "not_as_the_only": not_as_the_only,
    "not_an_appositive": not_an_appositive,
    "not_a_setup_or_report": not_a_setup_or_report,
    "not_a_transcript_turn": not_a_transcript_turn,
    "not_after_a_quote": not_after_a_quote,
    "not_before_a_quote": not_before_a_quote,
    "not_plain_lowercase": not_plain_lowercase,
    "not_a_quoted_value": not_a_quoted_value,
    "an_order_not_a_setting": an_order_not_a_setting,
    "not_a_report_inside": not_a_report_inside,
    "a_part_for_the_reader": a_part_for_the_reader,
    "has_capital_head": has_capital_head,
    "not_owned_nor_a_turn": not_owned_nor_a_turn,
    "not_a_changelog_item": not_a_changelog_item,
    "names_an_email_address": names_an_email_address,
    "a_header_by_its_form": a_header_by_its_form,
    "not_a_placeholder": not_a_placeholder,
    "not_a_default_setting": not_a_default_setting,
    "not_a_code_default": not_a_code_default,
    "names_a_named_secret": names_a_named_secret,
    "not_before_an_ing_word": not_before_an_ing_word,
    "not_a_count_of_them": not_a_count_of_them,
    "not_a_glued_name": not_a_glued_name,
    "not_a_changelog_entry": not_a_changelog_entry,
    "not_owned_a_turn_nor_a_changelog_entry": not_owned_a_turn_nor_a_changelog_entry,
    "neither_a_conditions_nor_an_entrys_object": neither_a_conditions_nor_an_entrys_object,
    "not_a_statement_nor_a_state": not_a_statement_nor_a_state,
    "neither_reported_nor_code": neither_reported_nor_code,
    "not_a_call": not_a_call,
    "neither_a_count_nor_a_changelog_entry": neither_a_count_nor_a_changelog_entry,
    "neither_a_changelog_entry_nor_a_purpose": neither_a_changelog_entry_nor_a_purpose,
    "not_a_section_of_roles": not_a_section_of_roles,
    "not_a_system_identity": not_a_system_identity,
    "not_a_programs_commands": not_a_programs_commands,
    "not_a_config_value": not_a_config_value,
}


class _Rule:
    __slots__ = (
        "label", "regex", "then", "follow", "precede", "original", "named_when_quoted",
        "told_to_people",
    )


def _load_rules():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strip_rules.json")
    with open(path, encoding="utf-8") as f:
        table = json.load(f)
    rules = []
    directive_seen = False
    people_regexes = {}
    for index, data in enumerate(table):
        rule = _Rule()
        rule.label = data["label"]
        rule.named_when_quoted = bool(data.get("named_when_quoted"))
        people = data.get("told_to_people")
        if people and people not in people_regexes:
            people_regexes[people] = re.compile(_translate(people), re.ASCII)
        rule.told_to_people = people_regexes[people] if people else None
        try:
            rule.regex = re.compile(_translate(data["pattern"]), re.ASCII)
            then = data.get("then")
            rule.then = re.compile(_translate(then), re.ASCII) if then else None
        except re.error as error:
            raise RuntimeError(
                f"strip_rules.json rule {index} ({rule.label}) does not compile "
                f"in Python: {error}"
            ) from error
        if data.get("then") and _DIRECTIVE_SOURCE in data["then"]:
            directive_seen = True
        for slot in ("follow", "precede", "original"):
            name = data.get(slot)
            if name is not None and name not in _CHECKS:
                raise RuntimeError(
                    f"strip_rules.json rule {index} ({rule.label}) names the check "
                    f"{name!r}, which web_port.py does not implement"
                )
            setattr(rule, slot, _CHECKS[name] if name is not None else None)
        rules.append(rule)
    if not directive_seen:
        raise RuntimeError(
            "web_port.py's copy of rules.rs's DIRECTIVE appears in no `then` "
            "pattern of strip_rules.json: update the copy"
        )
    return rules


RULES = _load_rules()


def _find_iter(regex, text):
    """Rust regex's find_iter: an empty match at the end of the previous
    match is skipped by moving one character on."""
    pos = 0
    last_end = -1
    n = len(text)
    while pos <= n:
        m = regex.search(text, pos)
        if m is None:
            return
        start, end = m.span()
        if start == end and end == last_end:
            pos = end + 1
            continue
        yield start, end
        last_end = end
        pos = end


def _told_to_people(people, before):
    """rules::told_to_people: the line before the match is a short start of
    one sentence that names the people an override is given to."""
    recent = before[-61:]
    if "\n" in recent:
        line = recent.rsplit("\n", 1)[-1]
    elif len(recent) == len(before):
        line = recent
    else:
        return False
    return (
        len(line) <= 60
        and not any(stop in line for stop in ".!?\u3002\uff01\uff1f")
        and people.search(line) is not None
    )


# A rule's `named_when_quoted` (rules.rs's MENTIONED_IN_QUOTES): an
# override phrase quoted whole is named, not given.
_QUOTE_PAIRS = (('"', '"'), ("\u201c", "\u201d"), ("\u201e", "\u201c"), ("'", "'"), ("\u00ab", "\u00bb"))


def _quoted_whole(before, after):
    """strip::quoted_whole."""
    if not before:
        return False
    opening = before[-1]
    if before[:-1].rstrip(" ").endswith((":", "=")):
        return False
    rest = 0
    while rest < len(after) and is_alphanumeric(after[rest]):
        rest += 1
    after = after[rest:].lstrip(".?!,")
    return any(opening == o and after.startswith(c) for o, c in _QUOTE_PAIRS)


_EXAMPLE_INTRODUCERS = (
    "such as", "along the lines of", "e.g.", "e.g.,", "for example", "for example,",
    "for instance", "for instance,", "something like", "phrases like", "sentences like",
    "strings like", "text like", "cases like", "inputs like", "prompts like", "messages like",
    "requests like", "commands like", "lines like", "payloads like", "attacks like",
    "examples like", "queries like", "comments like", "tricks like", "things like", "words like",
)


def _quoted_as_an_example(before):
    """strip::quoted_as_an_example, with the examples chained after it."""
    for _ in range(8):
        if not before or not any(before[-1] == o for o, _ in _QUOTE_PAIRS):
            return False
        outside = before[:-1].rstrip(" ")
        for introducer in _EXAMPLE_INTRODUCERS:
            if outside.endswith(introducer):
                rest = outside[: len(outside) - len(introducer)]
                if not rest or not is_alphanumeric(rest[-1]):
                    return True
        joined = None
        for joint in ("or", "and", ","):
            if outside.endswith(joint):
                joined = outside[: len(outside) - len(joint)].rstrip(" ")
                break
        if joined is None:
            return False
        pair = next(
            ((o, joined[: len(joined) - len(c)]) for o, c in _QUOTE_PAIRS if joined.endswith(c)),
            None,
        )
        if pair is None:
            return False
        opening, inside = pair
        at = inside.rfind(opening, max(0, len(inside) - 200))
        if at < 0:
            return False
        before = inside[: at + 1]
    return False


def _a_template_with_a_slot(before, after):
    """strip::a_template_with_a_slot."""
    line = before[-120:].split("\n")[-1]
    if '"' not in line and "\u201c" not in line:
        return False
    rest = re.split("[\n\"\u201d]", after[:120])[0]
    for at, c in enumerate(rest):
        if c != "{" or not rest[:at].endswith(" "):
            continue
        name, closed, _ = rest[at + 1:].partition("}")
        if closed and name and all(ch.isascii() and ch.isalnum() for ch in name):
            return True
    return False


def _suffix_within(text, most):
    """The longest suffix of `text` of at most `most` UTF-8 bytes (a byte
    window of the reference's ends on whole characters for an ASCII search)."""
    k, total = len(text), 0
    while k > 0 and total + _utf8_len(text[k - 1]) <= most:
        total += _utf8_len(text[k - 1])
        k -= 1
    return k


def _prefix_within(text, most):
    k, total = 0, 0
    while k < len(text) and total + _utf8_len(text[k]) <= most:
        total += _utf8_len(text[k])
        k += 1
    return k


_BLANKS = " \t\n\r\x0c"


def _listed_as_data(before, after):
    """strip::listed_as_data."""
    for quote in ('"', "'"):
        start = _suffix_within(before, 16)
        cut = max(before.rfind(quote, start), before.rfind("\n", start))
        if cut < 0 or before[cut] != quote:
            continue
        open_at = cut
        end = _prefix_within(after, 25)
        window = after[:end]
        hits = [at for at in (window.find(quote), window.find("\n")) if at >= 0]
        if not hits or window[min(hits)] != quote:
            continue
        close_at = min(hits)
        tail = after[close_at + 1:].lstrip(_BLANKS)
        if tail and tail[0] not in ",])":
            continue
        next_is_a_literal = tail.startswith(",") and tail[1:].lstrip(_BLANKS).startswith(quote)
        earlier = _literals_back_to_an_opener(before[:open_at], quote)
        if earlier is not None and (earlier > 0 or next_is_a_literal):
            return True
    return False


def _literals_back_to_an_opener(outside, quote):
    """strip::literals_back_to_an_opener."""
    for earlier in range(64):
        outside = outside.rstrip(_BLANKS)
        if outside.endswith(("[", "(")):
            return earlier
        if not outside.endswith(","):
            return None
        literal = outside[:-1].rstrip(_BLANKS)
        if not literal.endswith(quote):
            return None
        inner = literal[:-1]
        start = _suffix_within(inner, 256)
        cut = max(inner.rfind(quote, start), inner.rfind("\n", start))
        if cut < 0 or inner[cut] != quote:
            return None
        outside = inner[:cut]
    return None


def _matches(view, original):
    """(start, end, rule index) of every rule's match on the view."""
    text = view.text
    found = []
    for index, rule in enumerate(RULES):
        for start, end in _find_iter(rule.regex, text):
            if start == end:
                continue
            if rule.then is not None and rule.then.match(text[end:]) is None:
                continue
            if rule.follow is not None and not rule.follow(text[end:]):
                continue
            if rule.precede is not None and not rule.precede(text[:start]):
                continue
            if rule.original is not None:
                lo, hi = view.original_range(start, end)
                if not rule.original(original[lo:hi]):
                    continue
            if rule.told_to_people is not None and _told_to_people(
                rule.told_to_people, text[:start]
            ):
                continue
            named_start, named_end = _trim_blanks(text, start, end)
            before, after = text[:named_start], text[named_end:]
            if rule.named_when_quoted and _quoted_whole(before, after):
                continue
            if (
                _quoted_as_an_example(before)
                or _listed_as_data(before, after)
                or _a_template_with_a_slot(before, after)
            ):
                continue
            found.append((start, end, index))
    return found


# ---------------------------------------------------------------------------
# Carriers (core/src/web/strip/carriers.rs)

(
    _COMMENT, _HIDDEN_ELEMENT, _ATTRIBUTE, _ENCODED, _TAG_CHARACTERS, _SCREEN_READER,
    _MODEL_ATTRIBUTE,
) = range(7)

_OPENING_TAG = re.compile(
    "<[A-Za-z][A-Za-z0-9]{0,15}(?:[" + _WS_CLASS + "](?:[^<>\"']|\"[^<\"]*\"|'[^<']*'){0,2048})?>"
)
_HIDING = re.compile(
    (
        r"(?:^|[{ws}\"'])hidden(?:[{ws}\"'=/]|\Z)"
        r"|(?:^|[{ws}\"'])(?:hide|invisible)(?:[{ws}\"']|\Z)"
        r"|aria-hidden[{ws}]*=[{ws}]*[\"']?[{ws}]*true"
        r"|display[{ws}]*:[{ws}]*none"
        r"|visibility[{ws}]*:[{ws}]*(?:hidden|collapse)"
        r"|font-size[{ws}]*:[{ws}]*0*(?:\.0+)?(?:px|pt|em|rem|%)?[{ws}]*(?:[;\"'!]|\Z)"
        r"|opacity[{ws}]*:[{ws}]*0*(?:\.0+)?[{ws}]*(?:[;\"'!]|\Z)"
        r"|(?:^|[;{ws}\"'])color[{ws}]*:[{ws}]*(?:white|#fff(?:fff)?\b|transparent|rgba?\([{ws}]*255[{ws}]*,[{ws}]*255[{ws}]*,[{ws}]*255)"
        r"|(?:max-)?(?:height|width)[{ws}]*:[{ws}]*0(?:px)?[{ws}]*(?:[;\"'!]|\Z)"
        r"|(?:left|top|text-indent)[{ws}]*:[{ws}]*-\d{{3,}}"
    ).format(ws=_WS_CLASS),
    re.IGNORECASE,
)
_SCREEN_READER = re.compile(
    r"(?:^|[{ws}\"'])(?:sr-only|visually-hidden|screen-reader-text)(?:[{ws}\"']|\Z)".format(
        ws=_WS_CLASS
    ),
    re.IGNORECASE,
)
_PROSE_ATTRIBUTE = re.compile(
    (
        r"(?:^|[{ws}])(?:alt|title|content|aria-label|aria-description|placeholder"
        r"|value|label|summary|data-[a-z0-9-]{{1,32}})[{ws}]*=[{ws}]*(?:\"[^\"]*\"|'[^']*')"
    ).format(ws=_WS_CLASS),
    re.IGNORECASE,
)
# carriers::MODEL_META_NAME and MODEL_ATTRIBUTE_NAME: names that say a
# value is for a model.
_MODEL_IN_A_NAME = "(?:ai|llm|gpt|agent|assistant|chatbot|bot|model)s?"
_MODEL_META_NAME = re.compile(
    (
        r"(?:^|[{ws}])(?:name|property|itemprop)[{ws}]*=[{ws}]*[\"']?[a-z0-9:._-]{{0,30}}?"
        r"{model}[-_:.]?"
        r"(?:instructions?|directives?|notes?|guidance|rules|prompts?|context)(?:[\"'{ws}>]|$)"
    ).format(ws=_WS_CLASS, model=_MODEL_IN_A_NAME),
    re.IGNORECASE,
)
_MODEL_ATTRIBUTE_NAME = re.compile(
    (
        r"(?:^|[{ws}])data-{model}[-_]?"
        r"(?:instructions?|directives?|notes?|guidance|rules)[{ws}]*="
    ).format(ws=_WS_CLASS, model=_MODEL_IN_A_NAME),
    re.IGNORECASE,
)
# Python's case-insensitive matching takes the dotted and dotless i for
# `i`; Rust's simple case folding does not. They are letters without case
# for these patterns, as U+01C2 is.
_NO_TURKIC_I = str.maketrans({"\u0130": "\u01c2", "\u0131": "\u01c2"})
_VOID_ELEMENTS = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)
_ENCODED_RUN = re.compile(r"[A-Za-z0-9+/_-]{24,}={0,2}")
_MAX_ENCODED_RUN = 64 * 1024


def _comments(text):
    found = []
    at = 0
    while True:
        start = text.find("<!--", at)
        if start < 0:
            return found
        inner_start = start + 4
        close = text.find("-->", inner_start)
        if close < 0:
            inner_end = end = len(text)
        else:
            inner_end, end = close, close + 3
        found.append((_COMMENT, start, end, inner_start, inner_end))
        at = end


def _opening_tags(text):
    tags = []
    for m in _OPENING_TAG.finditer(text):
        start, end = m.span()
        j = start + 1
        while j < end and _ascii_alnum(text[j]):
            j += 1
        tags.append((start, end, _ascii_lower(text[start + 1:j]), j, end - 1))
    return tags


def _closing_tag(text, start_at, name):
    depth = 0
    at = start_at
    n = len(text)
    while True:
        start = text.find("<", at)
        if start < 0:
            return n, n
        closing = text.startswith("/", start + 1)
        name_start = start + 1 + (1 if closing else 0)
        name_end = name_start + len(name)
        candidate = text[name_start:name_end]
        same_name = (
            len(candidate) == len(name)
            and _ascii_lower(candidate) == name
            and (name_end >= n or not _ascii_alnum(text[name_end]))
        )
        if same_name:
            if closing:
                if depth == 0:
                    gt = text.find(">", name_end)
                    return start, (n if gt < 0 else gt + 1)
                depth -= 1
            else:
                depth += 1
        at = start + 1


# carriers::INTERACTION_HANDLERS: handlers of what a reader does hide
# nothing until the reader acts (`onMouseOut="….visibility = 'hidden'"`).
_INTERACTION_HANDLERS = re.compile(
    r"(?:^|[{ws}\"'])(?ai:on(?:mouse|pointer|touch|key|drag|focus|click|dblclick|blur|contextmenu)[a-z]*)"
    r"[{ws}]*=[{ws}]*(?:\"[^\"]*\"|'[^']*'|[^{ws}>\"']*)".format(ws=_WS_CLASS)
)


def _hidden_elements(text, tags):
    found = []
    for start, end, name, attr_start, attr_end in tags:
        if found and start < found[-1][2]:
            continue
        attributes = text[attr_start:attr_end]
        folded = _INTERACTION_HANDLERS.sub(" ", attributes).translate(_NO_TURKIC_I)
        hidden = name == "template" or _HIDING.search(folded) is not None
        screen_reader = not hidden and _SCREEN_READER.search(folded) is not None
        if (
            not (hidden or screen_reader)
            or name in _VOID_ELEMENTS
            or _trim_end(attributes).endswith("/")
        ):
            continue
        inner_end, close_end = _closing_tag(text, end, name)
        # Screen-reader text holding an element hidden from everyone is
        # hidden text too.
        hidden = hidden or _HIDING.search(text[end:inner_end].translate(_NO_TURKIC_I)) is not None
        kind = _HIDDEN_ELEMENT if hidden else _SCREEN_READER
        found.append((kind, start, close_end, end, inner_end))
    return found


def _attribute_values(text, tags):
    found = []
    for _, _, name, attr_start, attr_end in tags:
        attributes = text[attr_start:attr_end]
        if "=" not in attributes:
            continue
        for_a_model = (
            name == "meta"
            and _MODEL_META_NAME.search(attributes.translate(_NO_TURKIC_I)) is not None
        )
        for m in _PROSE_ATTRIBUTE.finditer(attributes.translate(_NO_TURKIC_I)):
            matched = attributes[m.start():m.end()]
            quotes = [i for i in (matched.find('"'), matched.find("'")) if i >= 0]
            if not quotes:
                continue
            value_start = m.start() + min(quotes) + 1
            value_end = m.end() - 1
            if value_end <= value_start:
                continue
            lo, hi = attr_start + value_start, attr_start + value_end
            model = for_a_model or _MODEL_ATTRIBUTE_NAME.search(
                matched.translate(_NO_TURKIC_I)
            ) is not None
            found.append((_MODEL_ATTRIBUTE if model else _ATTRIBUTE, lo, hi, lo, hi))
    return found


def _encoded_runs(text):
    return [
        (_ENCODED, m.start(), m.end(), m.start(), m.end())
        for m in _ENCODED_RUN.finditer(text)
        if m.end() - m.start() <= _MAX_ENCODED_RUN
    ]


_B64_STANDARD = {c: i for i, c in enumerate(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_B64_URL_SAFE = {c: i for i, c in enumerate(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")}


def _base64_no_pad(text, alphabet):
    """The base64 crate's *_NO_PAD engines: no padding, no trailing bits."""
    values = []
    for c in text:
        v = alphabet.get(c)
        if v is None:
            return None
        values.append(v)
    if len(values) % 4 == 1:
        return None
    out = bytearray()
    full = len(values) - len(values) % 4
    for i in range(0, full, 4):
        n = (values[i] << 18) | (values[i + 1] << 12) | (values[i + 2] << 6) | values[i + 3]
        out += bytes(((n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF))
    rest = values[full:]
    if len(rest) == 2:
        if rest[1] & 0x0F:
            return None
        out.append(((rest[0] << 2) | (rest[1] >> 4)) & 0xFF)
    elif len(rest) == 3:
        if rest[2] & 0x03:
            return None
        n = (rest[0] << 12) | (rest[1] << 6) | rest[2]
        out += bytes(((n >> 10) & 0xFF, (n >> 2) & 0xFF))
    return bytes(out)


def _decode_run(run):
    if len(run) % 2 == 0 and all(c in _HEX for c in run):
        data = bytes.fromhex(run)
    else:
        unpadded = run.rstrip("=")
        alphabet = _B64_URL_SAFE if ("-" in unpadded or "_" in unpadded) else _B64_STANDARD
        data = _base64_no_pad(unpadded, alphabet)
        if data is None:
            return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(1 for c in text if not is_control(c) or c in _WHITESPACE)
    return text if printable * 10 >= len(text) * 9 else None


def _tag_character_runs(text):
    found = []
    run = None
    for at, c in enumerate(text):
        if 0xE0020 <= ord(c) <= 0xE007E:
            if run is None:
                run = [at, at + 1, 1]
            else:
                run[1] = at + 1
                run[2] += 1
            continue
        if run is not None:
            if run[2] >= 8:
                found.append((_TAG_CHARACTERS, run[0], run[1], run[0], run[1]))
            run = None
    if run is not None and run[2] >= 8:
        found.append((_TAG_CHARACTERS, run[0], run[1], run[0], run[1]))
    return found


def _rule_source(pattern):
    """rules::translate: a pattern as rules.rs writes it (`~` the word gap,
    `\\b` the ASCII boundary, other scripts folded like the page), in Rust
    regex syntax."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "~":
            out.append(r"[ \n./+]?")
        elif c == "\\" and pattern[i + 1:i + 2] == "b":
            out.append(r"(?-u:\b)")
            i += 1
        elif c == "\\":
            out.append(pattern[i:i + 2])
            i += 1
        elif c.isascii():
            out.append(c)
        else:
            out.append(re.escape(fold_literal(c)))
        i += 1
    return "".join(out)


# rules::HIDDEN_CUE.
_HIDDEN_CUE = re.compile(
    _translate(
        _rule_source(
            r"\b(?:you[ \n]?are[ \n]?now|you[ \n]?will[ \n]?now|from[ \n]?now[ \n]?on|ai|a\.i\.|assistants?|llms?|language[ \n]?models?|chatbots?|chatgpt|gpt|claude|gemini|copilot|in[ \n]?every[ \n]?(?:reply|answer|response)|whatever[ \n]?the[ \n]?question)\b|\bagents?[ ]?[:,]|\b(?:ki|ia|künstliche~intelligenz|sprachmodell|intelligence~artificielle|inteligencia~artificial|intelligenza~artificiale|inteligência~artificial|assistente|asistente|assistent(?:en|in)?|asystent(?:a|ka)?|asistan[ıi]?|asisten|asistent(?:e|ul)?|avustaja|asszisztens|kunstmatige~intelligentie|artificiell~intelligens|kunstig~intelligens|tekoäly|yapay~zek[aâ]|sztuczn[aeą]~inteligencj[aię]|umělá~inteligence|umjetna~inteligencija|veštačka~inteligencija|inteligență~artificială|mesterséges~intelligencia|kecerdasan~buatan|pembantu~ai|trí~tuệ~nhân~tạo|trợ~lý|akili~bandia|msaidizi|süni~intellekt)\b|ии~?(?:ассистент|агент|помощник|модел)|искусственн[^ \n]{0,4}~интеллект|нейросет|ассистент|ші~?(?:помічник|асистент|агент|модел)|штучн[^ \n]{0,4}~інтелект|асистент|изкуствен~интелект|вештачк[^ \n]{0,4}~интелигенциј|жасанды~интеллект|көмекші|τεχνητή~νοημοσύνη|βοηθ[όο]ς|בינה~מלאכותית|הבינה~המלאכותית|الذكاء~الاصطناعي|المساعد|هوش~مصنوعی|دستیار|مصنوعی~ذہانت|اے~آئی|एआई|एआय|कृत्रिम~बुद्धिमत्ता|सहायक|सहाय्यक|এআই|সহকারী|செயற்கை~நுண்ணறிவு|உதவியாளர்|కృత్రిమ~మేధ|సహాయకుడ|એઆઈ|ਏਆਈ|人工智能|人工智慧|智能助手|助手|助理|人工知能|アシスタント|エージェント|인공지능|어시스턴트|에이전트|ปัญญาประดิษฐ์|ผู้ช่วย|ረዳት"
        )
    ),
    re.ASCII,
)

_ATTRIBUTE_ORDER = re.compile(
    _translate(
        r"(?-u:\b)(?:must|should|shall|please|always|never|do[ \n]?not|don't|ignore|disregard|instead)(?-u:\b)"
    ),
    re.ASCII,
)

_SYSTEM_HEADS = frozenset(
    "prompt message instruction instructions override note directive command "
    "update alert notice says reminder mode role".split()
)


def _is_system_comment(view):
    rest = _trim_start(view)
    if not rest.startswith("system"):
        return False
    rest = rest[len("system"):].lstrip(" ")
    if not rest or rest[0] in ":\n>|])":
        return True
    return _leading_ascii_lower(rest) in _SYSTEM_HEADS or starts_with_directive(rest)


def _carrier_label(text, carrier):
    kind, _, _, inner_start, inner_end = carrier
    if kind == _TAG_CHARACTERS:
        return HIDDEN_TEXT
    inner = text[inner_start:inner_end]
    if kind == _MODEL_ATTRIBUTE:
        return HIDDEN_ATTRIBUTE if any(is_alphanumeric(c) for c in inner) else None
    if kind == _ENCODED:
        inner = _decode_run(inner)
        if inner is None:
            return None
    if kind == _COMMENT:
        # Comments do not nest: a "<!--" inside one is text, and read as an
        # opener it would hide the rest of the comment from the rules.
        # Blanked to the same length, so the view's origins still index it.
        inner = inner.replace("<!--", "    ")
    view = normalize(inner)
    if kind == _COMMENT and _is_system_comment(view.text):
        return SEED_COMMENT_SYSTEM
    carries_marker = any(
        RULES[index].label != PLANTED_MARKER for _, _, index in _matches(view, inner)
    )
    # Screen-reader text and attribute values have people for readers: only
    # a marker removes them.
    # An attribute that names the model and gives an order is one.
    if kind == _HIDDEN_ELEMENT:
        carries_cue = _HIDDEN_CUE.search(view.text) is not None
    elif kind == _ATTRIBUTE:
        carries_cue = (
            _HIDDEN_CUE.search(view.text) is not None
            and any(
                not (m.start() > 0 and any(view.text[m.start() - 1] == o for o, _ in _QUOTE_PAIRS))
                for m in _ATTRIBUTE_ORDER.finditer(view.text)
            )
        )
    else:
        carries_cue = False
    if not carries_marker and not carries_cue:
        return None
    return {
        _COMMENT: HIDDEN_COMMENT,
        _HIDDEN_ELEMENT: HIDDEN_ELEMENT,
        _SCREEN_READER: HIDDEN_ELEMENT,
        _ATTRIBUTE: HIDDEN_ATTRIBUTE,
        _ENCODED: ENCODED_PAYLOAD,
    }[kind]


# ---------------------------------------------------------------------------
# Strip (core/src/web/strip/mod.rs)

_MAX_PASSES = 8
_LAST = float("inf")


def _trim_blanks(view_text, start, end):
    while end - start > 1 and view_text[start] in " \n":
        start += 1
    while end - start > 1 and view_text[end - 1] in " \n":
        end -= 1
    return start, end


def _strip_pass(text, earlier):
    regions = []  # [start, end, label, priority]
    views = [normalize(text)]
    if "\u202e" in text:
        views.append(normalize_as_written(text))
    for view in views:
        for start, end, index in _matches(view, text):
            lo, hi = view.original_range(*_trim_blanks(view.text, start, end))
            regions.append((lo, hi, RULES[index].label, index))
    tokens = []
    at = text.find(STRIPPED)
    while at >= 0:
        tokens.append(at)
        at = text.find(STRIPPED, at + len(STRIPPED))
    for start in tokens:
        regions.append((start, start + len(STRIPPED), PLANTED_MARKER, _LAST))
    tags = _opening_tags(text)
    carriers = (
        _comments(text)
        + _hidden_elements(text, tags)
        + _attribute_values(text, tags)
        + _encoded_runs(text)
        + _tag_character_runs(text)
    )
    for carrier in carriers:
        label = _carrier_label(text, carrier)
        if label is not None:
            regions.append((carrier[1], carrier[2], label, 0))
    regions.sort(key=lambda r: (r[0], -r[1], r[3]))
    merged = []
    for start, end, label, _ in regions:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, label])
    token_index = {start: i for i, start in enumerate(tokens)}
    out = []
    copied = 0
    changed = False
    removed = []
    for start, end, label in merged:
        out.append(text[copied:start])
        out.append(STRIPPED)
        copied = end
        index = token_index.get(start)
        if index is not None and end - start == len(STRIPPED):
            label = earlier[index] if index < len(earlier) else PLANTED_MARKER
        else:
            changed = True
        removed.append(label)
    out.append(text[copied:])
    return "".join(out), removed, changed


def strip(text):
    current, removed, changed = _strip_pass(text, [])
    for _ in range(1, _MAX_PASSES):
        if not changed:
            return {"text": current, "removed_patterns": removed}
        current, removed, changed = _strip_pass(current, removed)
    if changed:
        # Still changing after the last pass: markers nested deeper than
        # the passes reach. The whole text goes, which is a fixpoint.
        return {"text": STRIPPED, "removed_patterns": [NESTED_MARKERS]}
    return {"text": current, "removed_patterns": removed}


# ---------------------------------------------------------------------------
# Envelope (core/src/web/envelope.rs)

TAG = "untrusted_content"
ESCAPE_OPEN = "\u27e6"
ESCAPE_CLOSE = "\u27e7"


def _load_readings():
    """The reference's character classes (envelope_readings.json, written by
    `agentfence web readings`): Unicode's data as the Rust crates hold it."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "envelope_readings.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    classes = {}
    for name in ("always", "opener", "reads_u", "reads_slash", "dropped"):
        ranges = data[name]
        classes[name] = ([a for a, _ in ranges], [b for _, b in ranges])
    return classes


_READINGS = _load_readings()


def _in_class(name, c):
    starts, ends = _READINGS[name]
    code = ord(c)
    i = bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


def _push_escape(out, c):
    if c == "<":
        name = "lt"
    elif c == "&":
        name = "amp"
    else:
        name = "U+%04X" % ord(c)
    out.append(ESCAPE_OPEN + name + ESCAPE_CLOSE)


def _attribute_keeps(c, in_list):
    return (
        (c == " " or "!" <= c <= "~")
        and c not in "\"'`<>&"
        and not (in_list and c == ",")
    )


def _escape_attribute(out, value, in_list):
    for c in value:
        if _attribute_keeps(c, in_list):
            out.append(c)
        else:
            _push_escape(out, c)


def _name_follows(text, indices):
    """Whether a tag name follows an opener, reading text[i] for i in
    `indices` away from it: the first character outside `dropped` reads as
    `u`, or as `/` with the next such one reading as `u`; the walk stops at
    an `opener` or `always` character, as the reference's does."""
    after_slash = False
    for i in indices:
        c = text[i]
        if _in_class("reads_u", c):
            return True
        stops = _in_class("opener", c) or _in_class("always", c)
        if _in_class("dropped", c) and not stops:
            continue
        if _in_class("reads_slash", c) and not after_slash and not stops:
            after_slash = True
            continue
        return False
    return False


def escape_body(body):
    out = []
    copied = 0
    n = len(body)
    for at, c in enumerate(body):
        if _in_class("always", c) or (
            _in_class("opener", c)
            and (_name_follows(body, range(at + 1, n)) or _name_follows(body, range(at - 1, -1, -1)))
        ):
            written = None
        elif c == "<":
            written = "&lt;"
        else:
            continue
        out.append(body[copied:at])
        if written is None:
            _push_escape(out, c)
        else:
            out.append(written)
        copied = at + 1
    out.append(body[copied:])
    return "".join(out)


def envelope(src, sanitized_at, removed_patterns, body):
    out = ["<", TAG, ' src="']
    _escape_attribute(out, src, False)
    out.append('" sanitized_at="')
    _escape_attribute(out, sanitized_at, False)
    out.append('" removed_patterns="')
    first = True
    for label in removed_patterns:
        if not label:
            continue
        if not first:
            out.append(",")
        first = False
        _escape_attribute(out, label, True)
    out.append('">\n')
    out.append(escape_body(body))
    out.append("\n</")
    out.append(TAG)
    out.append(">")
    return "".join(out)


# ---------------------------------------------------------------------------
# Timestamps (core/src/web/mod.rs: the `time` crate's RFC 3339)


def _days_in_month(year, month):
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z):
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


class InvalidTimestamp(ValueError):
    pass


def parse_timestamp(text):
    """RFC 3339 as the `time` crate reads it: the UTC instant as (days
    since 1970-01-01, second of the day, nanosecond)."""
    b = text.encode("utf-8")
    pos = 0

    def digits(count, what):
        nonlocal pos
        chunk = b[pos:pos + count]
        if len(chunk) != count or not all(0x30 <= x <= 0x39 for x in chunk):
            raise InvalidTimestamp(f"the {what} is not {count} digits")
        pos += count
        return int(chunk)

    def literal(chars, what):
        nonlocal pos
        if pos < len(b) and b[pos] in chars:
            pos += 1
            return b[pos - 1]
        raise InvalidTimestamp(f"expected {what}")

    year = digits(4, "year")
    literal(b"-", "-")
    month = digits(2, "month")
    if month == 0:
        raise InvalidTimestamp("month 0")
    literal(b"-", "-")
    day = digits(2, "day")
    if pos >= len(b):
        raise InvalidTimestamp("no separator")
    # RFC 3339 separates date and time with T (either case) or, by its
    # section 5.6 note, a space; no other byte.
    if b[pos] not in b"Tt ":
        raise InvalidTimestamp("the separator is not T, t or a space")
    pos += 1
    hour = digits(2, "hour")
    literal(b":", ":")
    minute = digits(2, "minute")
    literal(b":", ":")
    second = digits(2, "second")
    nanosecond = 0
    if pos < len(b) and b[pos] == 0x2E:
        pos += 1
        start = pos
        while pos < len(b) and 0x30 <= b[pos] <= 0x39:
            pos += 1
        if pos == start:
            raise InvalidTimestamp("no digit after the point")
        nanosecond = int((b[start:pos][:9]).decode().ljust(9, "0"))
    if pos < len(b) and b[pos] in b"Zz":
        pos += 1
        offset = 0
    else:
        sign = literal(b"+-", "an offset")
        offset_hour = digits(2, "offset hour")
        if offset_hour > 23:
            raise InvalidTimestamp("offset hour over 23")
        literal(b":", ":")
        offset_minute = digits(2, "offset minute")
        if offset_minute > 59:
            raise InvalidTimestamp("offset minute over 59")
        offset = (offset_hour * 3600 + offset_minute * 60) * (-1 if sign == 0x2D else 1)
    if pos != len(b):
        raise InvalidTimestamp("trailing characters")
    leap_second = second == 60
    if leap_second:
        second, nanosecond = 59, 999_999_999
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        raise InvalidTimestamp("no such date")
    if hour > 23 or minute > 59 or second > 59:
        raise InvalidTimestamp("no such time")
    total = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
    total -= offset
    days, seconds = divmod(total, 86400)
    if leap_second:
        y, m, d = _civil_from_days(days)
        if not (
            -9999 <= y <= 9999
            and seconds == 86399
            and d == _days_in_month(y, m)
        ):
            raise InvalidTimestamp("not a leap second")
    return days, seconds, nanosecond


def format_timestamp(days, seconds, nanosecond):
    year, month, day = _civil_from_days(days)
    if not -9999 <= year <= 9999:
        raise OverflowError("local datetime out of valid range")
    out = "%04d-%02d-%02dT%02d:%02d:%02d" % (
        year, month, day, seconds // 3600, seconds // 60 % 60, seconds % 60
    )
    if nanosecond:
        out += "." + ("%09d" % nanosecond).rstrip("0")
    return out + "Z"


def normalize_timestamp(text):
    try:
        instant = parse_timestamp(text)
    except InvalidTimestamp as error:
        raise port_errors.PortError(
            "invalid_timestamp", f"{text!r} is not an RFC 3339 timestamp: {error}"
        ) from None
    try:
        return format_timestamp(*instant)
    except OverflowError as error:
        raise port_errors.PortError("internal", f"{text!r}: {error}") from None


# ---------------------------------------------------------------------------
# Operations


def _fields(op, data, shape):
    if not isinstance(data, dict):
        raise port_errors.PortError("bad_request", f"{op}: input is not an object")
    for name in data:
        if name not in shape:
            raise port_errors.PortError("bad_request", f"{op}: input.{name} is not a field")
    for name, check in shape.items():
        if name not in data:
            raise port_errors.PortError("bad_request", f"{op}: input.{name} is missing")
        if not check(data[name]):
            raise port_errors.PortError("bad_request", f"{op}: input.{name} has the wrong type")


def _is_str(value):
    return isinstance(value, str)


def _is_str_list(value):
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def op_strip(data, config):
    _fields("strip", data, {"text": _is_str})
    return strip(data["text"])


def op_envelope(data, config):
    _fields(
        "envelope",
        data,
        {"body": _is_str, "src": _is_str, "sanitized_at": _is_str,
         "removed_patterns": _is_str_list},
    )
    at = normalize_timestamp(data["sanitized_at"])
    return {"text": envelope(data["src"], at, data["removed_patterns"], data["body"])}


OPERATIONS = {"strip": op_strip, "envelope": op_envelope}
