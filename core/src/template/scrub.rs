//! The scrubbing pass: first line, window, quotes, tokens, placeholders.
//!
//! Every piece of the output is built from the classifier's own alphabet:
//! one of the seven placeholders, a vocabulary word or known identifier
//! matched in the input, or the framing punctuation around a token. Nothing
//! else of the input is ever copied, so a digit, a path or a name cannot
//! reach the template however the input is shaped.

use super::vocabulary::Vocabulary;
use super::{MAX_INPUT_CHARS, MAX_TEMPLATE_CHARS, PLACEHOLDERS, Placeholder};

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

/// The characters a template may hold besides ASCII letters.
pub const SAFE_PUNCTUATION: &str = " .,:;()[]{}<>!?'-_/‹›…";

/// The parameter names tool errors mention to explain themselves (the
/// seed's list): kept verbatim, since they name no user data.
pub(crate) const KNOWN_IDENTIFIERS: &[&str] = &[
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

/// Line ends: those of `str::lines` plus a lone `\r`, the vertical tab, form
/// feed, the separators U+001C..U+001E, NEL, U+2028 and U+2029 (Python's
/// `splitlines` set), so no port can see a different first line.
pub(crate) fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\u{0B}'
            | '\u{0C}'
            | '\u{1C}'
            | '\u{1D}'
            | '\u{1E}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Characters that separate tokens: whitespace and control characters,
/// which carry no wording and must never glue two tokens into one.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// The first line with anything but whitespace in it, trimmed.
fn first_line(message: &str) -> Option<&str> {
    message
        .split(is_line_break)
        .map(str::trim)
        .find(|line| !line.is_empty())
}

/// At most [`MAX_INPUT_CHARS`] chars of `line`. When the line is longer, the
/// token cut by the limit is dropped whole: half a name or half a number is
/// still data, and a cut quote is then unterminated, which the quote scanner
/// hides to the end.
fn window(line: &str) -> &str {
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

/// Removes ANSI CSI sequences (`ESC [ … final`), which colourful tools glue
/// to their words; without this `\x1b[31merror` would read as a number.
fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut clean = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for code in chars.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&code) {
                    break;
                }
            }
        } else {
            clean.push(c);
        }
    }
    std::borrow::Cow::Owned(clean)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Quoted,
}

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

/// Splits the window into words and quoted spans, in one pass.
///
/// A `'` opens a quote only after a non-alphanumeric character and before a
/// non-space one, and closes one only before a non-alphanumeric character:
/// so the apostrophe of `can't` pairs with nothing, and `'it's here'` is one
/// quote. A quote left open runs to the end of the window: what follows an
/// opening mark is the quoted data, however long.
fn tokenize<'a>(window: &'a str, tokens: &mut Vec<Token<'a>>) {
    let mut segment_start = 0;
    let mut previous: Option<char> = None;
    let mut chars = window.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let opens = match closers_of(c) {
            None => false,
            Some(_) if c == '\'' => {
                !previous.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(|n| !n.is_whitespace())
            }
            Some(_) => true,
        };
        if !opens {
            previous = Some(c);
            continue;
        }
        let closers = closers_of(c).unwrap_or(&[]);
        push_words(&window[segment_start..at], tokens);
        tokens.push(Token::Quoted);
        segment_start = window.len();
        previous = None;
        while let Some((close_at, close)) = chars.next() {
            if !closers.contains(&close) {
                continue;
            }
            let after = chars.peek().map(|&(_, n)| n);
            if is_apostrophe_like(close) && after.is_some_and(char::is_alphanumeric) {
                continue;
            }
            segment_start = close_at + close.len_utf8();
            previous = Some(close);
            break;
        }
    }
    if segment_start < window.len() {
        push_words(&window[segment_start..], tokens);
    }
}

fn push_words<'a>(text: &'a str, tokens: &mut Vec<Token<'a>>) {
    tokens.extend(
        text.split(is_separator)
            .filter(|word| !word.is_empty())
            .map(Token::Word),
    );
}

