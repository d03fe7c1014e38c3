//! The lines of a text in one pass: each 64-byte block is read once into
//! two masks, where its line feeds lie and where its unplain bytes lie
//! (any byte but printable ASCII and the tab), and every line is cut from
//! them with a few bit operations. A strict parse reads a plain line on
//! the readers' fast path, so it must know of every line whether it is
//! plain, and where its first unplain byte lies when it is not; a prompt's
//! lines are short (prose: about 60 bytes), so a search per line for its
//! end (`memchr`) and another for its first unplain byte cost more in
//! setting up than in reading.
//!
//! On x86 the masks come from SSE2 compares and `pmovmskb`, through
//! `safe_arch`'s safe wrappers: the compiler does not turn a loop that
//! gathers one bit per byte into a byte mask (it reads byte by byte, or
//! gathers the bits and then shuffles them again), and only a mask lets a
//! line's end be found with `trailing_zeros`. Other targets read the same
//! masks byte by byte ([`scalar_masks`]), which the tests hold the SSE2
//! masks to.

use std::ops::ControlFlow;

/// One line of a text: its 1-based number, where it starts, and where its
/// body ends, without the one `\r` that a CRLF line ending leaves before
/// the `\n`. A `\r` at the very end of the text has no `\n` after it and
/// stays content.
pub(super) struct Line<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pub number: usize,
    pub start: usize,
    pub end: usize,
    pub crlf: bool,
    /// Where the first unplain byte of the body lies, from its start, or
    /// its length when it is plain (always its length when the lines were
    /// not classified).
    pub unplain: usize,
}

impl<'a> Line<'a> {
    pub fn body(&self) -> &'a str {
        self.text.get(self.start..self.end).unwrap_or_default()
    }

    /// The body's bytes, which the fast paths read: cut without the char
    /// boundary tests of [`Line::body`].
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// Whether a line that holds `b` is not plain: `b` is neither printable
/// ASCII nor a tab (nor a line feed, which no line holds).
#[cfg(any(
    test,
    not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))
))]
fn is_unplain(b: u8) -> bool {
    !(0x20..0x7f).contains(&b) && b != b'\t' && b != b'\n'
}

/// One block's masks: bit `i` of `feeds` is set when its byte `i` is a
/// line feed, of `unplain` when it [`is_unplain`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Masks {
    feeds: u64,
    unplain: u64,
}

/// The masks read byte by byte: the meaning of [`Masks`], and what other
/// targets than x86 use.
#[cfg(any(
    test,
    not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))
))]
fn scalar_masks(block: &[u8; 64], classify: bool) -> Masks {
    let mut masks = Masks {
        feeds: 0,
        unplain: 0,
    };
    for (i, &b) in block.iter().enumerate() {
        masks.feeds |= u64::from(b == b'\n') << i;
        if classify {
            masks.unplain |= u64::from(is_unplain(b)) << i;
        }
    }
    masks
}

#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
fn sse2_masks(block: &[u8; 64], classify: bool) -> Masks {
    use safe_arch::{
        add_i8_m128i, cmp_eq_mask_i8_m128i, cmp_lt_mask_i8_m128i, load_unaligned_m128i,
        move_mask_i8_m128i, set_splat_i8_m128i,
    };
    let (sixteens, _) = block.as_chunks::<16>();
    let chunks: [safe_arch::m128i; 4] = std::array::from_fn(|k| load_unaligned_m128i(&sixteens[k]));
    let mask_of = |test: fn(safe_arch::m128i) -> safe_arch::m128i| {
        (0..4).fold(0u64, |mask, k| {
            let bits = move_mask_i8_m128i(test(chunks[k])) as u16;
            mask | u64::from(bits) << (16 * k)
        })
    };
    let feeds = mask_of(|bytes| cmp_eq_mask_i8_m128i(bytes, set_splat_i8_m128i(b'\n' as i8)));
    if !classify {
        return Masks { feeds, unplain: 0 };
    }
    // One more than a byte, read as signed, is below 0x21 when the byte is
    // not printable ASCII: a control (0x00..0x1F, to 0x01..0x20), DEL and
    // every byte above it (0x7F..0xFF, to 0x80..0x00).
    let mut unplain = mask_of(|bytes| {
        let one_more = add_i8_m128i(bytes, set_splat_i8_m128i(1));
        cmp_lt_mask_i8_m128i(one_more, set_splat_i8_m128i(0x21))
    }) & !feeds;
    if unplain != 0 {
        // Tabs are plain: asked only of a block that holds some byte
        // beyond printable ASCII and line feeds.
        unplain &= !mask_of(|bytes| cmp_eq_mask_i8_m128i(bytes, set_splat_i8_m128i(b'\t' as i8)));
    }
    Masks { feeds, unplain }
}

#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
use sse2_masks as block_masks;

