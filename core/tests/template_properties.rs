//! Property tests of `agentfence::template`: one test per guarantee of the
//! failure-template contract (docs/design.md#template-contract) and per
//! leak measured in lean-ctx 3.12.0 (docs/upstream-faults.md, its lean-ctx
//! section).
//!
//! Inputs come from the template generators of `agentfence::fuzzing`, the
//! ones the `template_structured` fuzz target draws from, fed with bytes
//! proptest generates: error-message fragments (paths with spaces, Windows
//! and UNC paths, URLs, e-mails, quotes of every kind, contractions,
//! numbers, identifiers, secrets, personal names, Unicode look-alikes,
//! placeholder-shaped tokens, ANSI colour codes, punctuation, line breaks)
//! mixed with vocabulary words (`template_grammar`), fenced messages
//! (`template_fenced`) and secrets spelt in vocabulary words
//! (`template_planted`). Every generated `Case` remembers the text it
//! planted that must not survive, and `check_secrets` (the contract's leak
//! reader) names what leaked.
//!
//! Two vocabularies are used, and no test depends on the words of the
//! shipped list:
//! - the builtin list (`Lexicon::builtin`), whose plain words the
//!   generators draw from;
//! - a fixed "fenced" list (`Lexicon::fenced`, of `KEPT` and `FENCED`
//!   words): the fenced words are vocabulary words, so they would survive
//!   if they were not quoted, on a later line, inside a path or URL, or
//!   disguised; the fenced generators put fenced words only where they must
//!   not survive, and the tests assert that none of them appears in the
//!   template.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 256): the config
//! is `ProptestConfig::default()`, which reads the environment, with only
//! the failure file moved to `core/proptest-regressions/`. Nightly:
//! `PROPTEST_CASES=25600 cargo test --release -p agentfence --test
//! template_properties -- --include-ignored`.

#[path = "support/case_bytes.rs"]
mod case_bytes;

use std::time::{Duration, Instant};

use agentfence::fuzzing::template_fenced::{self, FENCED, MultiLine};
use agentfence::fuzzing::template_grammar::{
    self, Case, Fragment, Lexicon, api_secret, email, identifier, look_alike, path, personal_name,
    url,
};
use agentfence::fuzzing::template_planted::{self, Planted, SecretClass};
use agentfence::template::{
    ContractViolation, FailureKind, KNOWN_IDENTIFIERS, MAX_INPUT_CHARS, MAX_TEMPLATE_CHARS,
    PLACEHOLDERS, SAFE_PUNCTUATION, Scrubber, Vocabulary, check_contract, check_secrets, classify,
    message_template,
};
use case_bytes::config;
use case_bytes::from_bytes;
use proptest::prelude::*;
use proptest::sample::subsequence;

// ---------------------------------------------------------------------------
// Readers of a template, written here apart from the scrubber
// ---------------------------------------------------------------------------

/// The planted secrets of `case` that survive in `template`, as the
/// contract's leak reader sees them.
fn leaked(template: &str, case: &Case) -> Vec<String> {
    match check_secrets(template, &case.secrets) {
        Ok(()) => Vec::new(),
        Err(ContractViolation::SecretSurvives { secrets }) => secrets,
        Err(other) => vec![other.to_string()],
    }
}

/// Punctuation that frames a word of a template without being part of it.
const EDGE: &str = "()[]{},;:.!?<>…";

/// The core of a template word: the word without its framing punctuation.
fn core_of(word: &str) -> &str {
    word.trim_matches(|c| EDGE.contains(c))
}
/// Fails when a planted secret of `case` survives in what `scrubber` makes
/// of it, or, under the fenced vocabulary, any fenced word does.
fn assert_no_leak(scrubber: &Scrubber, case: &Case, what: &str) -> Result<(), TestCaseError> {
    if let Some(template) = scrubber.template(&case.text) {
        // Only under the fenced vocabulary: the builtin list may hold a
        // fenced word (`victor`) as wording of its own.
        let fenced = if std::ptr::eq(scrubber, fenced()) {
            fenced_in(&template)
        } else {
            Vec::new()
        };
        let leaked = leaked(&template, case);
        prop_assert!(
            fenced.is_empty() && leaked.is_empty(),
            "{} in template: {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
            what,
            fenced,
            leaked,
            case.text,
            template
        );
    }
    Ok(())
}

