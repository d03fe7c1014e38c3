"""Failure templates: a tool's error message made safe to send as telemetry.

A port of the Rust reference, ``agentfence::template`` (core/src/template/:
mod.rs, scrub.rs, classify.rs, vocabulary.rs), rule for rule. The reference
is the specification; where this file looks roundabout it is reproducing a
detail of the reference (byte-level tests, Rust's character classes).

Operation ``template`` (suite ``template``): input ``{"message": M}``,
config ``{"vocabulary": [word, ...]}``, output ``{"kind": K, "template":
T or None}``.

Character classes: Rust's ``char::is_whitespace`` (the Unicode White_Space
property) and ``char::is_control`` (category Cc) are spelt out below, since
Python's ``str.isspace`` also counts U+001C..U+001F. ``char::is_alphanumeric``
(Alphabetic or Numeric) comes from ``unicodedata`` and a table of
Other_Alphabetic (see ``is_alphanumeric``); it only decides whether a ``'``
next to a non-ASCII character is an apostrophe or a quote mark.
"""

import bisect
import re
import unicodedata

from char_class import is_invisible_format
from port_errors import PortError

# --------------------------------------------------------------------------
# Limits and placeholders (mod.rs)

MAX_TEMPLATE_CHARS = 160
MAX_INPUT_CHARS = 400
MAX_WORD_LEN = 24

STR = "\u2039str\u203a"
URL = "\u2039url\u203a"
EMAIL = "\u2039email\u203a"
PATH = "\u2039path\u203a"
NUMBER = "\u2039n\u203a"
SYM = "\u2039sym\u203a"
TEXT = "\u2039text\u203a"
PLACEHOLDERS = frozenset((STR, URL, EMAIL, PATH, NUMBER, SYM, TEXT))

OPEN_MARK = "\u2039"  # the placeholder's opening angle quote
ELLIPSIS = "\u2026"

# --------------------------------------------------------------------------
# Character classes (char_class.rs and Rust's char methods)

# Rust's char::is_whitespace: the White_Space property.
WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)

# The line breaks of char_class::is_line_break (Python's splitlines set).
LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def is_whitespace(c):
    return c in WHITESPACE


def is_control(c):
    """Rust's char::is_control: general category Cc."""
    o = ord(c)
    return o < 0x20 or 0x7F <= o <= 0x9F


def is_separator(c):
    """Whitespace and control characters separate tokens."""
    return c in WHITESPACE or is_control(c)


# The characters of Unicode's Other_Alphabetic property that are not
# letters or numbers by category (combining vowel signs and other marks of
# categories Mn and Mc, U+0345, circled letters of category So), as ranges of
# hexadecimal code points: Rust's char::is_alphabetic counts them, and
# Python's unicodedata has no such property. Taken from the Alphabetic
# property of Unicode 17.0 (Rust 1.95's char), restricted to the characters
# Unicode 14.0 (Python 3.11's unicodedata) already assigns.
_OTHER_ALPHABETIC_TABLE = (
    "345 363-36F 5B0-5BD 5BF 5C1-5C2 5C4-5C5 5C7 610-61A 64B-657 659-65F "
    "670 6D6-6DC 6E1-6E4 6E7-6E8 6ED 711 730-73F 7A6-7B0 816-817 81B-823 "
    "825-827 829-82C 8D4-8DF 8E3-8E9 8F0-903 93A-93B 93E-94C 94E-94F "
    "955-957 962-963 981-983 9BE-9C4 9C7-9C8 9CB-9CC 9D7 9E2-9E3 A01-A03 "
    "A3E-A42 A47-A48 A4B-A4C A51 A70-A71 A75 A81-A83 ABE-AC5 AC7-AC9 "
    "ACB-ACC AE2-AE3 AFA-AFC B01-B03 B3E-B44 B47-B48 B4B-B4C B56-B57 "
    "B62-B63 B82 BBE-BC2 BC6-BC8 BCA-BCC BD7 C00-C04 C3E-C44 C46-C48 "
    "C4A-C4C C55-C56 C62-C63 C81-C83 CBE-CC4 CC6-CC8 CCA-CCC CD5-CD6 "
    "CE2-CE3 D00-D03 D3E-D44 D46-D48 D4A-D4C D57 D62-D63 D81-D83 DCF-DD4 "
    "DD6 DD8-DDF DF2-DF3 E31 E34-E3A E4D EB1 EB4-EB9 EBB-EBC ECD F71-F83 "
    "F8D-F97 F99-FBC 102B-1036 1038 103B-103E 1056-1059 105E-1060 "
    "1062-1064 1067-106D 1071-1074 1082-108D 108F 109A-109D 1712-1713 "
    "1732-1733 1752-1753 1772-1773 17B6-17C8 1885-1886 18A9 1920-192B "
    "1930-1938 1A17-1A1B 1A55-1A5E 1A61-1A74 1ABF-1AC0 1ACC-1ACE 1B00-1B04 "
    "1B35-1B43 1B80-1B82 1BA1-1BA9 1BAC-1BAD 1BE7-1BF1 1C24-1C36 1DD3-1DF4 "
    "24B6-24E9 2DE0-2DFF A674-A67B A69E-A69F A802 A80B A823-A827 A880-A881 "
    "A8B4-A8C3 A8C5 A8FF A926-A92A A947-A952 A980-A983 A9B4-A9BF A9E5 "
    "AA29-AA36 AA43 AA4C-AA4D AA7B-AA7D AAB0 AAB2-AAB4 AAB7-AAB8 AABE "
    "AAEB-AAEF AAF5 ABE3-ABEA FB1E 10376-1037A 10A01-10A03 10A05-10A06 "
    "10A0C-10A0F 10D24-10D27 10EAB-10EAC 11000-11002 11038-11045 "
    "11073-11074 11080-11082 110B0-110B8 110C2 11100-11102 11127-11132 "
    "11145-11146 11180-11182 111B3-111BF 111CE-111CF 1122C-11234 11237 "
    "1123E 112DF-112E8 11300-11303 1133E-11344 11347-11348 1134B-1134C "
    "11357 11362-11363 11435-11441 11443-11445 114B0-114C1 115AF-115B5 "
    "115B8-115BE 115DC-115DD 11630-1163E 11640 116AB-116B5 1171D-1172A "
    "1182C-11838 11930-11935 11937-11938 1193B-1193C 11940 11942 "
    "119D1-119D7 119DA-119DF 119E4 11A01-11A0A 11A35-11A39 11A3B-11A3E "
    "11A51-11A5B 11A8A-11A97 11C2F-11C36 11C38-11C3E 11C92-11CA7 "
    "11CA9-11CB6 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D41 11D43 11D47 "
    "11D8A-11D8E 11D90-11D91 11D93-11D96 11EF3-11EF6 16F4F 16F51-16F87 "
    "16F8F-16F92 16FF0-16FF1 1BC9E 1E000-1E006 1E008-1E018 1E01B-1E021 "
    "1E023-1E024 1E026-1E02A 1E947 1F130-1F149 1F150-1F169 1F170-1F189 "
)


