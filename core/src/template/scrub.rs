//! The scrubbing pass: first line, window, quotes, tokens, placeholders.
//!
//! Every piece of the output is built from the classifier's own alphabet:
//! one of the seven placeholders, a vocabulary word or known identifier
//! matched in the input, or the framing punctuation around a token. Nothing
//! else of the input is ever copied, so a digit, a path or a name cannot
//! reach the template however the input is shaped.

use arrayvec::ArrayVec;

use super::lanes;
use super::vocabulary::{Vocabulary, WordClass};
use super::{MAX_INPUT_CHARS, MAX_TEMPLATE_CHARS, PLACEHOLDERS, Placeholder};
use crate::char_class::{find_line_break, is_invisible_format, is_line_break};

/// Punctuation that frames a token without being part of it. `…` is here so
/// that a truncated template, whose last word carries it, is a fixed point.
const EDGE: &[char] = &[
    '(', ')', '[', ']', '{', '}', ',', ';', ':', '.', '!', '?', '<', '>', '…',
];

/// A token of punctuation alone is kept when made of these (`-`, `->`,
/// `(/)`). A lone `'` is not: followed by the `…` of a cut template it would
/// open a quote when the template is read again.
fn is_kept_punctuation(c: char) -> bool {
    matches!(c, '-' | '_' | '/') || EDGE.contains(&c)
}

/// [`EDGE`]'s ASCII characters as a byte table, for the per-token scans.
const EDGE_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut index = 0;
    while index < EDGE.len() {
        let c = EDGE[index] as u32;
        if c < 128 {
            table[c as usize] = true;
        }
        index += 1;
    }
    table
};

/// Printable ASCII that neither separates words nor opens a quote: the
/// bytes the tokenizer only has to step over.
const WORD_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0x21;
    while b < 0x7f {
        table[b] = !matches!(b as u8, b'"' | b'`' | b'\'');
        b += 1;
    }
    table
};

/// The characters a template may hold besides ASCII letters.
pub const SAFE_PUNCTUATION: &str = " .,:;()[]{}<>!?'-_/‹›…";

/// Whether every character of `template` is of the template charset,
/// checked byte by byte: the ASCII ones by table, the only non-ASCII ones
/// allowed (`‹`, `›`, `…`) by their three bytes.
fn is_safe_template(template: &str) -> bool {
    const SAFE_BYTE: [bool; 256] = {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 128 {
            table[b] = is_safe_char(b as u8 as char);
            b += 1;
        }
        table
    };
    let mut rest = template.as_bytes();
    loop {
        let safe = rest
            .iter()
            .take_while(|&&b| SAFE_BYTE[usize::from(b)])
            .count();
        rest = match &rest[safe..] {
            [] => return true,
            [0xE2, 0x80, 0xB9 | 0xBA | 0xA6, after @ ..] => after,
            _ => return false,
        };
    }
}

/// A character of the template charset: an ASCII letter or
/// [`SAFE_PUNCTUATION`].
const fn is_safe_char(c: char) -> bool {
    c.is_ascii_alphabetic()
        || matches!(
            c,
            ' ' | '.'
                | ','
                | ':'
                | ';'
                | '('
                | ')'
                | '['
                | ']'
                | '{'
                | '}'
                | '<'
                | '>'
                | '!'
                | '?'
                | '\''
                | '-'
                | '_'
                | '/'
                | '‹'
                | '›'
                | '…'
        )
}

/// The parameter names tool errors mention to explain themselves (the
/// seed's list): kept verbatim, since they name no user data.
pub const KNOWN_IDENTIFIERS: &[&str] = &[
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
];

/// Characters that separate tokens: whitespace and control characters,
/// which carry no wording and must never glue two tokens into one.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// A line that shows nothing: whitespace, control and invisible format
/// characters and colour codes only (a tool's colour reset before its
/// message is not the message).
fn is_blank(line: &str) -> bool {
    // The common case: a trimmed line that starts with a printable ASCII
    // character shows something.
    if line
        .as_bytes()
        .first()
        .is_some_and(|b| (0x21..0x7f).contains(b))
    {
        return false;
    }
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = after_csi(rest) {
            rest = after;
            continue;
        }
        if !is_separator(c) && !is_invisible_format(c) {
            return false;
        }
        rest = &rest[c.len_utf8()..];
    }
    true
}

/// The text after the colour code `text` starts with: `ESC [`, parameter
/// bytes (`0`..=`?`) and one final byte (`@`..=`~`) or the end of the
/// text, or `None` when `text` starts with no such sequence. A sequence of any other shape (a space, a
/// quote, a letter of another script after `ESC [`) is not one: only its
/// `ESC` goes, as a control character, so the printable text after it is
/// read as text and never swallowed (`ESC [ "name"` keeps its quote).
fn after_csi(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("\u{1b}[")?;
    let parameters = rest
        .bytes()
        .take_while(|b| (0x30..=0x3f).contains(b))
        .count();
    match rest.as_bytes().get(parameters) {
        Some(0x40..=0x7e) => Some(&rest[parameters + 1..]),
        // Cut by the end of the text: nothing printable follows it.
        None => Some(""),
        Some(_) => None,
    }
}

/// The first line that shows anything, trimmed.
fn first_line(message: &str) -> Option<&str> {
    let mut rest = message;
    loop {
        let (line, next) = match find_line_break(rest, is_line_break) {
            Some((end, len)) => (&rest[..end], Some(&rest[end + len..])),
            None => (rest, None),
        };
        let line = line.trim();
        if !is_blank(line) {
            return Some(line);
        }
        rest = next?;
    }
}

/// At most [`MAX_INPUT_CHARS`] chars of `line`. When the line is longer, the
/// token cut by the limit is dropped whole: half a name or half a number is
/// still data, and a cut quote is then unterminated, which the quote scanner
/// hides to the end.
fn window(line: &str) -> &str {
    if line.len() <= MAX_INPUT_CHARS {
        return line;
    }
    let Some((cut, next)) = line.char_indices().nth(MAX_INPUT_CHARS) else {
        return line;
    };
    let head = &line[..cut];
    if is_separator(next) {
        return head;
    }
    match head.rfind(is_separator) {
        Some(space) => &head[..space],
        None => "",
    }
}

