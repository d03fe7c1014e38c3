//! Look-alike letters to plant disguised text with, read from Unicode's
//! confusables data (UTS #39 skeletons, through `unicode-security`) rather
//! than typed by hand: the Cyrillic letter whose skeleton is the skeleton
//! of a Latin one. The template, web and chat generators all plant from
//! here.

use std::sync::LazyLock;

use unicode_security::confusable_detection::skeleton;

/// The Latin letters the generators disguise: the ones attackers swap most
/// for a Cyrillic twin (`а`, `е`, `о`, `р`, `с`, `і`, `х`, `у`, `Ѕ`, …).
pub const DISGUISED: &str = "aeopcixyAEOPSI";

/// The Cyrillic block, where the twins are looked up.
const CYRILLIC: std::ops::RangeInclusive<u32> = 0x0400..=0x04FF;

static TWINS: LazyLock<Vec<(char, char)>> = LazyLock::new(|| {
    DISGUISED
        .chars()
        .filter_map(|latin| {
            let target: String = skeleton(&latin.to_string()).collect();
            CYRILLIC
                .clone()
                .filter_map(char::from_u32)
                .find(|&c| skeleton(&c.to_string()).eq(target.chars()))
                .map(|twin| (latin, twin))
        })
        .collect()
});

/// The Cyrillic letter that Unicode lists as confusable with `c`, for the
/// letters of [`DISGUISED`].
pub fn cyrillic_twin(c: char) -> Option<char> {
    TWINS
        .iter()
        .find(|(latin, _)| *latin == c)
        .map(|(_, twin)| *twin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_disguised_letter_has_a_cyrillic_twin() {
        for latin in DISGUISED.chars() {
            let twin = cyrillic_twin(latin).unwrap_or_else(|| panic!("no twin for {latin:?}"));
            assert!(CYRILLIC.contains(&u32::from(twin)), "{latin:?} -> {twin:?}");
        }
        assert_eq!(cyrillic_twin('a'), Some('\u{0430}'));
        assert_eq!(cyrillic_twin('S'), Some('\u{0405}'));
    }
}