/// The fenced words of `FENCED` that occur in `template`, ignoring case.
fn fenced_in(template: &str) -> Vec<&'static str> {
    let template = template.to_ascii_lowercase();
    FENCED
        .iter()
        .copied()
        .filter(|word| template.contains(word))
        .collect()
}

/// The words of `template` whose core holds `‹` or `›` without being one
/// of the seven placeholders.
fn foreign_placeholders(template: &str) -> Vec<&str> {
    template
        .split(' ')
        .filter(|word| {
            let core = core_of(word);
            core.contains(['‹', '›']) && !PLACEHOLDERS.contains(&core)
        })
        .collect()
}

/// A line of the vocabulary with no space (a word, a listed compound such
/// as `read-only` or a listed slash form such as `read/write`), or a
/// word's possessive (`file's`). A compound or slash-join of words that is
/// not itself listed is not one: it can spell any name.
fn is_vocabulary_word(word: &str, vocabulary: &Vocabulary) -> bool {
    !word.is_empty()
        && !word.contains(' ')
        && (vocabulary.contains(word)
            || word
                .strip_suffix("'s")
                .is_some_and(|stem| vocabulary.contains(stem)))
}

/// One of the seed's parameter names, or `ctx_` followed by one lowercase
/// vocabulary word.
fn is_known_identifier(core: &str, vocabulary: &Vocabulary) -> bool {
    KNOWN_IDENTIFIERS.contains(&core)
        || core.strip_prefix("ctx_").is_some_and(|name| {
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_lowercase())
                && vocabulary.contains(name)
        })
}

/// The words of `template` that are neither placeholders, punctuation,
/// vocabulary words (alone or joined by `/`) nor known identifiers.
fn foreign_words<'t>(template: &'t str, vocabulary: &Vocabulary) -> Vec<&'t str> {
    template
        .split(' ')
        .map(core_of)
        .filter(|core| {
            !(PLACEHOLDERS.contains(core)
                || !core.bytes().any(|b| b.is_ascii_alphanumeric())
                || is_known_identifier(core, vocabulary)
                || is_vocabulary_word(core, vocabulary))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Vocabularies and cases
// ---------------------------------------------------------------------------

/// The builtin list's plain words (no compound, slash form, pair or name
/// line).
fn builtin_words() -> Vec<&'static str> {
    Vocabulary::builtin().plain_words().collect()
}

fn builtin() -> &'static Scrubber {
    Lexicon::builtin().scrubber()
}

fn fenced() -> &'static Scrubber {
    Lexicon::fenced().scrubber()
}

/// A message of the whole grammar over the builtin vocabulary.
fn message() -> impl Strategy<Value = Case> {
    from_bytes(|u| template_grammar::message_case(u, Lexicon::builtin()))
}

/// A message over the builtin vocabulary with fragments of `focus` well
/// represented.
fn message_of(focus: &'static [Fragment]) -> impl Strategy<Value = Case> {
    from_bytes(move |u| template_grammar::message_of(u, Lexicon::builtin(), focus, 1..=15))
}

/// Kept words of the fenced vocabulary around a fragment of `middle`.
fn fenced_message(middle: Fragment) -> impl Strategy<Value = Case> {
    from_bytes(move |u| template_fenced::fenced_message(u, middle))
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// Where proptest keeps the failures it found, replayed first next time.
const FAILURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/template_properties.txt"
);