def _ranges(table):
    lows, highs = [], []
    for item in table.split():
        low, _, high = item.partition("-")
        lows.append(int(low, 16))
        highs.append(int(high or low, 16))
    return lows, highs


_OTHER_ALPHABETIC_LOW, _OTHER_ALPHABETIC_HIGH = _ranges(_OTHER_ALPHABETIC_TABLE)
_NUMERIC_CATEGORIES = frozenset(("Nd", "Nl", "No"))
_LETTER_CATEGORIES = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo"))


def is_alphanumeric(c):
    """Rust's char::is_alphanumeric: Alphabetic or Numeric (Nd, Nl, No).

    Alphabetic is the letters (L*), Nl and Other_Alphabetic. The categories
    come from unicodedata; Other_Alphabetic, which unicodedata does not
    expose, from the table above. A character assigned after the Unicode
    version of this Python's unicodedata is category Cn here and so not
    alphanumeric, while the reference may call it one.
    """
    if c.isascii():
        return c.isalnum()
    category = unicodedata.category(c)
    if category in _LETTER_CATEGORIES or category in _NUMERIC_CATEGORIES:
        return True
    o = ord(c)
    index = bisect.bisect_right(_OTHER_ALPHABETIC_LOW, o) - 1
    return index >= 0 and o <= _OTHER_ALPHABETIC_HIGH[index]


def rust_trim(text):
    """str::trim: strips White_Space (not U+001C..U+001F, as str.strip does)."""
    start, end = 0, len(text)
    while start < end and text[start] in WHITESPACE:
        start += 1
    while end > start and text[end - 1] in WHITESPACE:
        end -= 1
    return text[start:end]


# --------------------------------------------------------------------------
# Vocabulary (vocabulary.rs)

_VALID_WORD = re.compile(r"[a-z]+('[a-z]+)?\Z")
_WORD_PART = r"[a-z]+(?:'[a-z]+)?"
_COMPOUND = re.compile(r"%s(?:-%s)+\Z" % (_WORD_PART, _WORD_PART))
_SLASH_FORM = re.compile(r"%s(?:/%s)+\Z" % (_WORD_PART, _WORD_PART))
_PAIR = re.compile(r"%s %s\Z" % (_WORD_PART, _WORD_PART))
_NAME = re.compile(r"[A-Z][a-z]+\Z")


def line_kind(line):
    """'word', 'compound', 'slash', 'pair' or 'name' (vocabulary.rs
    line_kind), or None."""
    if _VALID_WORD.match(line):
        return "word"
    if "-" in line:
        return "compound" if _COMPOUND.match(line) else None
    if "/" in line:
        return "slash" if _SLASH_FORM.match(line) else None
    if " " in line:
        return "pair" if _PAIR.match(line) else None
    return "name" if _NAME.match(line) else None