/// Removes ANSI colour codes (`ESC [ parameters final`), which colourful
/// tools glue to their words; without this `\x1b[31merror` would read as a
/// number.
fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    if memchr::memchr(0x1b, text.as_bytes()).is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut clean = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(escape) = rest.find('\u{1b}') {
        clean.push_str(&rest[..escape]);
        rest = &rest[escape..];
        match after_csi(rest) {
            Some(after) => rest = after,
            None => {
                // A lone ESC is a control character, a separator: it is
                // kept as one so that it glues no two words together.
                clean.push('\u{1b}');
                rest = &rest[1..];
            }
        }
    }
    clean.push_str(rest);
    std::borrow::Cow::Owned(clean)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Quoted,
}

/// Every token takes at least one char of the window, which holds at most
/// [`MAX_INPUT_CHARS`]: so the tokens, and the pieces written from them,
/// always fit on the stack, and a push never finds them full (were one to,
/// the token or piece would be left out: less of the input in the
/// template, never more).
type Tokens<'a> = ArrayVec<Token<'a>, MAX_INPUT_CHARS>;
type Pieces = ArrayVec<Piece, MAX_INPUT_CHARS>;

/// The closing marks of a quote opened by `open`, if `open` opens one.
fn closers_of(open: char) -> Option<&'static [char]> {
    Some(match open {
        '"' => &['"'],
        '`' => &['`'],
        '\'' => &['\''],
        '“' => &['”', '“'],
        '„' => &['“', '”'],
        '‘' | '‚' => &['’', '‘'],
        '«' => &['»'],
        '「' => &['」'],
        '『' => &['』'],
        _ => return None,
    })
}

/// A single quote mark that may be an apostrophe: `can't`, `file's`.
fn is_apostrophe_like(c: char) -> bool {
    matches!(c, '\'' | '’')
}

/// The char at byte `at` of `text` and its length; ASCII without decoding.
fn char_at(text: &str, at: usize) -> Option<(char, usize)> {
    let byte = *text.as_bytes().get(at)?;
    if byte.is_ascii() {
        return Some((char::from(byte), 1));
    }
    let c = text.get(at..)?.chars().next()?;
    Some((c, c.len_utf8()))
}

/// Splits the window into words and quoted spans, in one pass.
///
/// A `'` opens a quote only after a non-alphanumeric character (a space
/// after it does not stop it: `' private-key '` is a quote padded with
/// spaces), and closes one only before a non-alphanumeric character: so the
/// apostrophe of `can't` pairs with nothing, and `'it's here'` is one
/// quote. A quote left open runs to the end of the window: what follows an
/// opening mark is the quoted data, however long.
fn tokenize<'a>(window: &'a str, tokens: &mut Tokens<'a>) {
    let bytes = window.as_bytes();
    let mut at = 0;
    let mut word_start: Option<usize> = None;
    let after_alphanumeric = |at: usize| {
        window[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    };
    while let Some(&b) = bytes.get(at) {
        // Most bytes are printable ASCII that neither separates nor quotes:
        // they only extend the word, and need no decoding.
        if WORD_BYTE[usize::from(b)] {
            word_start.get_or_insert(at);
            at = lanes::run_end(bytes, at + 1, lanes::word_ends);
            continue;
        }
        if b == b' ' {
            if let Some(start) = word_start.take() {
                let _ = tokens.try_push(Token::Word(&window[start..at]));
            }
            at += 1;
            continue;
        }
        let Some((c, len)) = char_at(window, at) else {
            break;
        };
        if is_separator(c) {
            if let Some(start) = word_start.take() {
                let _ = tokens.try_push(Token::Word(&window[start..at]));
            }
        } else if let Some(closers) = closers_of(c)
            && (c != '\'' || (!after_alphanumeric(at) && at + len < window.len()))
        {
            if let Some(start) = word_start.take() {
                let _ = tokens.try_push(Token::Word(&window[start..at]));
            }
            let _ = tokens.try_push(Token::Quoted);
            let mut probe = at + len;
            loop {
                // An ASCII closer is one byte: the chars before its next
                // occurrence close nothing, and are passed over at once.
                if let [closer] = closers
                    && let Ok(closer) = u8::try_from(*closer)
                    && closer.is_ascii()
                {
                    let Some(skip) = memchr::memchr(closer, &bytes[probe..]) else {
                        return;
                    };
                    probe += skip;
                }
                let Some((close, close_len)) = char_at(window, probe) else {
                    return;
                };
                probe += close_len;
                let before_word =
                    || char_at(window, probe).is_some_and(|(n, _)| n.is_alphanumeric());
                if closers.contains(&close) && !(is_apostrophe_like(close) && before_word()) {
                    at = probe;
                    break;
                }
            }
            continue;
        } else if word_start.is_none() {
            word_start = Some(at);
        }
        at += len;
    }
    if let Some(start) = word_start {
        let _ = tokens.try_push(Token::Word(&window[start..]));
    }
}

/// `token` as leading punctuation, core, trailing punctuation.
pub(crate) fn split_edges(token: &str) -> (&str, &str, &str) {
    const ELLIPSIS: &[u8] = "…".as_bytes();
    let is_edge_byte = |b: u8| EDGE_BYTE[usize::from(b)];
    let bytes = token.as_bytes();
    let mut start = 0;
    loop {
        match bytes.get(start) {
            Some(&b) if is_edge_byte(b) => start += 1,
            Some(_) if bytes[start..].starts_with(ELLIPSIS) => start += ELLIPSIS.len(),
            _ => break,
        }
    }
    let mut end = bytes.len();
    while end > start {
        if is_edge_byte(bytes[end - 1]) {
            end -= 1;
        } else if bytes[start..end].ends_with(ELLIPSIS) {
            end -= ELLIPSIS.len();
        } else {
            break;
        }
    }
    // Both cuts fall next to an ASCII byte or an ellipsis, so on char
    // boundaries.
    (&token[..start], &token[start..end], &token[end..])
}

/// What a token's core is made of, found in one pass so that each rule
/// below is a few flag tests instead of another scan.
#[derive(Debug, Clone, Copy)]
struct Shape {
    ascii: bool,
    alphanumeric: bool,
    digit: bool,
    lower: bool,
    upper_after_first: bool,
    /// Only ASCII letters, `-` and `'`: a candidate word.
    word_chars_only: bool,
    separator: bool,
    backslash: bool,
    dot: bool,
    at: bool,
    colon: bool,
    /// `_ $ # = % +`: marks of an identifier or an assignment.
    identifier_mark: bool,
}