proptest! {
    #![proptest_config(config(FAILURES))]

    /// The wire contract forbids ASCII digits, and lean-ctx 3.12.0's own
    /// safety check allowed them, so `‹4111111111111111›` reached the wire
    /// and one crafted error rejected the day's batch
    /// (docs/upstream-faults.md#leanctx-digits-allowed). No digit of any input
    /// (numbers, IPs, UUIDs, cards, secrets, placeholder-shaped tokens)
    /// reaches a template.
    #[test]
    fn no_digit_survives(case in message()) {
        let template = builtin().template(&case.text);
        if let Some(template) = &template {
            prop_assert!(
                !template.bytes().any(|b| b.is_ascii_digit()),
                "digit in template\ninput:    {:?}\ntemplate: {:?}",
                case.text,
                template
            );
        }
    }

    /// No non-vocabulary text of a path survives: Unix paths with spaces
    /// (lean-ctx 3.12.0 leaked the middle words of
    /// `/Users/anna/Anna Meier Docs/x.txt`), home, relative, Windows and
    /// UNC paths, dotfiles (`.env` survived upstream) and file names. No
    /// user name, folder name, server, share or file name of a path reaches
    /// a template, nor a backslash.
    #[test]
    fn no_path_text_outside_the_vocabulary_survives(
        case in fenced_message(template_fenced::fenced_path),
        general in message_of(&[path]),
    ) {
        for (case, scrubber) in [(&case, fenced()), (&general, builtin())] {
            if let Some(template) = scrubber.template(&case.text) {
                let leaked = leaked(&template, case);
                prop_assert!(
                    leaked.is_empty() && !template.contains('\\'),
                    "path text in template: {:?}\ninput:    {:?}\ntemplate: {:?}",
                    leaked,
                    case.text,
                    template
                );
            }
        }
    }

    /// No path survives, not even its vocabulary words
    /// (docs/design.md#template-contract: the template holds no path;
    /// mod.rs: `‹path›` is "a path, spaces
    /// included"): vocabulary words between the spaced parts of a path are
    /// part of it, as in `C:\Users\anna\New folder (2)\x.txt` or
    /// `/Users/anna/Tax Return/summary`. The fenced words placed inside
    /// paths never appear in the template.
    #[test]
    fn no_path_survives(case in fenced_message(template_fenced::fenced_path)) {
        if let Some(template) = fenced().template(&case.text) {
            let fenced = fenced_in(&template);
            prop_assert!(
                fenced.is_empty(),
                "path words in template: {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                case.text,
                template
            );
        }
    }

    /// URLs (with or without a scheme, `www.`, userinfo `user:pw@host`),
    /// e-mails (plus-addressing, `@localhost`, `mailto:`) and secrets
    /// (`sk-…`, `ghp_…`, `github_pat_…`, `AKIA…`, `xoxb-…`, JWTs, `Bearer`,
    /// `KEY=value`, all-letter hex) never survive, in part or whole: upstream
    /// kept `xoxb-abcdef-ghijkl`, `deadbeefcafebabe` and single-label hosts
    /// (docs/upstream-faults.md#leanctx-any-ascii-word), and `user:pw@` must
    /// never land in telemetry.
    /// Vocabulary words inside a URL or an address are not kept either.
    #[test]
    fn no_email_url_or_secret_survives(
        case in fenced_message(template_fenced::fenced_url_or_email),
        general in message_of(&[url, email, api_secret, identifier]),
    ) {
        assert_no_leak(fenced(), &case, "URL, address or secret text")?;
        assert_no_leak(builtin(), &general, "URL, address or secret text")?;
    }

    /// Personal names (`Anna Meier`, `Jürgen`; upstream 3.12.0 returned
    /// `user Alice Meier lacks role admin` unchanged) never survive, and a
    /// vocabulary word disguised with Unicode look-alikes (Cyrillic а/е/о,
    /// fullwidth letters, zero-width chars joined into it, a combining mark,
    /// the Kelvin sign) is not that word: it is non-ASCII input, `‹text›`.
    #[test]
    fn no_name_or_look_alike_survives(
        case in fenced_message(template_fenced::fenced_look_alike),
        general in message_of(&[personal_name, look_alike]),
    ) {
        assert_no_leak(fenced(), &case, "name or look-alike")?;
        assert_no_leak(builtin(), &general, "name")?;
    }

    /// Every `‹…›` of a template is one of the seven placeholders, whole:
    /// never glued to letters, never cut by truncation (lean-ctx 3.12.0
    /// compared a byte offset with a char count and could cut `‹pa…`).
    #[test]
    fn every_placeholder_is_one_of_seven(case in message()) {
        if let Some(template) = builtin().template(&case.text) {
            let foreign = foreign_placeholders(&template);
            prop_assert!(
                foreign.is_empty(),
                "not a placeholder: {:?}\ninput:    {:?}\ntemplate: {:?}",
                foreign,
                case.text,
                template
            );
        }
    }

    /// Every plain word of a template is a word of the scrubber's
    /// vocabulary (alone, possessive, hyphenated or joined by `/`) or a
    /// known identifier (docs/design.md#template-contract; upstream 3.12.0
    /// kept any ASCII word: docs/upstream-faults.md#leanctx-any-ascii-word).
    /// Checked twice: re-derived here, and by `check_contract`, under the
    /// builtin list and under a random part of it, so a word outside the
    /// caller's list never survives because the builtin list has it.
    #[test]
    fn every_plain_word_is_vocabulary_or_known_identifier(
        case in message(),
        part in subsequence(builtin_words(), 1..=builtin_words().len()),
    ) {
        let partial = Scrubber::with_vocabulary(
            Vocabulary::from_words(&part).expect("builtin words are valid words"),
        );
        for scrubber in [builtin(), &partial] {
            if let Some(template) = scrubber.template(&case.text) {
                let foreign = foreign_words(&template, scrubber.vocabulary());
                prop_assert!(
                    foreign.is_empty(),
                    "not vocabulary: {:?}\ninput:    {:?}\ntemplate: {:?}\nvocabulary: {:?}",
                    foreign,
                    case.text,
                    template,
                    part
                );
                let verdict = check_contract(&template, scrubber);
                prop_assert!(
                    verdict.is_ok(),
                    "contract: {:?}\ninput:    {:?}\ntemplate: {:?}",
                    verdict,
                    case.text,
                    template
                );
            }
        }
    }

    /// A template is at most 160 chars of ASCII letters and the safe
    /// punctuation (the wire validator's charset), for grammar messages and
    /// for arbitrary strings; a cut template ends with `…`.
    #[test]
    fn template_fits_160_chars_of_safe_charset(
        case in prop_oneof![message().prop_map(|case| case.text), any::<String>()],
    ) {
        if let Some(template) = builtin().template(&case) {
            let chars = template.chars().count();
            prop_assert!(
                (1..=MAX_TEMPLATE_CHARS).contains(&chars),
                "{} chars\ninput:    {:?}\ntemplate: {:?}",
                chars,
                case,
                template
            );
            let unsafe_chars: Vec<char> = template
                .chars()
                .filter(|&c| !c.is_ascii_alphabetic() && !SAFE_PUNCTUATION.contains(c))
                .collect();
            prop_assert!(
                unsafe_chars.is_empty(),
                "unsafe chars {:?}\ninput:    {:?}\ntemplate: {:?}",
                unsafe_chars,
                case,
                template
            );
            prop_assert!(
                !template.starts_with(' ') && !template.ends_with(' ') && !template.contains("  "),
                "stray spaces\ninput:    {:?}\ntemplate: {:?}",
                case,
                template
            );
        }
    }

    /// Templating a template returns it unchanged
    /// (docs/design.md#template-contract), so
    /// a template seen twice counts once: for grammar messages, truncated
    /// ones included, and arbitrary strings, under both vocabularies.
    #[test]
    fn templating_a_template_changes_nothing(
        case in prop_oneof![message().prop_map(|case| case.text), any::<String>()],
    ) {
        for scrubber in [builtin(), fenced()] {
            if let Some(template) = scrubber.template(&case) {
                let again = scrubber.template(&template);
                prop_assert_eq!(
                    again.as_deref(),
                    Some(template.as_str()),
                    "input: {:?}",
                    case
                );
            }
        }
    }

    /// Only the first non-empty line counts, for every line-break kind
    /// (`\n`, `\r`, `\r\n`, VT, FF, NEL, U+2028, U+2029): lean-ctx 3.12.0
    /// read on past a lone `\r` or U+2028 (`fine\rsecond line Anna Meier`).
    /// The later lines hold fenced vocabulary words, which would survive on
    /// the first line, and secrets; none appears, and the template is the
    /// template of the first line alone.
    #[test]
    fn only_the_first_line_counts(
        lines in from_bytes(template_fenced::multi_line),
    ) {
        let MultiLine { case, first_line } = lines;
        let text = &case.text;
        let template = fenced().template(text);
        if let Some(template) = &template {
            let fenced = fenced_in(template);
            let leaked = leaked(template, &case);
            prop_assert!(
                fenced.is_empty() && leaked.is_empty(),
                "later line in template: {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                leaked,
                text,
                template
            );
        }
        prop_assert_eq!(
            template,
            fenced().template(&first_line),
            "input: {:?}",
            text
        );
    }

    /// Quoted text never survives (`‹str›`), for every quote kind (`'`, `"`,
    /// `` ` ``, “…”, „…“, ‘…’, «…», 「…」), after contractions (lean-ctx
    /// 3.12.0 paired the apostrophe of `can't` with the next quote and
    /// leaked `Anna Meier`), with apostrophes inside (`'it's here'`), left
    /// unterminated, longer than 300 chars (not matched upstream) and cut
    /// by the 400-char window (whose tail leaked upstream). The quotes hold
    /// fenced vocabulary words, which would survive outside a quote.
    #[test]
    fn quoted_text_never_survives(case in from_bytes(template_fenced::quoted_message)) {
        assert_no_leak(fenced(), &case, "quoted text")?;
    }

    /// A placeholder-shaped input token never passes through: lean-ctx
    /// 3.12.0 copied `‹anna›`, `‹4111111111111111›` and `‹/home/anna/secret›`
    /// verbatim (docs/upstream-faults.md#leanctx-placeholder-passthrough).
    /// Whatever is between or
    /// around the marks, the template holds only the seven placeholders,
    /// no digit, and none of the token's text.
    #[test]
    fn placeholder_shaped_input_never_passes_through(
        case in fenced_message(template_fenced::fenced_placeholder_shaped),
    ) {
        if let Some(template) = fenced().template(&case.text) {
            let foreign = foreign_placeholders(&template);
            let fenced = fenced_in(&template);
            let leaked = leaked(&template, &case);
            prop_assert!(
                foreign.is_empty()
                    && fenced.is_empty()
                    && leaked.is_empty()
                    && !template.bytes().any(|b| b.is_ascii_digit()),
                "placeholder-shaped input passed: {:?} {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                foreign,
                fenced,
                leaked,
                case.text,
                template
            );
        }
    }

    /// Classification is total and stable (docs/design.md#template-contract:
    /// the class is one of nine stable kinds, reported even when no template
    /// survives): any
    /// input gets one of the nine kinds, the same every time, `report`
    /// agrees with `classify` and `template`, and text holding no class
    /// phrase, added before or after, does not change the kind.
    #[test]
    fn classify_is_total_and_stable(
        message in prop_oneof![message().prop_map(|case| case.text), any::<String>()],
        filler in from_bytes(template_fenced::unrelated_text),
        place in 0..3u8,
    ) {
        let kind = classify(&message);
        prop_assert!(FailureKind::ALL.contains(&kind));
        prop_assert_eq!(classify(&message), kind);
        prop_assert_eq!(FailureKind::from_name(kind.as_str()), Some(kind));
        let report = builtin().report(&message);
        prop_assert_eq!(report.kind, kind);
        prop_assert_eq!(report.template, message_template(&message));
        let extended = match place {
            0 => format!("{filler}|{message}"),
            1 => format!("{message}|{filler}"),
            _ => format!("{filler}|{message}|{filler}"),
        };
        prop_assert_eq!(
            classify(&extended),
            kind,
            "message: {:?}\nextended: {:?}",
            message,
            extended
        );
        prop_assert_eq!(classify(&filler), FailureKind::Other, "filler: {:?}", filler);
    }
}