class Vocabulary:
    """Sorted lines: words, compounds, slash forms, pairs (looked up as one
    set, ignoring ASCII case) and names (looked up apart)."""

    def __init__(self, words):
        names = [word for word in words if line_kind(word) == "name"]
        self.names = frozenset(name.lower() for name in names)
        self.words = frozenset(word for word in words if line_kind(word) != "name")

    def contains(self, word):
        if not word or len(word.encode("utf-8", "surrogatepass")) > MAX_WORD_LEN:
            return False
        # The words are ASCII: a word with any other character is not one,
        # and for ASCII str.lower() is the ASCII lowercase.
        return word.isascii() and word.lower() in self.words

    def is_name(self, word):
        if not word or len(word.encode("utf-8", "surrogatepass")) > MAX_WORD_LEN:
            return False
        return word.isascii() and word.lower() in self.names

    def contains_pair(self, first, second):
        if not first or not second or len(first) + 1 + len(second) > MAX_WORD_LEN:
            return False
        return self.contains(first + " " + second)


def vocabulary_from_config(config):
    """The suite's word list, checked as the reference checks it (sorted,
    lowercase, each word once); PortError bad_config when it is not."""
    items = config.get("vocabulary") if isinstance(config, dict) else None
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise PortError("bad_config", "config.vocabulary is not an array of strings")
    previous = None
    for index, word in enumerate(items):
        if not word or word.startswith("#") or "\n" in word or "\r" in word:
            raise PortError("bad_config", "vocabulary word %d (%r) is not a word" % (index, word))
        if line_kind(word) is None:
            raise PortError("bad_config", "vocabulary word %r is not a lowercase ASCII word" % word)
        if len(word) > MAX_WORD_LEN:
            raise PortError("bad_config", "vocabulary word %r is longer than %d" % (word, MAX_WORD_LEN))
        if previous is not None and previous >= word:
            raise PortError("bad_config", "vocabulary word %r does not come after %r" % (word, previous))
        previous = word
    if not items:
        raise PortError("bad_config", "the vocabulary holds no words")
    vocabulary = Vocabulary(items)
    for pair in items:
        if line_kind(pair) == "pair":
            for word in pair.split(" "):
                if not vocabulary.contains(word):
                    raise PortError("bad_config", "vocabulary pair %r holds %r, which is not a word of the list" % (pair, word))
    return vocabulary


# --------------------------------------------------------------------------
# Classification (classify.rs)

# From the most specific class to the most generic; the earliest rule any of
# whose phrases occurs anywhere in the message (ignoring ASCII case) wins.
RULES = (
    (
        "policy_blocked",
        (
            "[policy blocked]",
            "policy blocked",
            "blocked by policy",
            "denied by policy",
            "violates policy",
            "policy violation",
            "allowlist",
            "denylist",
            "blocklist",
            "not permitted by",
            "gateway denied",
            "egress denied",
        ),
    ),
    ("timeout", ("timed out", "timeout", "time out", "deadline exceeded", "etimedout", "took too long")),
    (
        "conflict",
        (
            "old_string",
            "not unique",
            "no unique",
            "conflict",
            "mismatch",
            "stale",
            "changed since",
            "hash does not match",
            "anchor",
            "already exists",
            "file exists",
            "eexist",
            "non-fast-forward",
            "would be overwritten",
            "diverged",
        ),
    ),
    (
        "permission",
        (
            "permission denied",
            "access denied",
            "access is denied",
            "eacces",
            "eperm",
            "operation not permitted",
            "not permitted",
            "not allowed",
            "forbidden",
            "unauthorized",
            "authentication failed",
            "authentication required",
            "outside the project",
            "outside project",
            "outside of",
            "path jail",
            "escapes project root",
            "read-only",
            "readonly",
        ),
    ),
    (
        "not_found",
        (
            "not found",
            "no such",
            "does not exist",
            "doesn't exist",
            "did not exist",
            "enoent",
            "unknown tool",
            "no matches",
            "cannot find",
            "can't find",
            "could not find",
            "couldn't find",
            "unable to find",
            "not a git repository",
        ),
    ),
    (
        "too_large",
        (
            "too large",
            "too long",
            "too big",
            "too many",
            "exceeds",
            "exceeded",
            "limit reached",
            "over budget",
            "out of memory",
            "no space left",
            "quota",
            "e2big",
        ),
    ),
    (
        "unavailable",
        (
            "unavailable",
            "not running",
            "connection refused",
            "connection reset",
            "connection aborted",
            "econnrefused",
            "not installed",
            "not configured",
            "is disabled",
            "not enabled",
            "failed to connect",
            "could not connect",
            "unable to connect",
            "network",
            "unreachable",
            "could not resolve",
            "name resolution",
            "name or service not known",
            "bad gateway",
            "broken pipe",
            "try again",
        ),
    ),
    (
        "invalid_input",
        (
            "invalid",
            "missing required",
            "missing field",
            "required parameter",
            "required argument",
            "unknown field",
            "unknown parameter",
            "unknown action",
            "unknown option",
            "unknown argument",
            "unrecognized",
            "unexpected argument",
            "expected",
            "must be",
            "cannot parse",
            "failed to parse",
            "parse error",
            "syntax error",
            "malformed",
            "bad request",
            "not a valid",
            "illegal",
            "unsupported",
            "wrong type",
        ),
    ),
)