const ALNUM: u16 = 1;
const DIGIT: u16 = 1 << 1;
const LOWER: u16 = 1 << 2;
const UPPER: u16 = 1 << 3;
const WORD_CHAR: u16 = 1 << 4;
const SEPARATOR: u16 = 1 << 5;
const BACKSLASH: u16 = 1 << 6;
const DOT: u16 = 1 << 7;
const AT: u16 = 1 << 8;
const COLON: u16 = 1 << 9;
const IDENTIFIER_MARK: u16 = 1 << 10;
const ASCII: u16 = 1 << 11;

/// The shape flags of each byte: a table lookup per byte instead of a dozen
/// comparisons, since every token of every message is measured.
const BYTE_SHAPE: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        let mut flags = ASCII;
        if byte.is_ascii_alphanumeric() {
            flags |= ALNUM;
        }
        if byte.is_ascii_digit() {
            flags |= DIGIT;
        }
        if byte.is_ascii_lowercase() {
            flags |= LOWER | WORD_CHAR;
        }
        if byte.is_ascii_uppercase() {
            flags |= UPPER | WORD_CHAR;
        }
        flags |= match byte {
            b'-' | b'\'' => WORD_CHAR,
            b'/' => SEPARATOR,
            b'\\' => SEPARATOR | BACKSLASH,
            b'.' => DOT,
            b'@' => AT,
            b':' => COLON,
            b'_' | b'$' | b'#' | b'=' | b'%' | b'+' => IDENTIFIER_MARK,
            _ => 0,
        };
        table[b] = flags;
        b += 1;
    }
    table
};

impl Shape {
    fn of(core: &str) -> Shape {
        let bytes = core.as_bytes();
        let (mut any, mut all, mut any_after_first) = (0u16, u16::MAX, 0u16);
        for (index, &b) in bytes.iter().enumerate() {
            let flags = BYTE_SHAPE[usize::from(b)];
            any |= flags;
            all &= flags;
            if index > 0 {
                any_after_first |= flags;
            }
        }
        Shape {
            ascii: all & ASCII != 0,
            alphanumeric: any & ALNUM != 0,
            digit: any & DIGIT != 0,
            lower: any & LOWER != 0,
            upper_after_first: any_after_first & UPPER != 0,
            word_chars_only: all & WORD_CHAR != 0,
            separator: any & SEPARATOR != 0,
            backslash: any & BACKSLASH != 0,
            dot: any & DOT != 0,
            at: any & AT != 0,
            colon: any & COLON != 0,
            identifier_mark: any & IDENTIFIER_MARK != 0,
        }
    }
}

pub(crate) fn is_placeholder(core: &str) -> bool {
    core.starts_with('‹') && PLACEHOLDERS.contains(&core)
}

/// One of the seed's parameter names, or a `ctx_` tool name of one
/// vocabulary word (`ctx_read`, `ctx_search`). `ctx_payroll_anna` is not,
/// and neither is `ctx_private_key_data`: words joined by `_` spell any
/// name or secret, as a hyphen compound does.
pub(crate) fn is_known_identifier(core: &str, vocabulary: &Vocabulary) -> bool {
    if KNOWN_IDENTIFIERS.contains(&core) {
        return true;
    }
    core.strip_prefix("ctx_").is_some_and(|name| {
        !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_lowercase())
            && vocabulary.contains(name)
    })
}

/// A plain word of the vocabulary: a word or a listed compound
/// (`read-only`), or its possessive (`file's`). A compound of listed words
/// that is not listed itself is not one: `build-key-data` spells a name.
pub(crate) fn is_own_word(word: &str, vocabulary: &Vocabulary) -> bool {
    !word.contains([' ', '/'])
        && (vocabulary.contains(word)
            || word
                .strip_suffix("'s")
                .is_some_and(|stem| vocabulary.contains(stem)))
}

/// A listed slash form (`read/write`); any other slash-joined token is a
/// path, a branch or a ref.
pub(crate) fn is_own_slash_words(core: &str, vocabulary: &Vocabulary) -> bool {
    core.contains('/') && !core.contains(' ') && vocabulary.contains(core)
}

/// Unmistakably the start of a path: absolute (`/x`), home (`~`), relative
/// (`./`, `../`), a drive (`C:\`), a UNC share, or separated segments with a
/// dot (`src/main.rs`).
fn starts_path(core: &str, shape: Shape) -> bool {
    if !shape.separator {
        return core.starts_with('~');
    }
    if core.contains("://") {
        return false;
    }
    let bytes = core.as_bytes();
    let drive = bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    (core.len() > 1 && core.starts_with('/'))
        || core.starts_with('~')
        || ["./", "../", ".\\", "..\\", "\\\\"]
            .iter()
            .any(|prefix| core.starts_with(prefix))
        || drive
        || shape.dot
}

/// `stem.ext` with a short extension holding a letter: `main.rs`, `a.tar`.
fn is_file_name(core: &str, shape: Shape) -> bool {
    if !shape.dot {
        return false;
    }
    match core.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=8).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic())
        }
        None => false,
    }
}

fn is_identifier_like(core: &str, shape: Shape) -> bool {
    (shape.colon && core.contains("::"))
        || shape.identifier_mark
        || (shape.upper_after_first && shape.lower)
        || core.len() > 24
}

const URL_SCHEMES: &[&str] = &["mailto:", "file:", "data:", "javascript:", "urn:", "tel:"];

fn is_url(core: &str, shape: Shape) -> bool {
    if !shape.colon && !shape.dot {
        return false;
    }
    core.contains("://")
        || core
            .get(..4)
            .is_some_and(|head| head.eq_ignore_ascii_case("www."))
        || URL_SCHEMES.iter().any(|scheme| {
            core.get(..scheme.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(scheme))
        })
}

/// A token that ends a clause, and so any path running through it.
fn closes_clause(token: &str) -> bool {
    token.ends_with([':', ',', ';', '.', '!', '?', '…'])
}

/// A later part of a path with spaces in it: a file name, or any segment
/// with a separator.
fn continues_path(core: &str) -> bool {
    let shape = Shape::of(core);
    shape.separator || is_file_name(core, shape)
}

/// A word that a path with spaces cannot run through: a function word
/// (`is`, `for`, `not`), a dash, or a word that opens a bracket
/// (`(No such file`).
fn stops_path(token: &str, vocabulary: &Vocabulary) -> bool {
    let (lead, core, _) = split_edges(token);
    matches!(token, "-" | "—" | "–")
        || lead.contains(['(', '[', '{', '<'])
        || is_function_word(core, vocabulary.class_of(core))
}