// ---------------------------------------------------------------------------
// Bounded work
// ---------------------------------------------------------------------------

const TEN_MB: usize = 10 * 1024 * 1024;

/// `unit` repeated to at least 10 MB.
fn ten_mb_of(unit: &str) -> String {
    unit.repeat(TEN_MB / unit.len() + 1)
}

/// Huge inputs return quickly: only the first non-empty line is read, and
/// of it only 400 chars (mod.rs: "the work is linear in the input"), and
/// `classify` makes one pass. A 10 MB first line, 10 MB of blank lines of
/// every break kind before a short line, a 10 MB token without separators,
/// 10 MB of quote marks, of ANSI codes or of placeholder marks each take a
/// bounded time, and the blank lines change nothing about the template.
#[test]
fn huge_input_returns_quickly() {
    let line = "error: permission denied while reading 'Anna Meier' in /Users/anna/My Docs/x.txt";
    // (name, repeated unit, what follows the 10 MB)
    let shapes = [
        ("10 MB first line", "can't open 'Anna Meier' file ", ""),
        (
            "10 MB of blank lines",
            "\n \r\n\t\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}",
            line,
        ),
        ("10 MB of spaces", " ", line),
        ("10 MB token", "a", ""),
        ("10 MB of quote marks", "'\"`“«", ""),
        ("10 MB of ANSI codes", "\u{1b}[31m", ""),
        ("10 MB of placeholder marks", "‹n›‹", ""),
        ("10 MB of digits", "4111111111111111 ", ""),
    ];
    let inputs: Vec<(&str, String)> = shapes
        .iter()
        .map(|(name, unit, tail)| (*name, ten_mb_of(unit) + *tail))
        .collect();
    // Linear work, whatever the machine's speed: the whole input may take
    // at most 32 times what an eighth of it takes (quadratic work would
    // take 64 times), plus a fixed allowance for timer noise. A wall-clock
    // budget alone failed on a loaded machine for a linear debug build.
    for ((name, unit, tail), (_, input)) in shapes.iter().zip(&inputs) {
        let eighth = unit.repeat(TEN_MB / 8 / unit.len() + 1) + *tail;
        let time = |text: &str| {
            let started = Instant::now();
            let _ = (message_template(text), classify(text));
            started.elapsed()
        };
        let (small, whole) = (time(&eighth), time(input));
        assert!(
            whole <= small * 32 + Duration::from_millis(250),
            "{name}: the whole took {whole:?}, an eighth {small:?}: more than linear"
        );
    }
    let expected = message_template(line);
    for (name, input) in &inputs {
        let template = message_template(input);
        let kind = classify(input);
        assert!(FailureKind::ALL.contains(&kind), "{name}");
        if let Some(template) = &template {
            assert!(
                template.chars().count() <= MAX_TEMPLATE_CHARS,
                "{name}: {template:?}"
            );
            assert!(
                check_contract(template, builtin()).is_ok(),
                "{name}: {template:?}"
            );
        }
        if name.starts_with("10 MB of blank") || name.starts_with("10 MB of spaces") {
            assert_eq!(template, expected, "{name}");
        } else {
            // One line: what lies past the 400-char window changes nothing.
            let head: String = input.chars().take(2 * MAX_INPUT_CHARS).collect();
            assert_eq!(template, message_template(&head), "{name}");
        }
    }
}

