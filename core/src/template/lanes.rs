//! Up to eight bytes read as one integer, and answers about each of them
//! found for all eight at once, in the byte's high bit.
//!
//! The template rules scan short words. A loop over a word's bytes that
//! stops at its end guesses that end wrong about once a word: by perf
//! samples the tokenizer's scan for word ends was a sixth of a template's
//! time, far more than its instructions. Eight bytes tested at once, and
//! the first answer found by counting zeros, take no branch that depends
//! on where in them the word ends.
//!
//! Every function here is held to its byte-by-byte meaning by the tests
//! below, over every byte value in every lane.

const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
const HIGH: u64 = ONES * 0x80;
/// The low seven bits of every byte.
const LOW: u64 = ONES * 0x7f;

/// At most 8 bytes as one little-endian integer, zero-padded, read by
/// loads of a fixed width (the first and last bytes, or the first and last
/// four, which overlap with equal bytes): copying bytes of any count into
/// a buffer and reading that back as one integer stalls the processor,
/// which cannot forward the narrow stores to the wide load. Bytes after the
/// eighth are not read.
pub(super) fn load(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    match (len, bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        (0, ..) => 0,
        (8.., ..) => bytes
            .first_chunk::<8>()
            .map_or(0, |all| u64::from_le_bytes(*all)),
        (4.., Some(head), Some(tail)) => {
            u64::from(u32::from_le_bytes(*head))
                | u64::from(u32::from_le_bytes(*tail)) << (8 * (len - 4))
        }
        _ => {
            let (middle, last) = (len / 2, len - 1);
            u64::from(bytes[0])
                | u64::from(bytes[middle]) << (8 * middle)
                | u64::from(bytes[last]) << (8 * last)
        }
    }
}

/// The eight bytes from `at`, zero-padded past the end of `bytes` (a zero
/// byte is a control character: it ends a word and is no letter).
pub(super) fn load_at(bytes: &[u8], at: usize) -> u64 {
    let end = bytes.len().min(at.saturating_add(8));
    bytes.get(at..end).map_or(0, load)
}

/// The high bit of each byte that is zero.
fn zero_bytes(lanes: u64) -> u64 {
    // Adding 0x7f to a byte's low bits sets its high bit unless they are
    // all clear; no byte carries into the next.
    !(((lanes & LOW) + LOW) | lanes) & HIGH
}

/// The high bit of each byte equal to `byte`.
fn bytes_equal(lanes: u64, byte: u8) -> u64 {
    zero_bytes(lanes ^ (ONES * u64::from(byte)))
}

/// The high bit of each byte that is not ASCII.
pub(super) fn non_ascii(lanes: u64) -> u64 {
    lanes & HIGH
}

/// The high bit of each byte whose low seven bits are at least `low` and
/// at most `high` (both below 0x80); for ASCII bytes, whether the byte is
/// in the range.
fn low_bits_within(lanes: u64, low: u8, high: u8) -> u64 {
    let seven = lanes & LOW;
    // Below 0x80 a byte plus (0x80 - low) reaches the high bit exactly
    // when it is at least `low`, and plus (0x7f - high) when it is beyond
    // `high`; neither sum carries into the next byte.
    let from_low = seven + ONES * u64::from(0x80 - low);
    let beyond_high = seven + ONES * u64::from(0x7f - high);
    from_low & !beyond_high & HIGH
}

/// The high bit of each byte that is not a word byte: not printable ASCII
/// (a space, a control, DEL or a byte of a wider char), or a quote mark
/// that opens a quote (`"`, `` ` ``, `'`). The tokenizer's word bytes are
/// the others.
pub(super) fn word_ends(lanes: u64) -> u64 {
    let printable = low_bits_within(lanes, 0x21, 0x7e) & !non_ascii(lanes);
    (!printable & HIGH)
        | bytes_equal(lanes, b'"')
        | bytes_equal(lanes, b'`')
        | bytes_equal(lanes, b'\'')
}

/// The high bit of each byte that is an ASCII capital.
pub(super) fn ascii_capitals(lanes: u64) -> u64 {
    low_bits_within(lanes, b'A', b'Z') & !non_ascii(lanes)
}