/// `token` as leading punctuation, core, trailing punctuation.
pub(crate) fn split_edges(token: &str) -> (&str, &str, &str) {
    let core_start = token.len() - token.trim_start_matches(EDGE).len();
    let (lead, rest) = token.split_at(core_start);
    let core_end = rest.trim_end_matches(EDGE).len();
    let (core, trail) = rest.split_at(core_end);
    (lead, core, trail)
}

pub(crate) fn is_placeholder(core: &str) -> bool {
    PLACEHOLDERS.contains(&core)
}

/// One of the seed's parameter names, or a `ctx_` tool name made of
/// vocabulary words (`ctx_read`, `ctx_multi_edit`); `ctx_payroll_anna`
/// is not, since the wildcard would otherwise carry any name.
pub(crate) fn is_known_identifier(core: &str, vocabulary: &Vocabulary) -> bool {
    if KNOWN_IDENTIFIERS.contains(&core) {
        return true;
    }
    core.strip_prefix("ctx_").is_some_and(|name| {
        name.split('_').all(|part| {
            !part.is_empty()
                && part.bytes().all(|b| b.is_ascii_lowercase())
                && vocabulary.contains(part)
        })
    })
}

/// A plain word of the vocabulary: the word, its possessive (`file's`), or
/// a hyphenated compound of words (`read-only`).
pub(crate) fn is_own_word(word: &str, vocabulary: &Vocabulary) -> bool {
    vocabulary.contains(word)
        || word
            .strip_suffix("'s")
            .is_some_and(|stem| vocabulary.contains(stem))
        || (word.contains('-')
            && word
                .split('-')
                .all(|part| !part.is_empty() && vocabulary.contains(part)))
}

/// Words joined by `/` (`read/write`), each of the vocabulary.
pub(crate) fn is_own_slash_words(core: &str, vocabulary: &Vocabulary) -> bool {
    core.split('/')
        .all(|part| !part.is_empty() && is_own_word(part, vocabulary))
}

/// Unmistakably the start of a path: absolute (`/x`), home (`~`), relative
/// (`./`, `../`), a drive (`C:\`), a UNC share, or separated segments with a
/// dot (`src/main.rs`).
fn starts_path(core: &str) -> bool {
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
        || ((core.contains('/') || core.contains('\\')) && core.contains('.'))
}

/// `stem.ext` with a short extension holding a letter: `main.rs`, `a.tar`.
fn is_file_name(core: &str) -> bool {
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

fn is_identifier_like(core: &str) -> bool {
    let has_inner_upper = core.bytes().skip(1).any(|b| b.is_ascii_uppercase());
    let has_lower = core.bytes().any(|b| b.is_ascii_lowercase());
    core.contains("::")
        || core.contains(['_', '$', '#', '=', '%', '+'])
        || (has_inner_upper && has_lower)
        || core.len() > 24
}

const URL_SCHEMES: &[&str] = &["mailto:", "file:", "data:", "javascript:", "urn:", "tel:"];

fn is_url(core: &str) -> bool {
    core.contains("://")
        || core
            .get(..4)
            .is_some_and(|head| head.eq_ignore_ascii_case("www."))
        || URL_SCHEMES.iter().any(|scheme| {
            core.get(..scheme.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(scheme))
        })
}

/// A path ends with a token that closes a clause.
fn closes_path(token: &str) -> bool {
    token.ends_with([':', ',', ';', '.', ')', ']', '!', '?', '…'])
}

/// The token after a path opens a new clause, so the path ended before it.
fn opens_clause(token: Token<'_>) -> bool {
    match token {
        Token::Quoted => true,
        Token::Word(word) => {
            word.starts_with(['(', '[', '{', '<', '‹'])
                || matches!(word, "—" | "–" | "-" | "--" | "->" | "=>" | "|")
        }
    }
}

/// A later part of a path with spaces in it: a file name, or a segment with
/// a separator that is not vocabulary wording.
fn continues_path(core: &str, vocabulary: &Vocabulary) -> bool {
    is_file_name(core)
        || ((core.contains('/') || core.contains('\\')) && !is_own_slash_words(core, vocabulary))
}

/// The index of the last token of a path starting at `tokens[start]`:
/// within its clause the path runs through spaces to its last segment or
/// file name (`/Users/x/My Notes/med list.md is outside` ends at `list.md`).
fn path_span(tokens: &[Token<'_>], start: usize, vocabulary: &Vocabulary) -> Option<usize> {
    let Token::Word(first) = tokens[start] else {
        return None;
    };
    let (_, core, _) = split_edges(first);
    if core.starts_with('‹') || !starts_path(core) {
        return None;
    }
    let mut end = start;
    let mut probe = start;
    while let Token::Word(current) = tokens[probe]
        && !closes_path(current)
        && let Some(&Token::Word(next)) = tokens.get(probe + 1)
        && !opens_clause(Token::Word(next))
    {
        probe += 1;
        if continues_path(split_edges(next).1, vocabulary) {
            end = probe;
        }
    }
    Some(end)
}

/// Leading punctuation of a path, without the dots that belong to `./`.
fn path_lead<'a>(lead: &'a str, core: &str) -> &'a str {
    if core.starts_with(['/', '\\']) {
        lead.trim_end_matches('.')
    } else {
        lead
    }
}

