//! Messages over the fenced vocabulary ([`KEPT`] and [`FENCED`]): the
//! fenced words are vocabulary words, so they would survive if they were
//! not quoted, on a later line, inside a path or URL, or disguised; these
//! builders put fenced words only where they must not survive, and record
//! each one (bare, without a possessive) among the case's secrets. They are
//! built for [`Lexicon::fenced`]'s scrubber.

use arbitrary::{Result, Unstructured};

use super::template_grammar::{
    Case, Fragment, LINE_BREAKS, Lexicon, QUOTES, api_secret, cased, disguise, file_name,
    identifier, number, path, personal_name, placeholder_shaped, punctuation, secret_word,
    weighted,
};

/// Words of the fenced vocabulary that may appear in a template.
pub const KEPT: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "can't", "don't", "it's", "won't", "isn't",
];

/// Words of the fenced vocabulary that the fenced builders only ever place
/// where they must not survive. None is a substring of a kept word, a
/// placeholder name or a known identifier.
pub const FENCED: &[&str] = &[
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "yankee", "zulu",
];

/// A kept word, in any case.
fn kept_word(u: &mut Unstructured<'_>) -> Result<String> {
    let word = *u.choose(KEPT)?;
    cased(u, word)
}

/// Kept words joined by spaces, `count` of them.
fn kept_words(u: &mut Unstructured<'_>, count: std::ops::RangeInclusive<usize>) -> Result<String> {
    let count = u.int_in_range(count)?;
    let words = (0..count)
        .map(|_| kept_word(u))
        .collect::<Result<Vec<_>>>()?;
    Ok(words.join(" "))
}

/// A fenced word in any case, recorded in `secrets`.
fn fenced_bare_word(u: &mut Unstructured<'_>, secrets: &mut Vec<String>) -> Result<String> {
    let bare = *u.choose(FENCED)?;
    let word = cased(u, bare)?;
    secrets.push(word.clone());
    Ok(word)
}

/// A fenced word, sometimes as a possessive, recorded in `secrets`.
fn fenced_word(u: &mut Unstructured<'_>, secrets: &mut Vec<String>) -> Result<String> {
    let word = fenced_bare_word(u, secrets)?;
    Ok(if u.arbitrary()? {
        format!("{word}'s")
    } else {
        word
    })
}

/// A fenced word, sometimes as a possessive, as a case of its own.
fn fenced_word_case(u: &mut Unstructured<'_>) -> Result<Case> {
    let mut secrets = Vec::new();
    let text = fenced_word(u, &mut secrets)?;
    Ok(Case { text, secrets })
}

/// Fenced words joined by spaces, recorded in `secrets`.
fn fenced_words(
    u: &mut Unstructured<'_>,
    secrets: &mut Vec<String>,
    count: std::ops::RangeInclusive<usize>,
) -> Result<String> {
    let count = u.int_in_range(count)?;
    let words = (0..count)
        .map(|_| fenced_word(u, secrets))
        .collect::<Result<Vec<_>>>()?;
    Ok(words.join(" "))
}

/// Kept words around `middle`, glued by spaces or framing punctuation.
pub fn fenced_message(u: &mut Unstructured<'_>, middle: Fragment) -> Result<Case> {
    let lexicon = Lexicon::fenced();
    let before = kept_words(u, 0..=5)?;
    let open = *u.choose(&[" ", ": ", " (", " at "])?;
    let mut case = Case::plain(format!("{before}{open}"));
    case.push(&middle(u, lexicon)?);
    case.text
        .push_str(u.choose(&[" ", ", ", ") ", ": ", ". ", " - "])?);
    case.text.push_str(&kept_words(u, 0..=5)?);
    Ok(case)
}

/// A path whose spaced middle holds fenced words, then maybe a
/// parenthesized group, then a tail that continues the path:
/// `/Users/x/kilo lima/y.md`, `C:\Users\x\kilo lima (2)\y.md`,
/// `~/x/kilo (lima) y.md`, `/Users/x/kilo lima/tango`.
pub fn fenced_path(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let mut fenced = Vec::new();
    let root = *u.choose(&["/Users/", "/home/", "~/", "./", "C:\\Users\\", "\\\\"])?;
    let owner = secret_word(u)?;
    let middle = fenced_words(u, &mut fenced, 1..=3)?;
    let group = match u.int_in_range(0..=2)? {
        0 => None,
        1 => Some(fenced_words(u, &mut fenced, 1..=2)?),
        _ => Some(u.int_in_range(0..=99u8)?.to_string()),
    };
    let tail = match u.int_in_range(0..=4)? {
        0 => file_name(u)?,
        1 => format!("{}/{}", fenced_word(u, &mut fenced)?, file_name(u)?),
        2 => format!("{}/{}", fenced_word(u, &mut fenced)?, secret_word(u)?),
        3 => format!(
            "{}/{}",
            fenced_word(u, &mut fenced)?,
            fenced_word(u, &mut fenced)?
        ),
        _ => format!(
            "{}.{}",
            fenced_word(u, &mut fenced)?,
            fenced_bare_word(u, &mut fenced)?
        ),
    };
    let separator = if root.contains('\\') { "\\" } else { "/" };
    let tail = tail.replace('/', separator);
    let mut text = format!("{root}{owner}{separator}{middle}");
    match group {
        // `New folder (2)\x.txt`
        Some(group) if u.arbitrary()? => text.push_str(&format!(" ({group}){separator}")),
        // `Report (final) draft.pdf`
        Some(group) => text.push_str(&format!(" ({group}) ")),
        None => text.push(' '),
    }
    text.push_str(&tail);
    let mut case = Case::with(text, &[owner, tail], lexicon);
    case.secrets.extend(fenced);
    Ok(case)
}