/// The index of the last token of the path that starts at `tokens[start]`.
/// Within its clause the path runs through spaces to its last segment or
/// file name (`/Users/x/My Notes/med list.md is outside` ends at `list.md`),
/// and, unless that is a file name, on through the words after it up to a
/// word that is wording
/// ([`stops_path`]) or to the end of the clause: `./Team Notes/Private
/// Data: not found` ends at `Data:`, and a path the window cut runs to the
/// window's end. Which of those words are folders cannot be told (`Private
/// Data` is both), so none is kept.
///
/// Only punctuation that ends a clause (`: , ; . ! ? …`) ends the search
/// for the last segment: a bracket, a dash or a quote may be part of a name
/// (`New folder (2)\x.txt`, `Song - Live/x.mp3`), and a later part of the
/// path shows that it was.
fn path_end(tokens: &[Token<'_>], start: usize, vocabulary: &Vocabulary) -> usize {
    let closes = |index: usize| matches!(tokens[index], Token::Word(word) if closes_clause(word));
    let mut last_segment = start;
    let mut probe = start;
    while !closes(probe) && probe + 1 < tokens.len() {
        probe += 1;
        if let Token::Word(next) = tokens[probe]
            && continues_path(split_edges(next).1)
        {
            last_segment = probe;
        }
    }
    // A path whose last segment is a file name is whole: the words after
    // it are wording (`copy ./a.txt to ./b.txt failed`).
    if let Token::Word(last) = tokens[last_segment] {
        let core = split_edges(last).1;
        if is_file_name(core, Shape::of(core)) {
            return last_segment;
        }
    }
    let mut end = last_segment;
    while !closes(end) && end + 1 < tokens.len() {
        if matches!(tokens[end + 1], Token::Word(next) if stops_path(next, vocabulary)) {
            break;
        }
        end += 1;
    }
    end
}

/// Leading punctuation of a path, without the dots that belong to `./`.
fn path_lead<'a>(lead: &'a str, core: &str) -> &'a str {
    if core.starts_with(['/', '\\']) {
        lead.trim_end_matches('.')
    } else {
        lead
    }
}

/// What a piece of the output is, as far as the rules that read a word's
/// neighbours care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    /// A vocabulary word, compound or slash form, copied from the input.
    Kept(KeptWord),
    /// A path placeholder for a token with a separator (`a/b`, `x\y`).
    SeparatedPath,
    /// Anything else: a placeholder, punctuation, an identifier, nothing.
    Other,
}

impl Written {
    fn is_kept(self) -> bool {
        matches!(self, Written::Kept(_))
    }
}

/// A kept word's piece as the neighbour rules read it, found when it is
/// written: where its core lies between its leading and trailing marks
/// (what [`split_edges`] gives for the piece), and what the vocabulary
/// knows of the core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct KeptWord {
    lead_len: usize,
    core_len: usize,
    class: WordClass,
}

/// At most three chars of leading punctuation, the ones next to the word:
/// a longer run (`((((`) says nothing and could spell something.
fn capped_lead(lead: &str) -> &str {
    match lead.char_indices().rev().nth(2) {
        Some((at, _)) => &lead[at..],
        None => lead,
    }
}

/// At most three chars of trailing punctuation, the ones next to the word.
fn capped_trail(trail: &str) -> &str {
    match trail.char_indices().nth(3) {
        Some((at, _)) => &trail[..at],
        None => trail,
    }
}

/// A token of punctuation alone is kept when it is at most three chars of
/// [`is_kept_punctuation`] (`-`, `->`, `(/)`, `...`): a longer run (`(-.-)`)
/// is no wording and could spell something. An `_` is not kept there: it
/// joins the words of an identifier, and alone among marks it draws a face
/// (`-_-`), which no harvested message holds.
fn is_kept_punctuation_token(token: &str) -> bool {
    token.chars().count() <= 3 && token.chars().all(|c| c != '_' && is_kept_punctuation(c))
}

/// What one word becomes, appended to `piece`; nothing is written for a
/// punctuation token that has no safe spelling (`=`, `|`, `&&`) or is too
/// long to be a mark (`(-.-)`).
fn scrub_word(
    token: &str,
    (lead, core, trail): (&str, &str, &str),
    shape: Shape,
    vocabulary: &Vocabulary,
    piece: &mut String,
) -> Written {
    if matches!(token, "—" | "–") {
        piece.push('-');
        return Written::Other;
    }
    if core.is_empty() {
        if is_kept_punctuation_token(token) {
            piece.push_str(token);
        }
        return Written::Other;
    }
    let mut lead = capped_lead(lead);
    let trail = capped_trail(trail);
    let mut written = Written::Other;
    let replaced: &str = if is_placeholder(core) {
        core
    } else if !shape.ascii {
        Placeholder::Text.as_str()
    } else if !shape.alphanumeric {
        if starts_path(core, shape) {
            lead = path_lead(lead, core);
            written = Written::SeparatedPath;
            Placeholder::Path.as_str()
        } else if is_kept_punctuation_token(token) {
            core
        } else {
            return Written::Other;
        }
    } else if is_url(core, shape) {
        Placeholder::Url.as_str()
    } else if shape.at {
        if shape.dot {
            Placeholder::Email.as_str()
        } else {
            Placeholder::Sym.as_str()
        }
    } else if shape.identifier_mark && is_known_identifier(core, vocabulary) {
        core
    } else if lead.ends_with('.') || starts_path(core, shape) || is_file_name(core, shape) {
        // A dot glued to the front of a word is a dotfile (`.env`), not
        // sentence punctuation.
        lead = path_lead(lead, core).trim_end_matches('.');
        if shape.separator {
            written = Written::SeparatedPath;
        }
        Placeholder::Path.as_str()
    } else if shape.digit {
        Placeholder::Number.as_str()
    } else if is_identifier_like(core, shape) {
        Placeholder::Sym.as_str()
    } else if (shape.word_chars_only && is_own_word(core, vocabulary))
        || (shape.separator && !shape.backslash && is_own_slash_words(core, vocabulary))
    {
        written = Written::Kept(KeptWord {
            lead_len: lead.len(),
            core_len: core.len(),
            class: vocabulary.class_of(core),
        });
        core
    } else if shape.word_chars_only {
        Placeholder::Text.as_str()
    } else if shape.separator {
        written = Written::SeparatedPath;
        Placeholder::Path.as_str()
    } else {
        Placeholder::Sym.as_str()
    };
    piece.push_str(lead);
    piece.push_str(replaced);
    piece.push_str(trail);
    written
}