_RULE_BYTES = tuple((kind, tuple(phrase.encode("ascii") for phrase in phrases)) for kind, phrases in RULES)


def classify(message):
    """The class of a message: the earliest rule any of whose phrases occurs.
    bytes.lower() folds ASCII only, as the reference's ASCII-case-insensitive
    search does (no Kelvin sign or dotted I becomes a letter of a phrase)."""
    folded = message.encode("utf-8", "surrogatepass").lower()
    for kind, phrases in _RULE_BYTES:
        for phrase in phrases:
            if phrase in folded:
                return kind
    return "other"


# --------------------------------------------------------------------------
# Scrubbing (scrub.rs)

# Punctuation that frames a token without being part of it.
EDGE = frozenset("()[]{},;:.!?<>" + ELLIPSIS)
EDGE_ASCII = frozenset("()[]{},;:.!?<>")
KEPT_PUNCTUATION = EDGE | frozenset("-_/")
SAFE_PUNCTUATION = " .,:;()[]{}<>!?'-_/\u2039\u203a\u2026"
_SAFE_CHARS = frozenset(SAFE_PUNCTUATION + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

KNOWN_IDENTIFIERS = frozenset(
    (
        "old_string",
        "new_string",
        "replace_all",
        "file_path",
        "start_line",
        "end_line",
        "max_results",
        "dry_run",
        "old_text",
        "new_text",
        "replace_unique",
        "set_line",
        "replace_lines",
        "insert_after",
        "replace_symbol",
        "timeout_ms",
        "run_in_background",
        "job_id",
        "doc_id",
        "if_version",
    )
)

# The closing marks of a quote opened by the key.
CLOSERS = {
    '"': '"',
    "`": "`",
    "'": "'",
    "\u201c": "\u201d\u201c",  # “ closed by ” or “
    "\u201e": "\u201c\u201d",  # „ closed by “ or ”
    "\u2018": "\u2019\u2018",  # ‘ closed by ’ or ‘
    "\u201a": "\u2019\u2018",  # ‚ closed by ’ or ‘
    "\u00ab": "\u00bb",  # « closed by »
    "\u300c": "\u300d",  # 「 closed by 」
    "\u300e": "\u300f",  # 『 closed by 』
}
APOSTROPHE_LIKE = frozenset("'\u2019")

ESC = "\x1b"


def _after_csi(text, at):
    """Index after the colour code at text[at] (ESC [, parameter chars
    '0'..'?', one final char '@'..'~'), or None when none starts there."""
    if text[at : at + 2] != ESC + "[":
        return None
    probe = at + 2
    while probe < len(text) and "\x30" <= text[probe] <= "\x3f":
        probe += 1
    if probe == len(text):
        return probe  # cut by the end of the text: nothing follows it
    if "\x40" <= text[probe] <= "\x7e":
        return probe + 1
    return None


def is_blank(line):
    """A line that shows nothing: separators, invisible format characters
    and colour codes only."""
    if line and "\x21" <= line[0] < "\x7f":
        return False
    at = 0
    while at < len(line):
        c = line[at]
        after = _after_csi(line, at) if c == ESC else None
        if after is not None:
            at = after
            continue
        if not is_separator(c) and not is_invisible_format(c):
            return False
        at += 1
    return True


def first_line(message):
    """The first line that shows anything, trimmed; None when none does."""
    start = 0
    for brk in LINE_BREAK.finditer(message):
        line = rust_trim(message[start : brk.start()])
        if not is_blank(line):
            return line
        start = brk.end()
    line = rust_trim(message[start:])
    if not is_blank(line):
        return line
    return None


def window(line):
    """At most MAX_INPUT_CHARS chars of the line; the token cut by the limit
    is dropped whole."""
    if len(line) <= MAX_INPUT_CHARS:
        return line
    head = line[:MAX_INPUT_CHARS]
    if is_separator(line[MAX_INPUT_CHARS]):
        return head
    for space in range(len(head) - 1, -1, -1):
        if is_separator(head[space]):
            return head[:space]
    return ""


def strip_ansi(text):
    """Removes ANSI colour codes (ESC [ parameters final); an ESC that
    starts no such code stays, a separator, and the text after it is kept."""
    if ESC not in text:
        return text
    clean = []
    at = 0
    while at < len(text):
        c = text[at]
        after = _after_csi(text, at) if c == ESC else None
        if after is not None:
            at = after
            continue
        clean.append(c)
        at += 1
    return "".join(clean)


QUOTED = None  # the token of a quoted span; a word is its str


def tokenize(text):
    """Splits the window into words (str) and quoted spans (QUOTED).

    A ' opens a quote only after a non-alphanumeric character (a space after
    it does not stop it: a padded quote is a quote); an apostrophe-like closer followed by an
    alphanumeric character does not close. A quote left open runs to the end.
    """
    tokens = []
    n = len(text)
    at = 0
    word_start = None
    while at < n:
        c = text[at]
        if is_separator(c):
            if word_start is not None:
                tokens.append(text[word_start:at])
                word_start = None
            at += 1
            continue
        closers = CLOSERS.get(c)
        if closers is not None and (
            c != "'"
            or (not (at > 0 and is_alphanumeric(text[at - 1])) and at + 1 < n)
        ):
            if word_start is not None:
                tokens.append(text[word_start:at])
                word_start = None
            tokens.append(QUOTED)
            probe = at + 1
            while True:
                if probe >= n:
                    return tokens
                close = text[probe]
                probe += 1
                if close in closers and not (
                    close in APOSTROPHE_LIKE and probe < n and is_alphanumeric(text[probe])
                ):
                    at = probe
                    break
            continue
        if word_start is None:
            word_start = at
        at += 1
    if word_start is not None:
        tokens.append(text[word_start:])
    return tokens


def split_edges(token):
    """token as (leading punctuation, core, trailing punctuation)."""
    start, end = 0, len(token)
    while start < end and token[start] in EDGE:
        start += 1
    while end > start and token[end - 1] in EDGE:
        end -= 1
    return token[:start], token[start:end], token[end:]


class Shape:
    """What a token's core is made of. Only ASCII characters carry flags,
    as in the reference's byte table; an empty core is ASCII and made of
    word characters only (the reference's 'all' over no bytes)."""

    __slots__ = (
        "ascii",
        "alphanumeric",
        "digit",
        "lower",
        "upper_after_first",
        "word_chars_only",
        "separator",
        "backslash",
        "dot",
        "at",
        "colon",
        "identifier_mark",
    )

    def __init__(self, core):
        self.ascii = core.isascii()
        alnum = digit = lower = upper_after = False
        word_only = True
        separator = backslash = dot = at = colon = mark = False
        for index, c in enumerate(core):
            if "a" <= c <= "z":
                alnum = lower = True
            elif "A" <= c <= "Z":
                alnum = True
                if index > 0:
                    upper_after = True
            elif "0" <= c <= "9":
                alnum = digit = True
                word_only = False
            else:
                if c != "-" and c != "'":
                    word_only = False
                if c == "/":
                    separator = True
                elif c == "\\":
                    separator = backslash = True
                elif c == ".":
                    dot = True
                elif c == "@":
                    at = True
                elif c == ":":
                    colon = True
                elif c in "_$#=%+":
                    mark = True
        self.alphanumeric = alnum
        self.digit = digit
        self.lower = lower
        self.upper_after_first = upper_after
        self.word_chars_only = word_only
        self.separator = separator
        self.backslash = backslash
        self.dot = dot
        self.at = at
        self.colon = colon
        self.identifier_mark = mark


def is_placeholder(core):
    return core in PLACEHOLDERS


def _ascii_lowercase_only(part):
    return bool(part) and part.isascii() and part.islower() and part.isalpha()


def is_known_identifier(core, vocabulary):
    """One of the seed's parameter names, or ctx_ and one vocabulary word."""
    if core in KNOWN_IDENTIFIERS:
        return True
    if not core.startswith("ctx_"):
        return False
    name = core[4:]
    return _ascii_lowercase_only(name) and vocabulary.contains(name)


def is_own_word(word, vocabulary):
    """A word or listed compound of the vocabulary, or its possessive."""
    if " " in word or "/" in word:
        return False
    if vocabulary.contains(word):
        return True
    return word.endswith("'s") and vocabulary.contains(word[:-2])


def is_own_slash_words(core, vocabulary):
    """A listed slash form."""
    return "/" in core and " " not in core and vocabulary.contains(core)


def starts_path(core, shape):
    """Unmistakably the start of a path."""
    if not shape.separator:
        return core.startswith("~")
    if "://" in core:
        return False
    drive = len(core) >= 3 and core[0] in _ASCII_LETTERS and core[1] == ":" and core[2] in "\\/"
    return (
        (len(core) > 1 and core.startswith("/"))
        or core.startswith("~")
        or core.startswith(("./", "../", ".\\", "..\\", "\\\\"))
        or drive
        or shape.dot
    )


def _ascii_alnum(text):
    return text.isascii() and text.isalnum()


def is_file_name(core, shape):
    """stem.ext with a short extension holding a letter."""
    if not shape.dot:
        return False
    stem, _, ext = core.rpartition(".")
    return (
        bool(stem)
        and 1 <= len(ext) <= 8
        and _ascii_alnum(ext)
        and any(c in _ASCII_LETTERS for c in ext)
    )


def is_identifier_like(core, shape):
    return (
        (shape.colon and "::" in core)
        or shape.identifier_mark
        or (shape.upper_after_first and shape.lower)
        or len(core) > 24
    )


URL_SCHEMES = ("mailto:", "file:", "data:", "javascript:", "urn:", "tel:")


def is_url(core, shape):
    if not shape.colon and not shape.dot:
        return False
    if "://" in core:
        return True
    head = core[:11].lower() if core.isascii() else ""
    return head.startswith("www.") or head.startswith(URL_SCHEMES)


def closes_clause(token):
    return token.endswith((":", ",", ";", ".", "!", "?", ELLIPSIS))


def continues_path(core):
    shape = Shape(core)
    return shape.separator or is_file_name(core, shape)


def stops_path(token):
    """A function word, a dash, or a word opening a bracket."""
    lead, core, _ = split_edges(token)
    return token in ("-", "\u2014", "\u2013") or any(c in lead for c in "([{<") or core in FUNCTION_WORDS


def path_end(tokens, start):
    """Index of the last token of the path starting at tokens[start]: its
    last segment or file name within the clause, then, unless that is a
    file name, the words up to a stopping word or the clause's end."""

    def closes(index):
        return tokens[index] is not QUOTED and closes_clause(tokens[index])

    last_segment = start
    probe = start
    while not closes(probe) and probe + 1 < len(tokens):
        probe += 1
        following = tokens[probe]
        if following is not QUOTED and continues_path(split_edges(following)[1]):
            last_segment = probe
    if tokens[last_segment] is not QUOTED:
        core = split_edges(tokens[last_segment])[1]
        if is_file_name(core, Shape(core)):
            return last_segment
    end = last_segment
    while not closes(end) and end + 1 < len(tokens):
        following = tokens[end + 1]
        if following is not QUOTED and stops_path(following):
            break
        end += 1
    return end


def path_lead(lead, core):
    """Leading punctuation of a path, without the dots of ./"""
    if core.startswith(("/", "\\")):
        return lead.rstrip(".")
    return lead


KEPT = "kept"
SEPARATED_PATH = "separated_path"
OTHER = "other"


def is_kept_punctuation_token(token):
    """At most three marks, none of them '_'."""
    return len(token) <= 3 and all(c != "_" and c in KEPT_PUNCTUATION for c in token)


def scrub_word(token, lead, core, trail, shape, vocabulary):
    """What one word becomes, and what kind of piece it is (KEPT,
    SEPARATED_PATH, OTHER); the piece is None for a punctuation token with
    no safe spelling."""
    if token == "\u2014" or token == "\u2013":
        return "-", OTHER
    if not core:
        return (token if is_kept_punctuation_token(token) else None), OTHER
    lead, trail = lead[-3:], trail[:3]
    written = OTHER
    if is_placeholder(core):
        replaced = core
    elif not shape.ascii:
        replaced = TEXT
    elif not shape.alphanumeric:
        if starts_path(core, shape):
            lead = path_lead(lead, core)
            written = SEPARATED_PATH
            replaced = PATH
        elif is_kept_punctuation_token(token):
            replaced = core
        else:
            return None, OTHER
    elif is_url(core, shape):
        replaced = URL
    elif shape.at:
        replaced = EMAIL if shape.dot else SYM
    elif shape.identifier_mark and is_known_identifier(core, vocabulary):
        replaced = core
    elif lead.endswith(".") or starts_path(core, shape) or is_file_name(core, shape):
        # A dot glued to the front of a word is a dotfile, not punctuation.
        lead = path_lead(lead, core).rstrip(".")
        if shape.separator:
            written = SEPARATED_PATH
        replaced = PATH
    elif shape.digit:
        replaced = NUMBER
    elif is_identifier_like(core, shape):
        replaced = SYM
    elif shape.word_chars_only:
        if is_own_word(core, vocabulary):
            written = KEPT
            replaced = core
        else:
            replaced = TEXT
    elif shape.separator and not shape.backslash and is_own_slash_words(core, vocabulary):
        written = KEPT
        replaced = core
    elif shape.separator:
        written = SEPARATED_PATH
        replaced = PATH
    else:
        replaced = SYM
    return lead + replaced + trail, written


_LETTERS_WORD = re.compile(r"([A-Za-z]+)([()\[\]{},;:.!?<>]*)\Z")


def scrub_letters_word(word, vocabulary):
    """ASCII letters with only ASCII edge punctuation after them, as (piece,
    kind); None for any other word."""
    match = _LETTERS_WORD.match(word)
    if match is None:
        return None
    core, trail = match.group(1), match.group(2)[:3]
    inner_upper = any("A" <= c <= "Z" for c in core[1:])
    lower = any("a" <= c <= "z" for c in core)
    if len(core) > 24 or (inner_upper and lower):
        return SYM + trail, OTHER
    if vocabulary.contains(core):
        return core + trail, KEPT
    return TEXT + trail, OTHER


def is_plain_word(word):
    """Two ASCII letters or more, and no placeholder."""
    letters = 0
    for c in word:
        if c in _ASCII_LETTERS:
            letters += 1
            if letters == 2:
                return OPEN_MARK not in word
    return False


def finish(pieces):
    """Joins the pieces and cuts the result at the last space that leaves
    room for the ellipsis; returns (template, plain word count)."""
    out = " ".join(pieces)
    if len(out) <= MAX_TEMPLATE_CHARS:
        return out, sum(1 for piece in pieces if is_plain_word(piece))
    cut = out[:MAX_TEMPLATE_CHARS].rfind(" ")
    out = out[: max(cut, 0)]
    space = out.rfind(" ")
    collapsed = False
    if space >= 0:
        before, last = out[:space], out[space + 1 :]
        previous = before.rsplit(" ", 1)[-1]
        if last.startswith(OPEN_MARK) and previous.endswith(ELLIPSIS) and previous[:-1] == last:
            out = before
            collapsed = True
    if not collapsed:
        # With the ellipsis the trailing marks stay at most three.
        last_piece = out.rsplit(" ", 1)[-1]
        if any(c.isalnum() or c == OPEN_MARK for c in last_piece):
            marks = len(out) - len(out.rstrip("".join(EDGE)))
        else:
            marks = len(last_piece)
        if marks > 2:
            out = out[: len(out) - (marks - 2)]
        out += ELLIPSIS
    return out, sum(1 for word in out.split(" ") if is_plain_word(word))


def is_safe_template(template):
    return all(c in _SAFE_CHARS for c in template)


# scrub.rs VALUE_NOUNS: the word after one is a value.
VALUE_NOUNS = frozenset(
    (
        "account",
        "accounts",
        "alias",
        "app",
        "branch",
        "branches",
        "bucket",
        "buckets",
        "called",
        "channel",
        "cluster",
        "collection",
        "column",
        "container",
        "containers",
        "crate",
        "crates",
        "database",
        "databases",
        "db",
        "device",
        "devices",
        "domain",
        "group",
        "groups",
        "host",
        "hostname",
        "hosts",
        "image",
        "images",
        "instance",
        "key",
        "keys",
        "label",
        "member",
        "module",
        "modules",
        "named",
        "namespace",
        "node",
        "nodes",
        "org",
        "organization",
        "owner",
        "package",
        "packages",
        "passphrase",
        "password",
        "peer",
        "pod",
        "pods",
        "principal",
        "profile",
        "project",
        "projects",
        "queue",
        "realm",
        "ref",
        "region",
        "remote",
        "remotes",
        "repo",
        "repos",
        "repository",
        "role",
        "schema",
        "secret",
        "secrets",
        "server",
        "servers",
        "service",
        "services",
        "site",
        "table",
        "tables",
        "tag",
        "tags",
        "team",
        "tenant",
        "tenants",
        "token",
        "tokens",
        "topic",
        "user",
        "username",
        "users",
        "volume",
        "volumes",
        "workspace",
        "zone",
    )
)

# scrub.rs FUNCTION_WORDS: wording, never a value, a folder or part of a name.
FUNCTION_WORDS = frozenset(
    (
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "already",
        "also",
        "am",
        "an",
        "and",
        "another",
        "any",
        "are",
        "aren't",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "can't",
        "cannot",
        "could",
        "couldn't",
        "did",
        "didn't",
        "do",
        "does",
        "doesn't",
        "don't",
        "down",
        "during",
        "each",
        "either",
        "every",
        "for",
        "from",
        "had",
        "hadn't",
        "has",
        "hasn't",
        "have",
        "haven't",
        "here",
        "if",
        "in",
        "instead",
        "into",
        "is",
        "isn't",
        "it",
        "its",
        "may",
        "might",
        "more",
        "most",
        "must",
        "neither",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "onto",
        "or",
        "other",
        "out",
        "over",
        "per",
        "same",
        "shall",
        "should",
        "since",
        "so",
        "some",
        "still",
        "such",
        "than",
        "that",
        "the",
        "then",
        "there",
        "these",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "unless",
        "until",
        "up",
        "very",
        "via",
        "was",
        "wasn't",
        "were",
        "weren't",
        "when",
        "where",
        "which",
        "while",
        "who",
        "will",
        "with",
        "within",
        "without",
        "won't",
        "would",
        "yet",
    )
)


# scrub.rs VALUE_PHRASES: a verb and a function word that introduce a value.
VALUE_PHRASES = frozenset(
    (
        ("connect", "to"),
        ("connected", "to"),
        ("connecting", "to"),
        ("connection", "to"),
        ("in", "as"),
        ("owned", "by"),
        ("run", "as"),
        ("running", "as"),
    )
)


def is_value_slot_wording(word):
    """A function word or a participle: wording after a value noun."""
    return word in FUNCTION_WORDS or (
        len(word) >= 5 and _ascii_lowercase_only(word) and word.endswith(("ed", "ing"))
    )


_TITLE = re.compile(r"[A-Z][a-z]+('s)?\Z")


def is_title_case(core):
    return _TITLE.match(core) is not None


def is_name_shaped(core, vocabulary):
    """Capitalised, and not a function word unless a listed name too."""
    if not is_title_case(core):
        return False
    stem = core[:-2] if core.endswith("'s") else core
    return stem.lower() not in FUNCTION_WORDS or vocabulary.is_name(stem)


def _starts_clause(pieces, index):
    if index == 0:
        return True
    previous = pieces[index - 1][0]
    return (
        previous.endswith((":", ";", ".", "!", "?", ELLIPSIS, "]", ")", ">"))
        or previous == "-"
        or pieces[index][0].startswith(("(", "[", "{", "<"))
    )


def hide_values_and_names(pieces, vocabulary):
    """Marks hidden the kept words that are a value (after a value noun) or
    a name (capitalised words in a row, a listed name alone inside a
    clause). A piece is [text, kind, title, hidden]."""
    any_hidden = False
    for index in range(1, len(pieces)):
        previous, current = pieces[index - 1], pieces[index]
        if current[1] != KEPT or previous[1] != KEPT:
            continue
        _, noun, noun_trail = split_edges(previous[0])
        lead, value, _ = split_edges(current[0])
        if lead or is_value_slot_wording(value):
            continue
        after_noun = (
            (noun_trail == "" or (noun_trail == ":" and index >= 2))
            and noun.lower() in VALUE_NOUNS
            and not vocabulary.contains_pair(noun, value)
        )
        after_phrase = False
        if index >= 2 and value.lower() not in VALUE_NOUNS and noun_trail == "" and pieces[index - 2][1] == KEPT:
            _, verb, verb_trail = split_edges(pieces[index - 2][0])
            after_phrase = verb_trail == "" and (verb.lower(), noun.lower()) in VALUE_PHRASES
        name_goes_on = previous[3] and noun_trail == "" and vocabulary.is_name(value)
        if after_noun or after_phrase or name_goes_on:
            current[3] = True
            any_hidden = True
    start = 0
    while start < len(pieces):
        if not pieces[start][2]:
            start += 1
            continue
        end = start
        while (
            end + 1 < len(pieces)
            and pieces[end + 1][2]
            and split_edges(pieces[end][0])[2] == ""
            and split_edges(pieces[end + 1][0])[0] == ""
        ):
            end += 1
        if end > start:
            listed = all(
                pieces[index][1] == KEPT
                and pieces[index + 1][1] == KEPT
                and not pieces[index][3]
                and not pieces[index + 1][3]
                and vocabulary.contains_pair(split_edges(pieces[index][0])[1], split_edges(pieces[index + 1][0])[1])
                for index in range(start, end)
            )
            if not listed:
                for piece in pieces[start : end + 1]:
                    if piece[1] == KEPT and not piece[3]:
                        piece[3] = True
                        any_hidden = True
        else:
            piece = pieces[start]
            core = split_edges(piece[0])[1]
            stem = core[:-2] if core.endswith("'s") else core
            if piece[1] == KEPT and not piece[3] and not _starts_clause(pieces, start) and vocabulary.is_name(stem):
                piece[3] = True
                any_hidden = True
        start = end + 1
    return any_hidden


def rewrite_hidden(pieces):
    """The pieces' texts with hidden words as the text placeholder, repeats
    collapsed."""
    out = []
    for text, _, _, hidden in pieces:
        if hidden:
            lead, _, trail = split_edges(text)
            text = lead + TEXT + trail
        if text.startswith(OPEN_MARK) and out and out[-1] == text:
            continue
        out.append(text)
    return out


def template(message, vocabulary):
    """The template of message, or None when fewer than two plain words
    survive."""
    line = first_line(message)
    if line is None:
        return None
    tokens = tokenize(strip_ansi(window(line)))
    pieces = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        title = False
        if token is QUOTED:
            piece, written = STR, OTHER
        else:
            title = is_name_shaped(split_edges(token)[1], vocabulary)
            scrubbed = scrub_letters_word(token, vocabulary)
            if scrubbed is not None:
                piece, written = scrubbed
            else:
                lead, core, trail = split_edges(token)
                shape = Shape(core)
                if starts_path(core, shape) and not core.startswith(OPEN_MARK):
                    piece, written = path_lead(lead, core)[-3:] + PATH, SEPARATED_PATH
                else:
                    piece, written = scrub_word(token, lead, core, trail, shape, vocabulary)
                    if written == SEPARATED_PATH:
                        piece = piece[: len(piece) - len(trail[:3])]
                if written == SEPARATED_PATH:
                    # A path runs to the end of its clause.
                    end = path_end(tokens, index)
                    if tokens[end] is not QUOTED:
                        piece += split_edges(tokens[end])[2][:3]
                    index = end
        index += 1
        # A run of one placeholder piece collapses into one.
        if piece and not (piece.startswith(OPEN_MARK) and pieces and pieces[-1][0] == piece):
            pieces.append([piece, written, title, False])
    if hide_values_and_names(pieces, vocabulary):
        texts = rewrite_hidden(pieces)
    else:
        texts = [piece[0] for piece in pieces]
    result, plain_words = finish(texts)
    if plain_words < 2:
        return None
    # Built from safe pieces only; checked again, as the reference does, so
    # that a bug drops the template instead of reporting it.
    return result if is_safe_template(result) else None


# --------------------------------------------------------------------------
# The operation

_vocabulary_cache = [None, None]  # [config object, its Vocabulary]


def _vocabulary(config):
    if _vocabulary_cache[0] is not config:
        vocabulary = vocabulary_from_config(config)
        _vocabulary_cache[0], _vocabulary_cache[1] = config, vocabulary
    return _vocabulary_cache[1]


def op_template(data, config):
    vocabulary = _vocabulary(config)
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, str):
        raise PortError("bad_request", "input.message is not a string")
    return {"kind": classify(message), "template": template(message, vocabulary)}


OPERATIONS = {"template": op_template}