/// URLs and addresses made of fenced words and secrets.
pub fn fenced_url_or_email(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let mut fenced = Vec::new();
    let mut case = match u.int_in_range(0..=9)? {
        0 => {
            let scheme = *u.choose(&["https://", "http://", "ftp://", "www.", ""])?;
            let host = secret_word(u)?;
            let count = u.int_in_range(1..=3)?;
            let path = (0..count)
                .map(|_| fenced_word(u, &mut fenced))
                .collect::<Result<Vec<_>>>()?;
            let mut text = format!("{scheme}{host}.com/{}", path.join("/"));
            if u.arbitrary()? {
                let key = fenced_word(u, &mut fenced)?;
                let value = fenced_word(u, &mut fenced)?;
                text.push_str(&format!("?{key}={value}"));
            }
            Case::with(text, &[host], lexicon)
        }
        1 => {
            let (user, password) = (fenced_word(u, &mut fenced)?, fenced_word(u, &mut fenced)?);
            let host = secret_word(u)?;
            Case::with(
                format!("https://{user}:{password}@{host}.ch/x"),
                &[host],
                lexicon,
            )
        }
        2 => {
            let (user, password) = (fenced_word(u, &mut fenced)?, fenced_word(u, &mut fenced)?);
            let host = secret_word(u)?;
            Case::with(format!("{user}:{password}@{host}"), &[host], lexicon)
        }
        3 => {
            let local = fenced_word(u, &mut fenced)?;
            let dotted = fenced_word(u, &mut fenced)?;
            let tag = fenced_word(u, &mut fenced)?;
            let host = secret_word(u)?;
            Case::with(
                format!("{local}.{dotted}+{tag}@{host}.ch"),
                &[host],
                lexicon,
            )
        }
        4 => {
            let (local, host) = (fenced_word(u, &mut fenced)?, fenced_word(u, &mut fenced)?);
            Case::plain(format!("{local}@{host}"))
        }
        5 => {
            let (key, value) = (fenced_word(u, &mut fenced)?, fenced_word(u, &mut fenced)?);
            Case::plain(format!("{}={value}", key.to_uppercase()))
        }
        6 => Case::plain(format!("${}", fenced_word(u, &mut fenced)?.to_uppercase())),
        7 => {
            let (a, b) = (fenced_word(u, &mut fenced)?, fenced_word(u, &mut fenced)?);
            Case::plain(format!("{a}_{b}"))
        }
        8 => {
            let (a, b) = (fenced_word(u, &mut fenced)?, fenced_word(u, &mut fenced)?);
            Case::plain(format!("{a}::{b}"))
        }
        _ => api_secret(u, lexicon)?,
    };
    case.secrets.extend(fenced);
    Ok(case)
}

/// Fenced words disguised with look-alikes, and personal names.
pub fn fenced_look_alike(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    if u.arbitrary()? {
        let mut case = fenced_word_case(u)?;
        case.text = disguise(u, &case.text)?;
        Ok(case)
    } else {
        personal_name(u, lexicon)
    }
}

/// Placeholder-shaped tokens holding fenced words, names and numbers.
pub fn fenced_placeholder_shaped(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let mut fenced = Vec::new();
    let mut case = match u.int_in_range(0..=7)? {
        0 => placeholder_shaped(u, lexicon)?,
        1 => {
            let words = fenced_words(u, &mut fenced, 1..=2)?;
            let after = *u.choose(&["", "s", "›", "‹n›"])?;
            Case::plain(format!("‹{words}›{after}"))
        }
        2 => Case::plain(format!("‹n›{}", fenced_word(u, &mut fenced)?)),
        3 => Case::plain(format!("{}‹text›", fenced_word(u, &mut fenced)?)),
        4 => Case::secret("‹anna›", lexicon),
        5 => Case::secret("‹4111111111111111›", lexicon),
        6 => Case::secret("‹/home/x›", lexicon),
        _ => Case::plain("‹n›s"),
    };
    case.secrets.extend(fenced);
    Ok(case)
}

/// A first line: kept words and grammar fragments, no line break and no
/// fenced word, ending now and then in an open quote.
fn first_line(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let mut case = Case::plain(kept_words(u, 2..=3)?);
    for _ in 0..u.int_in_range(0..=7)? {
        case.text.push(' ');
        let fragment = match u.int_in_range(0..=8)? {
            0..=3 => Case::plain(kept_word(u)?),
            4 => path(u, lexicon)?,
            5 => number(u, lexicon)?,
            6 => identifier(u, lexicon)?,
            7 => personal_name(u, lexicon)?,
            _ => punctuation(u, lexicon)?,
        };
        case.push(&fragment);
    }
    if u.arbitrary()? {
        let (open, _) = *u.choose(QUOTES)?;
        let word = secret_word(u)?;
        case.text.push(' ');
        case.push(&Case::with(format!("{open}{word}"), &[word], lexicon));
    }
    Ok(case)
}