/// The common word, ASCII letters with nothing or closing punctuation
/// after them (`file`, `error:`), scrubbed without the general rules, which
/// would come to the same answer: no such word starts a path, names a URL,
/// an address or a number, so it is an identifier (inner capital, or over
/// 24 letters), a vocabulary word, or text. Returns what was written and
/// whether the word is spelt like a name ([`is_name_shaped`]), or `None`,
/// having written nothing, for any other word.
fn scrub_letters_word(
    word: &str,
    vocabulary: &Vocabulary,
    piece: &mut String,
) -> Option<(Written, bool)> {
    let bytes = word.as_bytes();
    let &first = bytes.first().filter(|b| b.is_ascii_alphabetic())?;
    // An ASCII letter is lowercase when its 0x20 bit is set: the AND of the
    // letters after the first has it clear when one of them is a capital,
    // the OR of all has it set when one is lowercase.
    let (mut letters, mut and_after_first, mut or_all) = (1, 0xFF, first);
    while let Some(&b) = bytes.get(letters).filter(|b| b.is_ascii_alphabetic()) {
        and_after_first &= b;
        or_all |= b;
        letters += 1;
    }
    let (inner_upper, lower) = (and_after_first & 0x20 == 0, or_all & 0x20 != 0);
    let trail = &bytes[letters..];
    if !trail.iter().all(|&b| EDGE_BYTE[usize::from(b)]) {
        return None;
    }
    let core = &word[..letters];
    let mut written = Written::Other;
    let identifier = letters > 24 || (inner_upper && lower);
    // An identifier is written as one whatever the list holds; too long
    // for the list, or in mixed case, it needs no lookup to tell whether
    // it is spelt like a name.
    let class = if identifier {
        WordClass::default()
    } else {
        vocabulary.class_of(core)
    };
    // Title case ([`is_title_case`]) is a capital, then lowercase letters
    // only; the core, letters only, is its own stem.
    let title = letters >= 2 && first.is_ascii_uppercase() && !inner_upper && may_be_name(class);
    if identifier {
        piece.push_str(Placeholder::Sym.as_str());
    } else if class.is_listed() {
        written = Written::Kept(KeptWord {
            lead_len: 0,
            core_len: letters,
            class,
        });
        piece.push_str(core);
    } else {
        piece.push_str(Placeholder::Text.as_str());
    }
    // The trail is ASCII marks, most often none: pushed byte by byte, as
    // a copy of a few bytes is a call. Three marks are three bytes.
    for &mark in &trail[..trail.len().min(3)] {
        piece.push(char::from(mark));
    }
    Some((written, title))
}

/// Nouns that name a value: the word right after one is the value (a user,
/// host, branch or key name), hidden even when it is a vocabulary word,
/// unless the two are a listed pair of the harvested wording (`host key`,
/// `remote end`). `named` and `called` introduce a value the same way.
pub const VALUE_NOUNS: &[&str] = &[
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
];

/// The closed class of English function words (articles, auxiliaries,
/// prepositions, conjunctions, pronouns, a few adverbs): wording, never a
/// value after a value noun (`user is`, `branch already exists`), never a
/// folder of a path (`./a b is missing` ends before `is`), and, capitalised,
/// no part of a name (`File Not Found`) unless it is a listed name too
/// (`Will`).
pub const FUNCTION_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "already", "also", "am", "an",
    "and", "another", "any", "are", "aren't", "as", "at", "be", "because", "been", "before",
    "being", "below", "between", "both", "but", "by", "can", "can't", "cannot", "could",
    "couldn't", "did", "didn't", "do", "does", "doesn't", "don't", "down", "during", "each",
    "either", "every", "for", "from", "had", "hadn't", "has", "hasn't", "have", "haven't", "here",
    "if", "in", "instead", "into", "is", "isn't", "it", "its", "may", "might", "more", "most",
    "must", "neither", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "onto", "or",
    "other", "out", "over", "per", "same", "shall", "should", "since", "so", "some", "still",
    "such", "than", "that", "the", "then", "there", "these", "this", "those", "through", "to",
    "too", "under", "unless", "until", "up", "very", "via", "was", "wasn't", "were", "weren't",
    "when", "where", "which", "while", "who", "will", "with", "within", "without", "won't",
    "would", "yet",
];

/// Whether `word` is a function word, spelt in lowercase: `Will` may be a
/// name, `will` is wording. `class` is what the vocabulary knows of it.
fn is_function_word(word: &str, class: WordClass) -> bool {
    class.is_function_word_ignoring_case() && !word.bytes().any(|b| b.is_ascii_uppercase())
}

/// Wording, not a value, after a value noun: a function word, or a
/// participle (`key expired`, `remote rejected`, `service starting`).
fn is_value_slot_wording(word: &str, class: WordClass) -> bool {
    is_function_word(word, class)
        || (word.len() >= 5
            && word.bytes().all(|b| b.is_ascii_lowercase())
            && (word.ends_with("ed") || word.ends_with("ing")))
}

/// A verb and a function word after which the next word is a value, the
/// host of `connect to backend` or the user of `logged in as operator`.
pub const VALUE_PHRASES: &[(&str, &str)] = &[
    ("connect", "to"),
    ("connected", "to"),
    ("connecting", "to"),
    ("connection", "to"),
    ("in", "as"),
    ("owned", "by"),
    ("run", "as"),
    ("running", "as"),
];

fn is_value_phrase(verb: &str, function_word: &str) -> bool {
    VALUE_PHRASES
        .iter()
        .any(|(v, f)| verb.eq_ignore_ascii_case(v) && function_word.eq_ignore_ascii_case(f))
}

/// A word spelt like a name: a capital, then lowercase letters
/// (`Max`, `Max's`).
fn is_title_case(core: &str) -> bool {
    let stem = core.strip_suffix("'s").unwrap_or(core).as_bytes();
    stem.len() >= 2 && stem[0].is_ascii_uppercase() && stem[1..].iter().all(u8::is_ascii_lowercase)
}

/// Capitalised like a name and not a function word, unless the function
/// word is a listed name too (`Will`, `May`): `File Not Found` is a
/// headline, `Will Page` a name.
fn is_name_shaped(core: &str, vocabulary: &Vocabulary) -> bool {
    if !is_title_case(core) {
        return false;
    }
    let stem = core.strip_suffix("'s").unwrap_or(core);
    may_be_name(vocabulary.class_of(stem))
}

/// A title-case word whose stem the vocabulary knows as `class` may be a
/// name: it is no function word, or it is a listed name too.
fn may_be_name(class: WordClass) -> bool {
    !class.is_function_word_ignoring_case() || class.is_name()
}