/// What one word becomes, written into `piece`; nothing is written for a
/// punctuation token that has no safe spelling (`=`, `|`, `&&`).
fn scrub_word(token: &str, vocabulary: &Vocabulary, piece: &mut String) {
    if matches!(token, "—" | "–") {
        piece.push('-');
        return;
    }
    let (lead, core, trail) = split_edges(token);
    if core.is_empty() {
        piece.push_str(token);
        return;
    }
    let mut lead = lead;
    let replaced: &str = if is_placeholder(core) {
        core
    } else if !core.is_ascii() {
        Placeholder::Text.as_str()
    } else if !core.bytes().any(|b| b.is_ascii_alphanumeric()) {
        if starts_path(core) {
            lead = path_lead(lead, core);
            Placeholder::Path.as_str()
        } else if core.chars().all(is_kept_punctuation) {
            core
        } else {
            return;
        }
    } else if is_url(core) {
        Placeholder::Url.as_str()
    } else if core.contains('@') {
        if core.contains('.') {
            Placeholder::Email.as_str()
        } else {
            Placeholder::Sym.as_str()
        }
    } else if is_known_identifier(core, vocabulary) {
        core
    } else if lead.ends_with('.') || starts_path(core) || is_file_name(core) {
        // A dot glued to the front of a word is a dotfile (`.env`), not
        // sentence punctuation.
        lead = path_lead(lead, core).trim_end_matches('.');
        Placeholder::Path.as_str()
    } else if core.bytes().any(|b| b.is_ascii_digit()) {
        Placeholder::Number.as_str()
    } else if is_identifier_like(core) {
        Placeholder::Sym.as_str()
    } else if core
        .bytes()
        .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'\'')
    {
        if is_own_word(core, vocabulary) {
            core
        } else {
            Placeholder::Text.as_str()
        }
    } else if core.contains('/') && !core.contains('\\') && is_own_slash_words(core, vocabulary) {
        core
    } else if core.contains(['/', '\\']) {
        Placeholder::Path.as_str()
    } else {
        Placeholder::Sym.as_str()
    };
    piece.push_str(lead);
    piece.push_str(replaced);
    piece.push_str(trail);
}

/// The output, built piece by piece with what truncation needs to cut it at
/// a piece boundary.
struct Assembly {
    out: String,
    /// Byte offset where each piece starts in `out`.
    starts: Vec<usize>,
    /// Chars in `out` before each piece (its separating space included).
    chars_before: Vec<usize>,
    chars: usize,
}