/// `lanes` with its ASCII capitals made lowercase.
pub(super) fn ascii_lowercase(lanes: u64) -> u64 {
    lanes | ascii_capitals(lanes) >> 2
}

/// The index of the first byte whose high bit is set in `marks`, or 8.
pub(super) fn first(marks: u64) -> usize {
    marks.trailing_zeros() as usize / 8
}

/// The end of the run of bytes from `at` that `marks_end` leaves unmarked:
/// the first marked byte's index, or the end of `bytes`. `marks_end` must
/// mark a zero byte, which pads the last lanes.
pub(super) fn run_end(bytes: &[u8], mut at: usize, marks_end: impl Fn(u64) -> u64) -> usize {
    while at < bytes.len() {
        let marks = marks_end(load_at(bytes, at));
        if marks != 0 {
            return (at + first(marks)).min(bytes.len());
        }
        at += 8;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each byte value in each of the eight lanes, beside neighbours that
    /// differ, so that a carry or a borrow between lanes would show.
    fn lanes_with_every_byte() -> impl Iterator<Item = [u8; 8]> {
        (0..8).flat_map(|lane| {
            (0..=255u8).flat_map(move |byte| {
                [0x00, 0x7f, 0x80, 0xff, b'A', b' '].map(move |fill| {
                    let mut bytes = [fill; 8];
                    bytes[lane] = byte;
                    bytes
                })
            })
        })
    }

    fn high_bits(bytes: [u8; 8], test: impl Fn(u8) -> bool) -> u64 {
        bytes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| test(b))
            .fold(0, |marks, (lane, _)| marks | 0x80 << (8 * lane))
    }

    #[test]
    fn every_lane_answers_as_its_byte_alone_would() {
        let is_word_byte = |b: u8| (0x21..0x7f).contains(&b) && !matches!(b, b'"' | b'`' | b'\'');
        for bytes in lanes_with_every_byte() {
            let lanes = u64::from_le_bytes(bytes);
            assert_eq!(
                word_ends(lanes),
                high_bits(bytes, |b| !is_word_byte(b)),
                "{bytes:?}"
            );
            assert_eq!(
                ascii_capitals(lanes),
                high_bits(bytes, |b| b.is_ascii_uppercase()),
                "{bytes:?}"
            );
            assert_eq!(
                non_ascii(lanes),
                high_bits(bytes, |b| !b.is_ascii()),
                "{bytes:?}"
            );
            assert_eq!(
                ascii_lowercase(lanes).to_le_bytes(),
                bytes.map(|b| b.to_ascii_lowercase()),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn a_load_reads_the_bytes_it_is_given_and_pads_with_zeros() {
        let bytes: Vec<u8> = (1..=12).collect();
        for start in 0..bytes.len() {
            for end in start..bytes.len() {
                let slice = &bytes[start..end];
                let mut padded = [0u8; 8];
                let kept = slice.len().min(8);
                padded[..kept].copy_from_slice(&slice[..kept]);
                assert_eq!(load(slice), u64::from_le_bytes(padded), "{slice:?}");
            }
            let mut padded = [0u8; 8];
            let kept = (bytes.len() - start).min(8);
            padded[..kept].copy_from_slice(&bytes[start..start + kept]);
            assert_eq!(load_at(&bytes, start), u64::from_le_bytes(padded));
        }
        assert_eq!(load_at(&bytes, bytes.len()), 0);
        assert_eq!(load_at(&bytes, usize::MAX), 0);
    }

    #[test]
    fn a_run_ends_where_a_scan_byte_by_byte_ends_it() {
        let text =
            "build-key.rs \"x\" a'b\u{e9}t\u{2028}z ....................long-run-of-word-bytes end";
        let bytes = text.as_bytes();
        let is_word_byte = |b: u8| (0x21..0x7f).contains(&b) && !matches!(b, b'"' | b'`' | b'\'');
        for at in 0..=bytes.len() + 2 {
            let expected = at.min(bytes.len())
                + bytes
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|&&b| is_word_byte(b))
                    .count();
            assert_eq!(run_end(bytes, at, word_ends), expected, "from {at}");
        }
    }
}