/// One piece of the output, as the rules that read a word's neighbours see
/// it.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    written: Written,
    /// The input token was spelt like a name, whatever it became.
    title: bool,
    /// A rule found the kept word to be a name or a value: it is written
    /// as the text placeholder.
    hidden: bool,
}

/// The output, written piece by piece straight into one string; pieces hold
/// no space, so the spaces between them are the only places to cut.
struct Assembly {
    out: String,
    pieces: Pieces,
    /// Two kept words side by side of which the first may name a value (a
    /// value noun, or a two-letter word of a value phrase): only then can
    /// the value rules hide anything.
    value_pair: bool,
    /// A piece spelt like a name: only then can the name rules hide
    /// anything.
    title: bool,
}

/// Where a piece being written starts, and where to roll back to.
#[derive(Clone, Copy)]
struct PieceMark {
    before_space: usize,
    start: usize,
}

impl Assembly {
    fn open_piece(&mut self) -> PieceMark {
        let before_space = self.out.len();
        if before_space > 0 {
            self.out.push(' ');
        }
        PieceMark {
            before_space,
            start: self.out.len(),
        }
    }

    fn close_piece(&mut self, mark: PieceMark, written: Written, title: bool) {
        let piece = &self.out[mark.start..];
        // A run of one placeholder says no more than one of it, and its
        // length would count the words of a name.
        let repeated = piece.starts_with('‹')
            && self
                .pieces
                .last()
                .is_some_and(|last| &self.out[last.start..last.end] == piece);
        if piece.is_empty() || repeated {
            self.out.truncate(mark.before_space);
        } else {
            // The flags are ORed in rather than tested: which of these a
            // message holds cannot be guessed.
            if let Written::Kept(_) = written {
                let may_name_value =
                    |kept: KeptWord| kept.class.is_value_noun() | (kept.core_len == 2);
                self.value_pair |= matches!(
                    self.pieces.last(),
                    Some(Piece { written: Written::Kept(noun), .. }) if may_name_value(*noun)
                );
            }
            self.title |= title;
            let piece = Piece {
                start: mark.start,
                end: self.out.len(),
                written,
                title,
                hidden: false,
            };
            if self.pieces.try_push(piece).is_err() {
                self.out.truncate(mark.before_space);
                return;
            }
            // Every test run checks the lengths a writer gave against the
            // split they stand for.
            debug_assert!(
                !written.is_kept()
                    || self.edges(self.pieces.len() - 1) == split_edges(&self.out[mark.start..]),
                "a kept word's lengths are its piece's edges: {:?}",
                &self.out[mark.start..]
            );
        }
    }

    fn text(&self, index: usize) -> &str {
        let piece = self.pieces[index];
        &self.out[piece.start..piece.end]
    }

    /// The piece at `index` as leading marks, core and trailing marks: a
    /// kept word's as it was written, any other's as [`split_edges`] finds
    /// them (which is what a kept word's lengths say too, so the split
    /// serves should they ever not fit the piece).
    fn edges(&self, index: usize) -> (&str, &str, &str) {
        let piece = &self.pieces[index];
        let text = &self.out[piece.start..piece.end];
        if let Written::Kept(kept) = piece.written
            && let Some((lead, rest)) = text.split_at_checked(kept.lead_len)
            && let Some((core, trail)) = rest.split_at_checked(kept.core_len)
        {
            return (lead, core, trail);
        }
        split_edges(text)
    }

    /// Whether the piece at `index` starts a sentence or clause: the first
    /// piece, one after a piece that ends a clause or a bracket, after a
    /// dash, or one that opens a bracket.
    fn starts_clause(&self, index: usize) -> bool {
        index == 0
            || self
                .text(index - 1)
                .ends_with([':', ';', '.', '!', '?', '…', ']', ')', '>'])
            || self.text(index - 1) == "-"
            || self.text(index).starts_with(['(', '[', '{', '<'])
    }

    /// Hides the kept words that are a value or a name by where they stand:
    /// - after a noun that names a value ([`VALUE_NOUNS`]), the word is the
    ///   value, unless the two are a listed pair;
    /// - two or more capitalised words in a row are a name, unless each two
    ///   side by side are a listed pair;
    /// - a capitalised word alone inside a clause that is a listed name is
    ///   one.
    ///
    /// Every rule reads the pieces of the output only, which templating the
    /// template gives again, so the template stays a fixed point.
    fn hide_values_and_names(&mut self, vocabulary: &Vocabulary) -> bool {
        let mut any = false;
        // A value is hidden only after a hidden value or a pair that may
        // name one, so a message without such a pair has none.
        let value_pieces = if self.value_pair {
            self.pieces.len()
        } else {
            0
        };
        for index in 1..value_pieces {
            let (previous, current) = (&self.pieces[index - 1], &self.pieces[index]);
            let (Written::Kept(noun_word), Written::Kept(value_word)) =
                (previous.written, current.written)
            else {
                continue;
            };
            // Most words follow no value noun, no phrase (whose function
            // words have two letters) and no hidden value: they are passed
            // over on what was found when they were written.
            let noun_names_value = noun_word.class.is_value_noun();
            if !(noun_names_value || previous.hidden || (index >= 2 && noun_word.core_len == 2)) {
                continue;
            }
            let previous_hidden = previous.hidden;
            let (_, noun, noun_trail) = self.edges(index - 1);
            let (lead, value, _) = self.edges(index);
            if !lead.is_empty() || is_value_slot_wording(value, value_word.class) {
                continue;
            }
            let after_noun = (noun_trail.is_empty() || (noun_trail == ":" && index >= 2))
                && noun_names_value
                && !vocabulary.contains_pair(noun, value);
            // `connect to backend`, `logged in as operator`: a verb and a
            // function word that introduce a value, unless the word after
            // them is a value noun itself (`connect to host X`, `connect to
            // server`), which names what the value is.
            let after_phrase = index >= 2
                && !value_word.class.is_value_noun()
                && noun_trail.is_empty()
                && self.pieces[index - 2].written.is_kept()
                && self.edges(index - 2).2.is_empty()
                && is_value_phrase(self.edges(index - 2).1, noun);
            // A listed name right after a hidden value goes on with it
            // (`user max power`).
            let name_goes_on =
                previous_hidden && noun_trail.is_empty() && value_word.class.is_name();
            if after_noun || after_phrase || name_goes_on {
                self.pieces[index].hidden = true;
                any = true;
            }
        }
        let mut start = if self.title { 0 } else { self.pieces.len() };
        while start < self.pieces.len() {
            if !self.pieces[start].title {
                start += 1;
                continue;
            }
            let mut end = start;
            while end + 1 < self.pieces.len()
                && self.pieces[end + 1].title
                && self.edges(end).2.is_empty()
                && self.edges(end + 1).0.is_empty()
            {
                end += 1;
            }
            if end > start {
                let listed = (start..end).all(|index| {
                    let (first, second) = (self.pieces[index], self.pieces[index + 1]);
                    first.written.is_kept()
                        && second.written.is_kept()
                        && !first.hidden
                        && !second.hidden
                        && vocabulary.contains_pair(self.edges(index).1, self.edges(index + 1).1)
                });
                if !listed {
                    for piece in &mut self.pieces[start..=end] {
                        if piece.written.is_kept() && !piece.hidden {
                            piece.hidden = true;
                            any = true;
                        }
                    }
                }
            } else {
                let piece = self.pieces[start];
                let core = self.edges(start).1;
                let stem = core.strip_suffix("'s").unwrap_or(core);
                if piece.written.is_kept()
                    && !piece.hidden
                    && !self.starts_clause(start)
                    && vocabulary.is_name(stem)
                {
                    self.pieces[start].hidden = true;
                    any = true;
                }
            }
            start = end + 1;
        }
        any
    }