impl Assembly {
    fn with_capacity(bytes: usize) -> Self {
        Assembly {
            out: String::with_capacity(bytes),
            starts: Vec::new(),
            chars_before: Vec::new(),
            chars: 0,
        }
    }

    fn push(&mut self, piece: &str) {
        if piece.is_empty() {
            return;
        }
        // A run of one placeholder says no more than one of it, and its
        // length would count the words of a name.
        if piece.starts_with('‹')
            && let Some(&last) = self.starts.last()
            && &self.out[last..] == piece
        {
            return;
        }
        if !self.out.is_empty() {
            self.out.push(' ');
            self.chars += 1;
        }
        self.starts.push(self.out.len());
        self.chars_before.push(self.chars);
        self.out.push_str(piece);
        self.chars += piece.chars().count();
    }

    /// Cuts after the last piece that leaves room for `…` within the cap.
    fn finish(mut self) -> String {
        if self.chars <= MAX_TEMPLATE_CHARS {
            return self.out;
        }
        let mut keep = self.starts.len();
        while keep > 0 {
            // Chars of pieces 0..keep, without the space before piece `keep`.
            let kept_chars = match self.chars_before.get(keep) {
                Some(&before) => before - 1,
                None => self.chars,
            };
            if kept_chars < MAX_TEMPLATE_CHARS {
                break;
            }
            keep -= 1;
        }
        let cut = match self.starts.get(keep) {
            Some(&start) if keep > 0 => start - 1,
            _ if keep == 0 => 0,
            _ => self.out.len(),
        };
        self.out.truncate(cut);
        self.out.push('…');
        self.out
    }
}

/// A plain word of the output: two letters or more, not a placeholder.
fn is_plain_word(word: &str) -> bool {
    word.bytes().filter(u8::is_ascii_alphabetic).count() >= 2 && !word.contains('‹')
}

/// The template of `message` under `vocabulary`, or `None` when fewer than
/// two plain words survive.
pub(crate) fn template(message: &str, vocabulary: &Vocabulary) -> Option<String> {
    let line = first_line(message)?;
    let window = strip_ansi(window(line));
    let mut tokens = Vec::with_capacity(window.len() / 4 + 1);
    tokenize(&window, &mut tokens);

    let mut assembly = Assembly::with_capacity(window.len().min(4 * MAX_TEMPLATE_CHARS));
    let mut piece = String::new();
    let mut index = 0;
    while index < tokens.len() {
        piece.clear();
        match tokens[index] {
            Token::Quoted => {
                piece.push_str(Placeholder::Str.as_str());
                index += 1;
            }
            Token::Word(word) => match path_span(&tokens, index, vocabulary) {
                Some(end) => {
                    let (lead, core, _) = split_edges(word);
                    let trail = match tokens[end] {
                        Token::Word(last) => split_edges(last).2,
                        Token::Quoted => "",
                    };
                    piece.push_str(path_lead(lead, core));
                    piece.push_str(Placeholder::Path.as_str());
                    piece.push_str(trail);
                    index = end + 1;
                }
                None => {
                    scrub_word(word, vocabulary, &mut piece);
                    index += 1;
                }
            },
        }
        assembly.push(&piece);
    }
    let template = assembly.finish();
    let plain_words = template.split(' ').filter(|w| is_plain_word(w)).count();
    if plain_words < 2 {
        return None;
    }
    // Built only from safe pieces; checked again so that a bug in the
    // pieces drops a template instead of reporting it.
    debug_assert!(
        template
            .chars()
            .all(|c| c.is_ascii_alphabetic() || SAFE_PUNCTUATION.contains(c)),
        "unsafe template {template:?}"
    );
    template
        .chars()
        .all(|c| c.is_ascii_alphabetic() || SAFE_PUNCTUATION.contains(c))
        .then_some(template)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(window: &str) -> Vec<Token<'_>> {
        let mut tokens = Vec::new();
        tokenize(window, &mut tokens);
        tokens
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
