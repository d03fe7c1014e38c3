"""Character classes the boundaries share, as core/src/char_class.rs has
them: line breaks (Python's splitlines set) and the format characters that
render as nothing. One table for the template, chat and web modules."""

# The line breaks other than `\n` (is_line_break_but_lf).
LINE_BREAKS_BUT_LF = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

# Every line break (is_line_break).
LINE_BREAKS = frozenset("\n" + LINE_BREAKS_BUT_LF)

# Invisible format characters, as sorted inclusive code point ranges.
_INVISIBLE_FORMAT_RANGES = (
    (0xAD, 0xAD),
    (0x34F, 0x34F),
    (0x61C, 0x61C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
    (0xE0100, 0xE01EF),
)


def is_line_break(c):
    """char_class::is_line_break."""
    return c in LINE_BREAKS


def is_invisible_format(c):
    """char_class::is_invisible_format: format characters that show nothing."""
    o = ord(c)
    if o < 0xAD:
        return False
    for low, high in _INVISIBLE_FORMAT_RANGES:
        if o < low:
            return False
        if o <= high:
            return True
    return False