/// Calls `each` with every line of `text`, split at `\n`, in order, until
/// it breaks; with `CLASSIFY`, each line is told plain or not (see
/// [`Line::unplain`]). Inlined into its caller, so that the masks and the
/// line's bounds stay in registers: a parse's every line passes here.
#[inline(always)]
pub(super) fn for_each_line<'a, const CLASSIFY: bool, B>(
    text: &'a str,
    mut each: impl FnMut(Line<'a>) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let bytes = text.as_bytes();
    let (blocks, rest) = bytes.as_chunks::<64>();
    // The last bytes padded with spaces, which are plain and no line feed.
    let mut tail = [b' '; 64];
    tail[..rest.len()].copy_from_slice(rest);
    let mut number = 0;
    let mut start = 0;
    // The first unplain byte of the line: blocks are read in order, so
    // the least position seen is the first.
    let mut unplain = usize::MAX;
    for (index, block) in blocks.iter().chain([&tail]).enumerate() {
        let base = index * 64;
        let Masks {
            mut feeds,
            unplain: mut odd,
        } = block_masks(block, CLASSIFY);
        if index == blocks.len() {
            // The text's end ends its last line, as a line feed would.
            feeds |= 1 << rest.len();
        }
        while feeds != 0 {
            // The bits up to and through the line's end.
            let through = feeds ^ (feeds - 1);
            let before = odd & (through >> 1);
            if before != 0 {
                unplain = unplain.min(base + before.trailing_zeros() as usize);
            }
            let end = base + feeds.trailing_zeros() as usize;
            feeds &= feeds - 1;
            odd &= !through;
            // A `\r` at the very end of the text has no `\n` after it.
            // Classified, a line without an unplain byte has no `\r`.
            let crlf = (!CLASSIFY || unplain != usize::MAX)
                && end > start
                && end < bytes.len()
                && bytes[end - 1] == b'\r';
            let body_end = end - usize::from(crlf);
            number += 1;
            each(Line {
                text,
                // In range: `start` is past the last line's end, `end` is
                // this one's (or the text's), and a `\r` is dropped only
                // from a line that has one.
                bytes: &bytes[start..body_end],
                number,
                start,
                end: body_end,
                crlf,
                unplain: if unplain == usize::MAX {
                    body_end - start
                } else {
                    unplain.min(body_end).saturating_sub(start)
                },
            })?;
            start = end + 1;
            unplain = usize::MAX;
        }
        if odd != 0 {
            unplain = unplain.min(base + odd.trailing_zeros() as usize);
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_masks_are_the_bytes_read_one_by_one() {
        // Every byte value at every place of a block, among bytes of every
        // class: the masks the parse uses are the scalar reading's.
        let classes = [
            b'a', b'\n', b'\t', b' ', b'~', 0x7f, 0x80, 0xff, 0x1f, b'\r', 0,
        ];
        for value in 0..=255u8 {
            for place in 0..64 {
                let mut block = [0u8; 64];
                for (i, b) in block.iter_mut().enumerate() {
                    *b = classes[(i * 7 + usize::from(value)) % classes.len()];
                }
                block[place] = value;
                for classify in [false, true] {
                    assert_eq!(
                        block_masks(&block, classify),
                        scalar_masks(&block, classify),
                        "{value:#x} at {place}"
                    );
                }
            }
        }
    }

    /// The lines as `split('\n')` reads them, each with its first unplain
    /// byte found by a byte loop: what [`lines`] is held to.
    fn lines_one_by_one(text: &str) -> Vec<(usize, usize, &str, bool, usize)> {
        let mut start = 0;
        let mut out = Vec::new();
        let count = text.split('\n').count();
        for (index, line) in text.split('\n').enumerate() {
            let last = index + 1 == count;
            let (body, crlf) = match line.strip_suffix('\r') {
                Some(body) if !last => (body, true),
                _ => (line, false),
            };
            let unplain = body.bytes().position(is_unplain).unwrap_or(body.len());
            out.push((index + 1, start, body, crlf, unplain));
            start += line.len() + 1;
        }
        out
    }

    fn scanned<const CLASSIFY: bool>(text: &str) -> Vec<(usize, usize, &str, bool, usize)> {
        let mut got = Vec::new();
        let _ = for_each_line::<CLASSIFY, ()>(text, |line| {
            assert_eq!(line.bytes(), line.body().as_bytes());
            got.push((
                line.number,
                line.start,
                line.body(),
                line.crlf,
                line.unplain,
            ));
            ControlFlow::Continue(())
        });
        got
    }

    #[test]
    fn the_one_scan_cuts_the_lines_and_finds_their_unplain_bytes_as_a_byte_loop_does() {
        // Random texts of short and long lines, CRLF and lone `\r`, tabs,
        // controls and chars beyond ASCII, at every offset of the blocks.
        let pieces = [
            "a",
            "user:",
            " ",
            "\t",
            "\n",
            "\r\n",
            "\r",
            "\u{a0}",
            "é",
            "\u{7f}",
            "\u{1}",
            "\u{2028}",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "\n\n",
            "€",
        ];
        let mut next = crate::xorshift::xorshift(0x51f1_5e3d_0bad_cafe);
        let (mut texts, mut unplain_lines) = (0, 0);
        for _ in 0..3_000 {
            let text: String = (0..(next() % 40))
                .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                .collect();
            let expected = lines_one_by_one(&text);
            assert_eq!(scanned::<true>(&text), expected, "{text:?}");
            // Unclassified, every line reads as plain.
            let plain: Vec<_> = expected
                .iter()
                .map(|&(number, start, body, crlf, _)| (number, start, body, crlf, body.len()))
                .collect();
            assert_eq!(scanned::<false>(&text), plain, "{text:?}");
            texts += 1;
            unplain_lines += expected.iter().filter(|line| line.4 < line.2.len()).count();
        }
        assert!(texts == 3_000 && unplain_lines > 5_000, "{unplain_lines}");
        let mut count = 0;
        let _ = for_each_line::<true, ()>("", |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(count, 1);
    }
}