/// A later line: fenced words, which are vocabulary, and secrets.
fn later_line(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let mut case = Case::default();
    for index in 0..u.int_in_range(1..=7)? {
        if index > 0 {
            case.text.push(' ');
        }
        let word = match u.int_in_range(0..=5)? {
            0..=2 => fenced_word_case(u)?,
            3 => Case::secret(secret_word(u)?, lexicon),
            4 => path(u, lexicon)?,
            _ => personal_name(u, lexicon)?,
        };
        case.push(&word);
    }
    Ok(case)
}

/// A message of several lines and the first line that shows anything:
/// blank lines of every break kind, a first line, then later lines of
/// fenced words and secrets after one kind of line break.
#[derive(Clone, Debug)]
pub struct MultiLine {
    /// The whole message; its secrets are those of every line.
    pub case: Case,
    /// The first non-blank line alone.
    pub first_line: String,
}

pub fn multi_line(u: &mut Unstructured<'_>) -> Result<MultiLine> {
    let lexicon = Lexicon::fenced();
    let mut case = Case::default();
    for _ in 0..u.int_in_range(0..=2)? {
        let count = u.int_in_range(0..=3)?;
        for _ in 0..count {
            case.text.push(*u.choose(&[' ', '\t', '\u{a0}'])?);
        }
        case.text.push_str(u.choose(LINE_BREAKS)?);
    }
    let first = first_line(u, lexicon)?;
    case.push(&first);
    let line_break = *u.choose(LINE_BREAKS)?;
    for _ in 0..u.int_in_range(1..=3)? {
        case.text.push_str(line_break);
        case.push(&later_line(u, lexicon)?);
    }
    Ok(MultiLine {
        case,
        first_line: first.text,
    })
}

/// A quote of fenced words in kept words: every quote kind, after a
/// contraction, with apostrophes inside, unterminated, over 300 chars, or
/// placed so that the 400-char window cuts it.
pub fn quoted_message(u: &mut Unstructured<'_>) -> Result<Case> {
    let lexicon = Lexicon::fenced();
    let mut case = Case::plain(kept_words(u, 0..=5)?);
    if u.arbitrary()? {
        let contraction =
            *u.choose(&["can't", "don't", "it's", "won't", "isn't", "can’t", "don’t"])?;
        case.text.push(' ');
        case.text.push_str(contraction);
        if u.arbitrary()? {
            case.text.push_str(" alpha");
        }
    }
    if u.arbitrary()? {
        let pad_to = u.int_in_range(370..=399)?;
        while case.text.chars().count() < pad_to {
            case.text.push_str(" bravo");
        }
    }
    let (open, close) = *u.choose(QUOTES)?;
    case.text.push(' ');
    case.text.push_str(open);
    let count = if u.int_in_range(0..=3)? < 3 {
        u.int_in_range(1..=5)?
    } else {
        u.int_in_range(50..=89)?
    };
    for index in 0..count {
        if index > 0 {
            case.text.push(' ');
        }
        let word = match u.int_in_range(0..=5)? {
            0..=3 => fenced_word_case(u)?,
            4 => Case::secret(secret_word(u)?, lexicon),
            _ => Case::plain("it's"),
        };
        case.push(&word);
    }
    if u.arbitrary()? {
        case.text.push_str(close);
        case.text.push(' ');
        case.text.push_str(&kept_words(u, 0..=5)?);
    }
    Ok(case)
}

/// Text that holds no class phrase: every phrase has an ASCII vowel, and
/// this text has none (non-ASCII letters are not folded by the matcher).
pub fn unrelated_text(u: &mut Unstructured<'_>) -> Result<String> {
    static CHARS: std::sync::LazyLock<Vec<char>> = std::sync::LazyLock::new(|| {
        "bcdfghjklmnpqrstvwxzBCDFGHJKLMNPQRSTVWXZ0123456789 .,:;/@#=_\\-\n\t\u{2028}"
            .chars()
            .chain('а'..='я')
            .chain('À'..='ÿ')
            .collect()
    });
    let count = u.int_in_range(0..=60)?;
    (0..count).map(|_| u.choose(&CHARS).copied()).collect()
}

/// A fenced case of any builder, for the `template_structured` target.
pub fn any_fenced(u: &mut Unstructured<'_>) -> Result<Case> {
    let middle = weighted(
        u,
        &[
            (1, fenced_path as Fragment),
            (1, fenced_url_or_email),
            (1, fenced_look_alike),
            (1, fenced_placeholder_shaped),
        ],
    )?;
    Ok(match u.int_in_range(0..=5)? {
        0..=3 => fenced_message(u, middle)?,
        4 => quoted_message(u)?,
        _ => multi_line(u)?.case,
    })
}