    /// The output again with every hidden word as the text placeholder,
    /// and the repeats that makes collapsed.
    fn rewrite_hidden(&mut self) {
        let mut out = String::with_capacity(self.out.len() + 16);
        // The pieces are rewritten in place: the one written is never
        // after the one read.
        let mut written_pieces = 0;
        for index in 0..self.pieces.len() {
            let piece = self.pieces[index];
            let start = out.len() + usize::from(!out.is_empty());
            let mut hidden = String::new();
            let (text, written) = if piece.hidden {
                let (lead, _, trail) = self.edges(index);
                hidden.push_str(lead);
                hidden.push_str(Placeholder::Text.as_str());
                hidden.push_str(trail);
                (hidden.as_str(), Written::Other)
            } else {
                (&self.out[piece.start..piece.end], piece.written)
            };
            let repeated = text.starts_with('‹')
                && written_pieces > 0
                && self
                    .pieces
                    .get(written_pieces - 1)
                    .is_some_and(|last: &Piece| &out[last.start..last.end] == text);
            if repeated {
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(text);
            self.pieces[written_pieces] = Piece {
                start,
                end: out.len(),
                written,
                hidden: false,
                ..piece
            };
            written_pieces += 1;
        }
        self.pieces.truncate(written_pieces);
        self.out = out;
    }

    /// Cuts at the last space that leaves room for `…` within the cap, and
    /// says whether two plain words are left (counting stops there).
    fn finish(&mut self) -> (String, bool) {
        if self.out.len() <= MAX_TEMPLATE_CHARS || self.out.chars().count() <= MAX_TEMPLATE_CHARS {
            // A kept word's core is a vocabulary word, with as many
            // letters as bytes but for its inner marks (`read-only`).
            let two_plain_words = self
                .pieces
                .iter()
                .filter(|piece| match piece.written {
                    Written::Kept(kept) => kept.core_len >= 2,
                    _ => is_plain_word(&self.out[piece.start..piece.end]),
                })
                .nth(1)
                .is_some();
            return (std::mem::take(&mut self.out), two_plain_words);
        }
        let cut = self.cut();
        let two_plain_words = cut
            .split(' ')
            .filter(|word| is_plain_word(word))
            .nth(1)
            .is_some();
        (cut, two_plain_words)
    }

    fn cut(&mut self) -> String {
        let mut cut = 0;
        for (chars_before, (at, c)) in self.out.char_indices().enumerate() {
            if chars_before >= MAX_TEMPLATE_CHARS {
                break;
            }
            if c == ' ' {
                cut = at;
            }
        }
        self.out.truncate(cut);
        // The cut piece gains `…`; when the piece before it already reads
        // the same (`‹text›… ‹text›` cut after the second), the two would
        // collapse when templated again, so they collapse now.
        if let Some(space) = self.out.rfind(' ') {
            let (before, last) = (&self.out[..space], &self.out[space + 1..]);
            let previous = before.rsplit(' ').next().unwrap_or(before);
            if last.starts_with('‹') && previous.strip_suffix('…') == Some(last) {
                self.out.truncate(space);
                return std::mem::take(&mut self.out);
            }
        }
        // With `…` the cut piece's trailing marks must still be at most
        // three, as templating the template again would cap them.
        // A piece of marks alone is at most three chars with it.
        let last_piece = self.out.rsplit(' ').next().unwrap_or_default();
        let marks = if last_piece.chars().any(|c| c.is_alphanumeric() || c == '‹') {
            self.out
                .chars()
                .rev()
                .take_while(|c| EDGE.contains(c))
                .count()
        } else {
            last_piece.chars().count()
        };
        for _ in 2..marks {
            self.out.pop();
        }
        self.out.push('…');
        std::mem::take(&mut self.out)
    }
}

/// A plain word of the output: two letters or more, not a placeholder.
fn is_plain_word(word: &str) -> bool {
    // One pass over the few bytes of a piece; only a piece with a
    // three-byte char (`‹`, `›` or `…`) is searched for the placeholder.
    let (letters, wide) = word.bytes().fold((0usize, false), |(letters, wide), b| {
        (
            letters + usize::from(b.is_ascii_alphabetic()),
            wide | (b == 0xE2),
        )
    });
    letters >= 2 && !(wide && word.contains('‹'))
}

/// The template of `message` under `vocabulary`, or `None` when fewer than
/// two plain words survive.
pub(crate) fn template(message: &str, vocabulary: &Vocabulary) -> Option<String> {
    let line = first_line(message)?;
    let window = strip_ansi(window(line));
    let mut tokens = Tokens::new();
    tokenize(&window, &mut tokens);

    let mut assembly = Assembly {
        // A one-letter word can become a nine-byte placeholder: room for
        // that growth avoids reallocating while most templates are built.
        out: String::with_capacity((3 * window.len() + 16).min(1024)),
        pieces: Pieces::new(),
        value_pair: false,
        title: false,
    };
    let mut unsafe_piece = false;
    let mut index = 0;
    while index < tokens.len() {
        let mark = assembly.open_piece();
        let out = &mut assembly.out;
        let (written, title) = match tokens[index] {
            Token::Quoted => {
                out.push_str(Placeholder::Str.as_str());
                (Written::Other, false)
            }
            Token::Word(word) => {
                if let Some(written_and_title) = scrub_letters_word(word, vocabulary, out) {
                    written_and_title
                } else {
                    let (lead, core, trail) = split_edges(word);
                    // Most cores start with a lowercase letter, and are no
                    // name: one byte tells.
                    let title = core.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
                        && is_name_shaped(core, vocabulary);
                    let shape = Shape::of(core);
                    let written = if starts_path(core, shape) && !core.starts_with('‹') {
                        out.push_str(capped_lead(path_lead(lead, core)));
                        out.push_str(Placeholder::Path.as_str());
                        Written::SeparatedPath
                    } else {
                        let written = scrub_word(word, (lead, core, trail), shape, vocabulary, out);
                        if written == Written::SeparatedPath {
                            out.truncate(out.len() - capped_trail(trail).len());
                        }
                        written
                    };
                    if written == Written::SeparatedPath {
                        // A path runs to the end of its clause: the words
                        // after it may be its folders, spaces and all.
                        let end = path_end(&tokens, index, vocabulary);
                        if let Token::Word(last) = tokens[end] {
                            out.push_str(capped_trail(split_edges(last).2));
                        }
                        index = end;
                    }
                    // Checked where it is written, so that a bug in these
                    // rules drops the template instead of reporting it.
                    unsafe_piece |= !is_safe_template(&out[mark.start..]);
                    (written, title)
                }
            }
        };
        index += 1;
        assembly.close_piece(mark, written, title);
    }
    if assembly.hide_values_and_names(vocabulary) {
        assembly.rewrite_hidden();
    }
    let (template, two_plain_words) = assembly.finish();
    if !two_plain_words {
        return None;
    }
    // Every piece the general rules wrote was checked as it was written.
    // The others are placeholders, and the words of the letters path, which
    // copies only bytes it has just read as ASCII letters or as marks (as
    // a rewrite or a cut adds only a placeholder or `…`): reading all of
    // every template again in release builds took 8% of the time, so
    // every debug run and test does it instead.
    debug_assert!(is_safe_template(&template), "unsafe template {template:?}");
    (!unsafe_piece).then_some(template)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(window: &str) -> Vec<Token<'_>> {
        let mut tokens = Tokens::new();
        tokenize(window, &mut tokens);
        tokens.to_vec()
    }