// ---------------------------------------------------------------------------
// Secrets spelt in vocabulary words (issue: no name or secret survives)
// ---------------------------------------------------------------------------

/// Messages with a secret spelt in the builtin vocabulary's own words.
fn planted_case() -> impl Strategy<Value = Planted> {
    from_bytes(|u| template_planted::planted(u, Lexicon::builtin()))
}

proptest! {
    #![proptest_config(config(FAILURES))]

    /// No secret spelt in the vocabulary's own words survives (issue: "no
    /// name or secret survives, even one spelled in vocabulary words"): two
    /// or three capitalised words or one listed name inside a sentence, a
    /// word after a noun that names a value, hyphen compounds, slash-joins,
    /// spaced paths and paths the 400-char window cuts, quotes padded with
    /// spaces, a quote behind a malformed colour code, a run of marks and a
    /// `ctx_` name of several words; each made of vocabulary words, which
    /// the vocabulary alone would keep. The template, when there is one,
    /// also keeps the contract.
    #[test]
    fn no_vocabulary_spelt_secret_survives(planted in planted_case()) {
        let Planted { class, case } = &planted;
        let template = builtin().template(&case.text);
        if let Some(template) = &template {
            let leaks = leaked(template, case);
            prop_assert!(
                leaks.is_empty(),
                "{:?} secret leaked: {:?}\ninput:    {:?}\ntemplate: {:?}",
                class,
                leaks,
                case.text,
                template
            );
            let verdict = check_contract(template, builtin());
            prop_assert!(verdict.is_ok(), "{verdict:?}: {template:?}");
        }
    }
}

#[test]
fn the_planted_reader_sees_what_it_is_shown() {
    // The leak reader itself: a kept secret word is a leak whatever its
    // case, a placeholder's letters are not, and marks count as text.
    let case = Planted {
        class: SecretClass::Name,
        case: Case {
            text: String::new(),
            secrets: vec!["Power".into(), "text".into(), "(-.-)".into()],
        },
    };
    assert_eq!(leaked("sync for power ‹text›", &case.case), ["Power"]);
    assert!(leaked("sync for ‹text› on", &case.case).is_empty());
    assert_eq!(leaked("sync (-.-) on", &case.case), ["(-.-)"]);
}
