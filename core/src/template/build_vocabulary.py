"""Rebuilds the derived lines of vocabulary.txt: compounds, slash forms,
pairs and names. The plain words are kept as they are (edit them by hand,
with a reason in the notes for any word removed).

    python3 core/src/template/build_vocabulary.py NAMES_DIR

NAMES_DIR holds the US Census Bureau name lists shipped by the PyPI package
`names` 0.3.0 (MIT licence; the lists themselves are public-domain US
government data): `pip download names==0.3.0 --no-deps --no-binary :all:`,
unpack, and pass its `names/` folder (dist.all.last, dist.female.first,
dist.male.first).

- compounds: hyphen compounds of words (outside quotes) in the harvested
  real errors, core/tests/data/real_errors/*.txt;
- slash forms: slash-joined words there that are wording, not paths (the
  list SLASH_FORMS_REVIEWED below, checked by hand against the harvest),
  plus read/write;
- pairs: two capitalised words side by side there (`Not Found`), and a noun
  that names a value (scrub.rs VALUE_NOUNS) with the word after it
  (`package name`), plus the pairs of PAIRS_REVIEWED below;
- names: the words that are also a given name or surname of the census
  lists, but for the words of a pair (a pair keeps both its words).

The harvest reads the messages with the Python port's tokenizer, which is
the reference's, rule for rule.
"""

import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "conformance", "ports", "python"))

import template_port as tp  # noqa: E402

# Slash-joined words of the harvest, read one by one: these are wording
# ("bad/illegal option"); git/config and file/child were parts of paths.
SLASH_FORMS_REVIEWED = {"bad/illegal", "create/copy", "create/read/write/append", "input/output", "read/write"}

# Pairs after a value noun that the harvest lacks, read by hand: wording of
# well-known tools' errors (ssh's "Host key verification failed", "user
# name", git's "remote end"), never a value.
PAIRS_REVIEWED = {
    ("host", "key"),
    ("key", "verification"),
    ("key", "file"),
    ("key", "type"),
    ("key", "size"),
    ("key", "error"),
    ("user", "name"),
    ("user", "agent"),
    ("user", "input"),
    ("user", "interrupt"),
    ("package", "manager"),
    ("remote", "end"),
    ("remote", "host"),
    ("server", "error"),
    ("service", "unavailable"),
    ("token", "type"),
    ("password", "authentication"),
    ("secret", "key"),
    ("database", "error"),
    ("table", "name"),
    ("column", "name"),
}

WORD = re.compile(r"[a-z]+('[a-z]+)?\Z")
TITLE = re.compile(r"[A-Z][a-z]+('s)?\Z")


def value_nouns():
    source = open(os.path.join(HERE, "scrub.rs")).read()
    block = source.split("pub const VALUE_NOUNS")[1].split("];")[0]
    return set(re.findall(r'"([a-z]+)"', block))


def main(names_dir):
    path = os.path.join(HERE, "vocabulary.txt")
    lines = open(path).read().split("\n")
    header = [line for line in lines if line.startswith("#")]
    words = [line for line in lines if line and not line.startswith("#") and WORD.match(line)]
    plain = set(words)
    nouns = value_nouns()
    compounds, slashes, pairs = set(), set(), set()
    stem = lambda core: core[:-2] if core.endswith("'s") else core
    for corpus in sorted(glob.glob(os.path.join(ROOT, "core/tests/data/real_errors/*.txt"))):
        for message in open(corpus).read().split("\n"):
            if not message or message.startswith("# "):
                continue
            line = tp.first_line(message)
            if line is None:
                continue
            tokens = tp.tokenize(tp.strip_ansi(tp.window(line)))
            parts = [None if token is None else tp.split_edges(token) for token in tokens]
            for index, part in enumerate(parts):
                if part is None:
                    continue
                lead, core, trail = part
                lower = core.lower()
                if re.fullmatch(r"[a-z]+(-[a-z]+)+", lower) and all(p in plain for p in lower.split("-")):
                    compounds.add(lower)
                if re.fullmatch(r"[a-z]+(/[a-z]+)+", lower) and lower in SLASH_FORMS_REVIEWED:
                    slashes.add(lower)
                following = parts[index + 1] if index + 1 < len(parts) else None
                if following is None or following[0]:
                    continue
                second = following[1]
                if (
                    not trail
                    and TITLE.match(core)
                    and TITLE.match(second)
                    and core.lower() in plain
                    and second.lower() in plain
                ):
                    pairs.add((core.lower(), second.lower()))
                if (
                    lower in nouns
                    and (trail == "" or (trail == ":" and index > 0))
                    and WORD.match(second.lower())
                    and stem(second.lower()) in plain
                    and second.lower() in plain
                ):
                    pairs.add((lower, second.lower()))
    slashes |= {"read/write"}
    pairs |= {pair for pair in PAIRS_REVIEWED if pair[0] in plain and pair[1] in plain}
    census = set()
    for name in ("dist.all.last", "dist.female.first", "dist.male.first"):
        for row in open(os.path.join(names_dir, name)):
            if row.strip():
                census.add(row.split()[0].lower())
    in_pairs = {word for pair in pairs for word in pair}
    names = sorted(word for word in plain if word in census and word not in in_pairs and "'" not in word)
    entries = set(words) | compounds | slashes | {" ".join(pair) for pair in pairs}
    entries |= {name[0].upper() + name[1:] for name in names}
    body = sorted(entries, key=lambda line: line.encode())
    open(path, "w").write("\n".join(header + body) + "\n")
    print(
        "%d words, %d compounds, %d slash forms, %d pairs, %d names"
        % (len(words), len(compounds), len(slashes), len(pairs), len(names))
    )


if __name__ == "__main__":
    main(sys.argv[1])