    #[test]
    fn contraction_apostrophe_does_not_open_a_quote() {
        // lean-ctx 3.12.0 paired the apostrophe of `can't` with the next
        // quote and leaked `Anna Meier`.
        assert_eq!(
            words("can't open 'Anna Meier' file"),
            [
                Token::Word("can't"),
                Token::Word("open"),
                Token::Quoted,
                Token::Word("file")
            ]
        );
    }

    #[test]
    fn apostrophe_inside_quote_does_not_close_it() {
        assert_eq!(
            words("bad 'it's here' now"),
            [Token::Word("bad"), Token::Quoted, Token::Word("now")]
        );
    }

    #[test]
    fn unterminated_quote_runs_to_the_end() {
        assert_eq!(
            words("missing \"Anna Meier and more"),
            [Token::Word("missing"), Token::Quoted]
        );
    }

    #[test]
    fn window_drops_the_token_cut_by_the_limit() {
        let line = format!("{} Meier", "a ".repeat(199));
        assert_eq!(line.chars().nth(MAX_INPUT_CHARS - 1), Some('M'));
        assert!(!window(&line).contains('M'));
        assert!(window(&line).trim_end().ends_with('a'));
    }

    #[test]
    fn every_line_break_ends_the_first_line() {
        for brk in [
            '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
        ] {
            let message = format!("  {brk} first line{brk}Anna Meier");
            assert_eq!(first_line(&message), Some("first line"), "{brk:?}");
        }
    }

    #[test]
    fn line_of_invisible_characters_is_not_the_first_line() {
        for blank in ["\u{1b}[0m", "\u{200b}\u{feff}", "\0\0", " \u{2060} "] {
            let message = format!("{blank}\nfile not found");
            assert_eq!(first_line(&message), Some("file not found"), "{blank:?}");
        }
    }

    #[test]
    fn cut_piece_collapses_with_its_twin_before_it() {
        // Found by the vector author: `Anna… Meier` cut after `Meier` gave
        // `‹text›… ‹text›…`, which templating again collapsed.
        let vocabulary = Vocabulary::parse("directory\nerror\n").expect("valid list");
        let message = format!("{}Anna… Meier directory", "error ".repeat(24));
        let once = template(&message, &vocabulary).expect("plain words remain");
        assert!(once.ends_with("error ‹text›…"), "{once}");
        assert_eq!(template(&once, &vocabulary).as_deref(), Some(once.as_str()));
    }

    #[test]
    fn charset_checks_agree_with_the_published_charset() {
        // The contract check reads SAFE_PUNCTUATION; the scrubber its own
        // tables: the three must name the same characters.
        for code in (0..0x3000).chain(0xFE00..0x10000) {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let published = c.is_ascii_alphabetic() || SAFE_PUNCTUATION.contains(c);
            assert_eq!(is_safe_char(c), published, "{c:?}");
            assert_eq!(is_safe_template(&c.to_string()), published, "{c:?}");
        }
    }

    #[test]
    fn value_nouns_and_phrases_are_vocabulary_words() {
        // A rule that reads a kept word's neighbours sees only kept words:
        // a noun or phrase word outside the shipped list would never fire.
        let vocabulary = Vocabulary::builtin();
        for word in VALUE_NOUNS
            .iter()
            .chain(VALUE_PHRASES.iter().flat_map(|(verb, word)| [verb, word]))
        {
            assert!(vocabulary.contains(word), "{word} is not a vocabulary word");
        }
        // The lookups pack a word into 16 bytes, and the phrase rule looks
        // only behind two-letter function words.
        assert!(
            VALUE_NOUNS
                .iter()
                .chain(FUNCTION_WORDS)
                .all(|word| word.len() <= 16)
        );
        assert!(VALUE_PHRASES.iter().all(|(_, word)| word.len() == 2));
    }

    #[test]
    fn ansi_colour_codes_are_not_words() {
        assert_eq!(strip_ansi("\u{1b}[1;31merror\u{1b}[0m: x"), "error: x");
    }

    #[test]
    fn edges_split_around_the_core() {
        assert_eq!(split_edges("(./x):"), ("(.", "/x", "):"));
        assert_eq!(split_edges("..."), ("...", "", ""));
        assert_eq!(split_edges("word…"), ("", "word", "…"));
    }
}
