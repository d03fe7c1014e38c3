//! Every rule's matches on a view, found without scanning the view once per
//! rule.
//!
//! Each rule's pattern yields the literals every one of its matches starts
//! with (`regex_syntax`'s prefix extraction: a sound over-approximation, so
//! a position no literal starts at holds no match of the rule). One
//! Aho-Corasick pass over the view finds every such start for every rule;
//! the rule's regex then runs anchored at those starts only. For a rule,
//! the leftmost match at or after a position is the first candidate there
//! with an anchored match, so walking the candidates in order from the end
//! of the last match gives exactly `find_iter`'s (non-empty) matches.
//! A rule whose matches have no finite set of first literals is searched
//! whole, as before.
//!
//! Most candidates fail, and a failed anchored search costs mostly its
//! start: so the assertions every match starting with a literal passes
//! before its first byte (a line start, a word boundary: `look_set_prefix`
//! of the HIR of each alternative the literal comes from) are tested on the
//! bytes around a candidate first, and a candidate that fails them is no
//! start of the rule. The test is exact where it answers (ASCII around the
//! start) and lets the search decide elsewhere. The assertions are each
//! literal's, not the rule's: a rule of many languages' words opens most
//! alternatives with a word boundary and a few without one, and read as a
//! whole it had none, so `ai` inside `again` was a start of it.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::pool::Pool;
use regex_automata::{Anchored, Input, meta};
use regex_syntax::ast::{
    Ast, ClassSet, ClassSetItem, Flag, Flags, FlagsItemKind, GroupKind, RepetitionKind,
    RepetitionRange,
};
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Hir, HirKind, Look};

#[path = "first_literals.rs"]
mod first_literals;

/// Longest first literal kept: longer ones are cut to this (still a prefix
/// of every match). Six bytes keep the automaton small enough to build in
/// a few milliseconds (14,640 literals for the rules of web 2.5.0; twelve bytes
/// once made 11,565 of a rule table a third this size, most of the cost of
/// building it) while a cut literal is still a word or two (`ignore`, `you
/// ar`), so few positions become candidates that a longer one would not
/// have.
const MAX_PREFIX: usize = 6;

/// Most a rule's lazy DFA cache may grow to before it is cleared. The
/// default, 2 MiB, is too small for the rules that join many languages'
/// verbs, a gap of up to 30 chars and many languages' objects: on the
/// `strip` fuzz corpus their caches were cleared over and over, and a
/// strip cost 3.4 times the instructions it costs with room for their
/// states (`strip_speed fuzz/corpus/strip`, cachegrind; no change on the
/// Rust docs or the committed corpus). A cache grows only as states are
/// made, so the rules that need little keep little.
const DFA_CACHE_CAPACITY: usize = 8 << 20;

/// A pattern that only ever runs anchored: a forward lazy DFA, without the
/// reverse automaton, one-pass DFA and backtracker a [`meta::Regex`] builds
/// to find where a match starts (an anchored match starts where the search
/// does), which made building a rule several times dearer.
pub struct AnchoredRegex {
    source: String,
    /// The pattern's lazy DFA and its caches (`None` when it cannot serve
    /// the pattern), built with the regex unless it is asked relaxed
    /// first, then the first time the relaxed DFA finds a match.
    exact: OnceLock<Option<LazyDfa>>,
    /// The pattern with its long counted repetitions unbounded
    /// ([`relaxed_dfa`]), asked first whether a match starts at all, and
    /// the longest match of the pattern (if it has a longest), which bounds
    /// how far it reads.
    relaxed: Option<(LazyDfa, Option<usize>)>,
    /// Used if the lazy DFA cannot serve the pattern or a search: a
    /// [`meta::Regex`] answers the same, more slowly.
    fallback: OnceLock<meta::Regex>,
}

/// A lazy DFA and the pool its search caches come from.
struct LazyDfa {
    dfa: DFA,
    caches: Pool<Cache, CacheMaker>,
}

impl LazyDfa {
    fn new(dfa: DFA) -> LazyDfa {
        let maker = dfa.clone();
        let make: CacheMaker = Box::new(move || maker.create_cache());
        LazyDfa {
            dfa,
            caches: Pool::new(make),
        }
    }
}

type CacheMaker = Box<dyn Fn() -> Cache + Send + Sync>;

impl AnchoredRegex {
    /// `source` compiled; panics on a pattern that does not compile, which
    /// is a bug in the rule table (`every_rule_compiles` builds them all).
    pub fn new(source: &str) -> AnchoredRegex {
        let regex = AnchoredRegex {
            source: source.to_owned(),
            exact: OnceLock::from(exact_dfa(source)),
            relaxed: None,
            fallback: OnceLock::new(),
        };
        if regex.exact().is_none() {
            regex.fallback();
        }
        regex
    }

    /// `source` compiled to be asked relaxed first ([`relaxed_dfa`]),
    /// falling back to [`AnchoredRegex::new`] if the relaxed pattern does
    /// not build.
    pub fn relaxed_first(source: &str) -> AnchoredRegex {
        match relaxed_dfa(source) {
            Some((relaxed, longest)) => AnchoredRegex {
                source: source.to_owned(),
                exact: OnceLock::new(),
                relaxed: Some((LazyDfa::new(relaxed), longest)),
                fallback: OnceLock::new(),
            },
            None => AnchoredRegex::new(source),
        }
    }

    fn exact(&self) -> Option<&LazyDfa> {
        self.exact.get_or_init(|| exact_dfa(&self.source)).as_ref()
    }

    fn fallback(&self) -> &meta::Regex {
        self.fallback.get_or_init(|| {
            meta::Builder::new()
                .configure(
                    meta::Config::new()
                        .auto_prefilter(false)
                        .hybrid_cache_capacity(DFA_CACHE_CAPACITY),
                )
                .build(&self.source)
                .unwrap_or_else(|error| {
                    panic!(
                        "rule {:?} must compile (a bug in the rule table): {error}",
                        self.source
                    )
                })
        })
    }

    /// The end of the leftmost-first match that starts at `start` in
    /// `haystack` (the text before it is context for `\b` and `^`).
    pub fn end_at(&self, haystack: &str, start: usize) -> Option<usize> {
        self.ends_at(haystack, |each| each(start))
    }

    /// [`AnchoredRegex::end_at`] for many starts: `starts` calls its
    /// argument with each start, and gets that start's end. One cache is
    /// taken from each pool for all of them (a rule has hundreds of
    /// candidates on a page, and taking one costs as much as a short
    /// search), the exact DFA's only once a start needs it.
    pub fn ends_at<R>(
        &self,
        haystack: &str,
        starts: impl FnOnce(&mut dyn FnMut(usize) -> Option<usize>) -> R,
    ) -> R {
        let mut relaxed = self
            .relaxed
            .as_ref()
            .map(|(relaxed, longest)| (&relaxed.dfa, relaxed.caches.get(), *longest));
        let mut exact = None;
        let mut end_at = |start: usize| {
            let input = Input::new(haystack).range(start..).anchored(Anchored::Yes);
            // Read no further than the pattern's longest match: unbounded,
            // the relaxed gap read on to the end of the line from every
            // candidate (`ignore ignore …` took quadratic time). A pattern
            // with no longest match reads as far itself. Look-arounds still
            // see the bytes after the window.
            if let Some((dfa, cache, longest)) = relaxed.as_mut() {
                let end = longest.map_or(haystack.len(), |longest| {
                    haystack.len().min(start.saturating_add(longest))
                });
                let window = input.clone().range(start..end).earliest(true);
                if let Ok(None) = dfa.try_search_fwd(cache, &window) {
                    return None;
                }
            }
            if exact.is_none() {
                exact = Some(self.exact().map(|exact| (&exact.dfa, exact.caches.get())));
            }
            if let Some(Some((dfa, cache))) = exact.as_mut()
                && let Ok(found) = dfa.try_search_fwd(cache, &input)
            {
                return found.map(|half| half.offset());
            }
            self.fallback()
                .search_half(&input)
                .map(|half| half.offset())
        };
        starts(&mut end_at)
    }
}

/// How every rule's NFA is compiled: a search asks only where a match
/// ends, so no capture groups.
fn nfa_config() -> thompson::Config {
    thompson::Config::new().which_captures(WhichCaptures::None)
}

/// How every rule's lazy DFA is configured ([`DFA_CACHE_CAPACITY`]).
fn dfa_config() -> regex_automata::hybrid::dfa::Config {
    DFA::config().cache_capacity(DFA_CACHE_CAPACITY)
}

/// `source`'s lazy DFA, if one can serve it.
fn exact_dfa(source: &str) -> Option<LazyDfa> {
    DFA::builder()
        .configure(dfa_config())
        .thompson(nfa_config())
        .build(source)
        .ok()
        .map(LazyDfa::new)
}

/// A counted repetition with a greater bound than this is unbounded in
/// the relaxed pattern.
const RELAX_ABOVE: u32 = 8;

/// Patterns whose NFA has more states than this are asked relaxed first:
/// the rules that join dozens of languages' word lists by counted gaps
/// (4,500 to 35,000 states), and those that join a list of common verbs
/// (`write`, `copy`, `add`, `include`) by a gap of up to 80 chars to their
/// objects (2,000 to 4,000 states). Asked exact, these tracked every
/// count of the gap for every verb of a page: two of them took 124 of the
/// 341 ms that anchored searches took in a `web strip --jsonl` run over
/// 400 pages of other projects' documentation, 18 ms relaxed first. A
/// smaller pattern's lazy DFA keeps its states, and a relaxed search of it
/// would read on where the pattern gives up after its bound: with every
/// rule that has a gap to relax asked relaxed first, the same run's
/// anchored searches took 168–179 ms (121–150 ms with this bound).
const RELAX_NFA_STATES: usize = 2_000;

/// `source`'s lazy DFA with every counted repetition of more than
/// [`RELAX_ABOVE`] made unbounded (`[^\n.!?]{0,30}?` becomes
/// `[^\n.!?]*?`), if it has one, and the length of `source`'s longest
/// match, if it has a longest.
///
/// Why: a gap counted to 30 chars between two word lists makes a lazy DFA
/// track, for each count, which words are under way, and a rule joining
/// dozens of languages' verbs and objects so had more states than its
/// cache held: on the texts of the injection corpus it was cleared 30
/// times over and most of a strip went to building states again. The
/// relaxed pattern has the gap's words and not its counts. It matches
/// every text the pattern matches (a bound only raised), so where it finds
/// no match starting at a position neither does the pattern, and the
/// pattern itself runs only where the relaxed one found one: its answers
/// are the pattern's.
fn relaxed_dfa(source: &str) -> Option<(DFA, Option<usize>)> {
    let (relaxed, longest) = relaxed_hir(source)?;
    let nfa = thompson::Compiler::new()
        .configure(nfa_config())
        .build_from_hir(&relaxed)
        .ok()?;
    let dfa = DFA::builder()
        .configure(dfa_config())
        .build_from_nfa(nfa)
        .ok()?;
    Some((dfa, longest))
}

/// `source` relaxed ([`relaxed_dfa`]), if it has a repetition to relax,
/// and the length of `source`'s longest match, if it has a longest.
///
/// The relaxing is done on the syntax tree, before it is translated, so
/// that the pattern is translated once: the same done on the translated
/// pattern rebuilt every node of it (1.6% of the instructions of a `web
/// strip --jsonl` run over 400 pages of other projects' documentation,
/// where the largest rules are compiled; the tests keep that reading to
/// check this one against).
fn relaxed_hir(source: &str) -> Option<(Hir, Option<usize>)> {
    let mut ast = regex_syntax::ast::parse::Parser::new().parse(source).ok()?;
    let longest = longest_match(&ast);
    if !unbound_long_ranges(&mut ast) {
        return None;
    }
    let relaxed = regex_syntax::hir::translate::Translator::new()
        .translate(source, &ast)
        .ok()?;
    Some((relaxed, longest))
}

/// Makes each counted repetition of `ast` bounded above [`RELAX_ABOVE`]
/// unbounded (`{0,30}` becomes `{0,}`); whether there was one.
fn unbound_long_ranges(ast: &mut Ast) -> bool {
    match ast {
        Ast::Repetition(repetition) => {
            let inner = unbound_long_ranges(&mut repetition.ast);
            let relaxed = match &repetition.op.kind {
                RepetitionKind::Range(RepetitionRange::Bounded(min, max)) if *max > RELAX_ABOVE => {
                    Some(*min)
                }
                RepetitionKind::Range(RepetitionRange::Exactly(count)) if *count > RELAX_ABOVE => {
                    Some(*count)
                }
                _ => None,
            };
            if let Some(min) = relaxed {
                repetition.op.kind = RepetitionKind::Range(RepetitionRange::AtLeast(min));
            }
            inner || relaxed.is_some()
        }
        Ast::Group(group) => unbound_long_ranges(&mut group.ast),
        Ast::Alternation(alternation) => unbound_long_ranges_in(&mut alternation.asts),
        Ast::Concat(concat) => unbound_long_ranges_in(&mut concat.asts),
        _ => false,
    }
}

/// [`unbound_long_ranges`] on each of `asts`, all of them.
fn unbound_long_ranges_in(asts: &mut [Ast]) -> bool {
    let mut changed = false;
    for ast in asts {
        changed |= unbound_long_ranges(ast);
    }
    changed
}

/// The most bytes a match of `ast` spans (`None`: no bound), read from
/// the syntax tree: a literal its UTF-8 length, a class of literals and
/// ranges its longest char, any other class four bytes, the most UTF-8
/// takes. Never less than the translated pattern's longest match, which
/// `longest_match_bounds_the_translated_pattern` checks on every rule; a
/// pattern with a case-insensitive flag has none here (a folded letter may
/// be longer than the one written).
fn longest_match(ast: &Ast) -> Option<usize> {
    match ast {
        Ast::Empty(_) | Ast::Assertion(_) => Some(0),
        Ast::Flags(flags) => (!case_insensitive(&flags.flags)).then_some(0),
        Ast::Literal(literal) => Some(literal.c.len_utf8()),
        Ast::Dot(_) | Ast::ClassUnicode(_) | Ast::ClassPerl(_) => Some(4),
        Ast::ClassBracketed(class) if class.negated => Some(4),
        Ast::ClassBracketed(class) => Some(longest_in_set(&class.kind)),
        Ast::Repetition(repetition) => {
            let each = longest_match(&repetition.ast)?;
            let most = match &repetition.op.kind {
                RepetitionKind::ZeroOrOne => 1,
                RepetitionKind::Range(
                    RepetitionRange::Exactly(most) | RepetitionRange::Bounded(_, most),
                ) => *most,
                RepetitionKind::ZeroOrMore
                | RepetitionKind::OneOrMore
                | RepetitionKind::Range(RepetitionRange::AtLeast(_)) => {
                    return (each == 0).then_some(0);
                }
            };
            each.checked_mul(usize::try_from(most).ok()?)
        }
        Ast::Group(group) => {
            if let GroupKind::NonCapturing(flags) = &group.kind
                && case_insensitive(flags)
            {
                return None;
            }
            longest_match(&group.ast)
        }
        Ast::Alternation(alternation) => alternation
            .asts
            .iter()
            .try_fold(0, |most, ast| Some(most.max(longest_match(ast)?))),
        Ast::Concat(concat) => concat
            .asts
            .iter()
            .try_fold(0usize, |sum, ast| sum.checked_add(longest_match(ast)?)),
    }
}

/// The longest char of a bracketed class's set, or four bytes where it
/// holds a class of its own.
fn longest_in_set(set: &ClassSet) -> usize {
    match set {
        ClassSet::Item(item) => longest_in_item(item),
        ClassSet::BinaryOp(op) => longest_in_set(&op.lhs).max(longest_in_set(&op.rhs)),
    }
}

fn longest_in_item(item: &ClassSetItem) -> usize {
    match item {
        ClassSetItem::Empty(_) => 0,
        ClassSetItem::Literal(literal) => literal.c.len_utf8(),
        ClassSetItem::Range(range) => range.start.c.len_utf8().max(range.end.c.len_utf8()),
        ClassSetItem::Ascii(_) => 1,
        ClassSetItem::Unicode(_) | ClassSetItem::Perl(_) => 4,
        ClassSetItem::Bracketed(class) if class.negated => 4,
        ClassSetItem::Bracketed(class) => longest_in_set(&class.kind),
        ClassSetItem::Union(union) => union.items.iter().map(longest_in_item).max().unwrap_or(0),
    }
}

/// Whether `flags` turn case-insensitive matching on or off.
fn case_insensitive(flags: &Flags) -> bool {
    flags
        .items
        .iter()
        .any(|item| matches!(item.kind, FlagsItemKind::Flag(Flag::CaseInsensitive)))
}

/// The assertions every match of a rule (or of an alternative of it)
/// passes at its start, as bits: [`StartLooks::LINE_START`] and the word
/// boundaries, the ones a rule table opens its patterns with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartLooks(pub u8);

impl StartLooks {
    /// `\A`: the view's start.
    pub const TEXT_START: u8 = 1;
    /// `(?m:^)`: the view's start or right after a `\n`.
    pub const LINE_START: u8 = 2;
    /// `(?-u:\b)`.
    pub const WORD_ASCII: u8 = 4;
    /// `\b`: decided here only when both sides are ASCII.
    pub const WORD_UNICODE: u8 = 8;
    /// Bits a `StartLooks` uses: the literal table packs them beside a
    /// rule's index.
    const BITS: u32 = 4;

    /// The assertions of `hir`'s prefix this test knows.
    fn of(hir: &regex_syntax::hir::Hir) -> StartLooks {
        let prefix = hir.properties().look_set_prefix();
        let mut bits = 0;
        for (look, bit) in [
            (Look::Start, Self::TEXT_START),
            (Look::StartLF, Self::LINE_START),
            (Look::WordAscii, Self::WORD_ASCII),
            (Look::WordUnicode, Self::WORD_UNICODE),
        ] {
            if prefix.contains(look) {
                bits |= bit;
            }
        }
        StartLooks(bits)
    }

    /// The assertions both `self` and `other` make: what a start passes
    /// when it passes one of them.
    fn shared(self, other: StartLooks) -> StartLooks {
        StartLooks(self.0 & other.0)
    }

    /// Whether a match may start at `at` of `text` as far as these
    /// assertions tell: `false` only when one of them fails there.
    #[inline]
    fn may_start_at(self, text: &[u8], at: usize) -> bool {
        if self.0 == 0 {
            return true;
        }
        let before = at.checked_sub(1).and_then(|i| text.get(i)).copied();
        let after = text.get(at).copied();
        if self.0 & Self::TEXT_START != 0 && at != 0 {
            return false;
        }
        if self.0 & Self::LINE_START != 0 && !matches!(before, None | Some(b'\n')) {
            return false;
        }
        let is_word = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
        let boundary = is_word(before) != is_word(after);
        if self.0 & Self::WORD_ASCII != 0 && !boundary {
            return false;
        }
        // A non-ASCII byte on either side may be a Unicode word char:
        // only an all-ASCII neighbourhood is decided.
        let ascii = |b: Option<u8>| b.is_none_or(|b| b.is_ascii());
        if self.0 & Self::WORD_UNICODE != 0 && ascii(before) && ascii(after) && !boundary {
            return false;
        }
        true
    }
}

/// A rule's compiled pattern, as its [`Starts`] search it.
enum RuleRegex {
    /// Boxed: a lazy DFA is some 800 bytes, and most rules' cells stay
    /// empty.
    Anchored(Box<AnchoredRegex>),
    Whole(meta::Regex),
}

/// Where a rule's matches may start.
enum Starts {
    /// At an occurrence of one of the automaton's literals for this rule.
    Literals,
    /// Anywhere: the rule is searched whole.
    Anywhere,
}

pub struct RuleSearch {
    sources: Vec<String>,
    /// Each rule's regex, built the first time the rule has a candidate:
    /// most pages give most rules none, and building them all costs more
    /// than stripping a page.
    regexes: Vec<OnceLock<RuleRegex>>,
    starts: Vec<Starts>,
    /// Whether each rule is asked relaxed first ([`asked_relaxed_first`]).
    relaxed_first: Vec<bool>,
    /// Every rule's first literals, folded ([`fold_gap`]), overlapping.
    prefixes: AhoCorasick,
    /// For each literal of `prefixes`, the rules it may start, each with
    /// the [`StartLooks`] a start of the rule with the literal passes,
    /// tested at a candidate before its search ([`pack_rule`]).
    literal_rules: LiteralRules,
    /// The rules searched whole ([`Starts::Anywhere`]), in order.
    searched_whole: Vec<usize>,
}

/// The byte the literal pass reads for `byte` of the view: the bytes a
/// rule's gap (`~`, `[ \n./+]?`, see `rules::translate`) allows read as a
/// space, but for `\n`. A literal occurs in the view only where its fold
/// occurs in the folded view, at the same place (the fold maps byte to
/// byte), so no start is lost, and the rule's regex, run on the view
/// itself, decides. Each gap in a literal had made five literals of it
/// (`act as`, `act\nas`, `act.as`, …), two now: the literals of web 2.9.0
/// are 8,114 instead of 13,319. A `\n` stays apart because the literals
/// that open with one (a rule's line head) would, read as a space, start a
/// candidate at every space of a page (6,438 literals, and a slower strip).
#[inline]
fn fold_gap(byte: u8) -> u8 {
    match byte {
        b'.' | b'/' | b'+' => b' ',
        other => other,
    }
}

/// Which rules each literal of the literal pass may start: the stored
/// table's, or worked out from the sources.
enum LiteralRules {
    Stored(&'static [(&'static [u8], &'static [u32])]),
    Built(Vec<LiteralEntry>),
}

/// A folded literal and the rules it may start, in order, each packed with
/// its start assertions ([`pack_rule`]).
type LiteralEntry = (Vec<u8>, Vec<u32>);

/// A rule's index and the [`StartLooks`] of one of its literals as one
/// number of the literal table.
fn pack_rule(rule: usize, looks: StartLooks) -> u32 {
    let rule = u32::try_from(rule)
        .ok()
        .filter(|rule| rule >> (u32::BITS - StartLooks::BITS) == 0)
        .expect("the rule table holds far fewer than 2^28 rules");
    rule << StartLooks::BITS | u32::from(looks.0)
}

/// [`pack_rule`] undone.
#[inline]
fn unpack_rule(packed: u32) -> (usize, StartLooks) {
    (
        (packed >> StartLooks::BITS) as usize,
        StartLooks((packed & ((1 << StartLooks::BITS) - 1)) as u8),
    )
}

/// A rule's first literals, each with the start assertions of the
/// alternatives it comes from (`None`: the rule is searched whole).
type RuleLiterals = Option<Vec<(Vec<u8>, StartLooks)>>;

impl LiteralRules {
    fn literals(&self) -> Vec<&[u8]> {
        match self {
            LiteralRules::Stored(table) => table.iter().map(|(literal, _)| *literal).collect(),
            LiteralRules::Built(table) => table
                .iter()
                .map(|(literal, _)| literal.as_slice())
                .collect(),
        }
    }

    fn rules_of(&self, literal: usize) -> &[u32] {
        match self {
            LiteralRules::Stored(table) => table[literal].1,
            LiteralRules::Built(table) => &table[literal].1,
        }
    }
}

/// The literal pass's table for rules whose first literals are
/// `per_rule` (`None` for a rule searched whole): each folded literal once,
/// in byte order, with the rules it may start, in order, each with the
/// start assertions every literal that folds to it passes (the bits they
/// share), and the rules searched whole.
fn literal_table(per_rule: &[RuleLiterals]) -> (Vec<LiteralEntry>, Vec<usize>) {
    let mut rules_of = std::collections::BTreeMap::<Vec<u8>, Vec<(usize, StartLooks)>>::new();
    let mut searched_whole = Vec::new();
    for (rule, literals) in per_rule.iter().enumerate() {
        let Some(literals) = literals else {
            searched_whole.push(rule);
            continue;
        };
        for (literal, looks) in literals {
            let rules = rules_of
                .entry(literal.iter().copied().map(fold_gap).collect())
                .or_default();
            match rules.last_mut() {
                Some((last, shared)) if *last == rule => *shared = shared.shared(*looks),
                _ => rules.push((rule, *looks)),
            }
        }
    }
    let table = rules_of
        .into_iter()
        .map(|(literal, rules)| {
            let packed = rules
                .into_iter()
                .map(|(rule, looks)| pack_rule(rule, looks))
                .collect();
            (literal, packed)
        })
        .collect();
    (table, searched_whole)
}

/// The literal pass's automaton for the stored table's literals, to hand
/// to [`RuleSearch::new`].
pub fn stored_prefixes() -> AhoCorasick {
    prefixes_of(first_literals::LITERALS.iter().map(|(literal, _)| *literal))
}

fn prefixes_of<'a>(literals: impl IntoIterator<Item = &'a [u8]>) -> AhoCorasick {
    AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(literals)
        .expect("a few thousand short literals fit the automaton's limits")
}

impl RuleSearch {
    /// The search for `sources`, each a rule's compiled pattern, with
    /// `stored`, the automaton of [`stored_prefixes`], if it was built
    /// already (it serves only if the table was stored for these sources).
    pub fn new(sources: &[String], stored: Option<AhoCorasick>) -> RuleSearch {
        let (relaxed_first, literal_rules, searched_whole) = if table_is_stored(sources) {
            (
                (0..sources.len())
                    .map(|rule| first_literals::RELAXED_FIRST.contains(&rule))
                    .collect(),
                LiteralRules::Stored(first_literals::LITERALS),
                first_literals::SEARCHED_WHOLE.to_vec(),
            )
        } else {
            let per_rule: Vec<RuleLiterals> = sources
                .iter()
                .map(|source| first_literals(source))
                .collect();
            let (table, searched_whole) = literal_table(&per_rule);
            (
                sources
                    .iter()
                    .map(|source| asked_relaxed_first(source))
                    .collect(),
                LiteralRules::Built(table),
                searched_whole,
            )
        };
        let prefixes = match (stored, &literal_rules) {
            (Some(stored), LiteralRules::Stored(_)) => stored,
            _ => prefixes_of(literal_rules.literals()),
        };
        let starts = (0..sources.len())
            .map(|rule| {
                if searched_whole.contains(&rule) {
                    Starts::Anywhere
                } else {
                    Starts::Literals
                }
            })
            .collect();
        RuleSearch {
            sources: sources.to_vec(),
            regexes: sources.iter().map(|_| OnceLock::new()).collect(),
            starts,
            relaxed_first,
            prefixes,
            literal_rules,
            searched_whole,
        }
    }

    /// Rule `rule`'s regex: anchored only for a rule with first literals
    /// (the literal pass is its prefilter), else searched whole with one.
    fn regex(&self, rule: usize) -> &RuleRegex {
        self.regexes[rule].get_or_init(|| {
            let source = &self.sources[rule];
            match self.starts[rule] {
                Starts::Literals if self.relaxed_first[rule] => {
                    RuleRegex::Anchored(Box::new(AnchoredRegex::relaxed_first(source)))
                }
                Starts::Literals => RuleRegex::Anchored(Box::new(AnchoredRegex::new(source))),
                Starts::Anywhere => {
                    RuleRegex::Whole(meta::Regex::new(source).unwrap_or_else(|error| {
                        panic!("rule {source:?} must compile (a bug in the rule table): {error}")
                    }))
                }
            }
        })
    }

    /// Compiles every rule's regex now, so that a bad pattern fails a test
    /// rather than the first page that reaches it.
    #[cfg(test)]
    pub fn build_all(&self) {
        for rule in 0..self.regexes.len() {
            self.regex(rule);
        }
    }

    /// How many rules are searched whole (no finite set of first literals).
    #[cfg(test)]
    pub fn searched_whole(&self) -> usize {
        self.searched_whole.len()
    }

    /// Every rule's non-overlapping leftmost-first matches on `text`, as
    /// `(rule, start, end)`: the rules with first literals rule by rule in
    /// order, each rule's in order, then the rules searched whole.
    pub fn find_all(&self, text: &str) -> Vec<(usize, usize, usize)> {
        // Each candidate as `rule << 32 | start`, so that sorting the
        // numbers orders them rule by rule, each rule's by start, and a
        // start two literals give comes twice in a row. A start the rule's
        // start assertions turn away is dropped here, before it is sorted.
        // Only the rules with candidates cost anything: a short text gives
        // a few of the table's rules a candidate, and bookkeeping over
        // every rule per search (one search per view and per carrier) was
        // most of what stripping it cost.
        let bytes = text.as_bytes();
        let folded: Vec<u8> = bytes.iter().copied().map(fold_gap).collect();
        let mut candidates: Vec<u64> = Vec::new();
        for hit in self.prefixes.find_overlapping_iter(&folded) {
            let start = hit.start();
            let packed_start = u32::try_from(start).unwrap_or(u32::MAX);
            for &packed in self.literal_rules.rules_of(hit.pattern().as_usize()) {
                let (rule, looks) = unpack_rule(packed);
                if looks.may_start_at(bytes, start) {
                    candidates.push((rule as u64) << 32 | u64::from(packed_start));
                }
            }
        }
        sort_candidates(&mut candidates, self.regexes.len());
        candidates.dedup();
        let mut found = Vec::new();
        for run in candidates.chunk_by(|a, b| a >> 32 == b >> 32) {
            let rule = (run[0] >> 32) as usize;
            let RuleRegex::Anchored(regex) = self.regex(rule) else {
                continue;
            };
            regex.ends_at(text, |end_at| {
                let mut resume = 0;
                for &packed in run {
                    let start = (packed & u64::from(u32::MAX)) as usize;
                    if start < resume {
                        continue;
                    }
                    if let Some(end) = end_at(start)
                        && end > start
                    {
                        found.push((rule, start, end));
                        resume = end;
                    }
                }
            });
        }
        for &rule in &self.searched_whole {
            if let RuleRegex::Whole(regex) = self.regex(rule) {
                found.extend(
                    regex
                        .find_iter(text)
                        .filter(|hit| !hit.is_empty())
                        .map(|hit| (rule, hit.start(), hit.end())),
                );
            }
        }
        found
    }
}

/// Sorts packed candidates (`rule << 32 | start`) of a table of `rules`
/// rules. A page gives hundreds of thousands, which are laid out rule by
/// rule by counting first, each rule's run then sorted on its own (the
/// literal pass gives them nearly in order); a short text gives a few,
/// which one comparison sort orders at once.
fn sort_candidates(candidates: &mut Vec<u64>, rules: usize) {
    const COUNTED_FROM: usize = 1 << 12;
    if candidates.len() < COUNTED_FROM {
        candidates.sort_unstable();
        return;
    }
    let rule_of = |packed: u64| (packed >> 32) as usize;
    let mut bounds = vec![0usize; rules + 1];
    for &packed in candidates.iter() {
        bounds[rule_of(packed) + 1] += 1;
    }
    for rule in 0..rules {
        bounds[rule + 1] += bounds[rule];
    }
    let mut laid_out = vec![0u64; candidates.len()];
    let mut next = bounds.clone();
    for &packed in candidates.iter() {
        laid_out[next[rule_of(packed)]] = packed;
        next[rule_of(packed)] += 1;
    }
    for rule in 0..rules {
        laid_out[bounds[rule]..bounds[rule + 1]].sort_unstable();
    }
    *candidates = laid_out;
}

/// Whether `first_literals.rs` was written for exactly these sources (if
/// not, all is worked out from the sources): extracting literals parses
/// every rule, and telling which are asked relaxed first compiles them,
/// which cost more than the rest of building the search.
fn table_is_stored(sources: &[String]) -> bool {
    sources.len() == first_literals::RULES && sources_hash(sources) == first_literals::SOURCES_HASH
}

/// Whether `source` is asked relaxed first: its NFA has more than
/// [`RELAX_NFA_STATES`] states, and it has a counted repetition to relax
/// (a large pattern without one is its own relaxed form).
fn asked_relaxed_first(source: &str) -> bool {
    relaxed_hir(source).is_some()
        && thompson::Compiler::new()
            .configure(nfa_config())
            .build(source)
            .is_ok_and(|nfa| nfa.states().len() > RELAX_NFA_STATES)
}

/// FNV-1a over the sources, each ended by a zero byte: which rule table a
/// stored literal table was written for.
fn sources_hash(sources: &[String]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in sources
        .iter()
        .flat_map(|source| source.bytes().chain(std::iter::once(0)))
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The literals every match of `source` starts with, cut to [`MAX_PREFIX`]
/// bytes and without those another one prefixes, each with the assertions
/// every match starting with it passes at its start (`None` when there is
/// no finite set, or one holds the empty string: a match could start
/// anywhere).
///
/// Each alternative of the pattern ([`alternatives`]) is extracted on its
/// own, with its own assertions: a match of the pattern is a match of one
/// alternative, which starts with one of that alternative's literals and
/// passes its assertions there. A literal several alternatives give keeps
/// only the assertions they share.
fn first_literals(source: &str) -> RuleLiterals {
    let hir = regex_syntax::Parser::new().parse(source).ok()?;
    let mut parts = Vec::new();
    alternatives(&hir, &mut parts);
    let mut literals: Vec<(Vec<u8>, StartLooks)> = Vec::new();
    for part in &parts {
        let looks = StartLooks::of(part);
        literals.extend(
            literals_of(part)?
                .into_iter()
                .map(|literal| (literal, looks)),
        );
    }
    literals.sort_by(|a, b| a.0.cmp(&b.0));
    // Sorted, a literal's prefixes that are literals too come right before
    // it: the shortest is kept, with the assertions of every literal it
    // stands for.
    let mut kept: Vec<(Vec<u8>, StartLooks)> = Vec::with_capacity(literals.len());
    for (literal, looks) in literals {
        match kept.last_mut() {
            Some((last, shared)) if literal.starts_with(last) => *shared = shared.shared(looks),
            _ => kept.push((literal, looks)),
        }
    }
    Some(kept)
}

/// Most alternatives of a head alternation spread over what follows it
/// (`(?:a|b)c` read as `ac|bc`): a multilingual word list at a rule's head
/// stays whole, as one alternative.
const MAX_SPREAD: usize = 64;

/// The alternatives of `hir`, into `out`: its top alternation's branches,
/// through groups, and a concatenation whose first part past its
/// assertions is an alternation of at most [`MAX_SPREAD`] branches as one
/// alternative per branch. Every match of `hir` is a match of one of them.
fn alternatives(hir: &Hir, out: &mut Vec<Hir>) {
    match hir.kind() {
        HirKind::Alternation(branches) => {
            for branch in branches {
                alternatives(branch, out);
            }
        }
        HirKind::Capture(capture) => alternatives(&capture.sub, out),
        HirKind::Concat(parts) => {
            let head = parts
                .iter()
                .position(|part| !matches!(part.kind(), HirKind::Look(_)));
            let branches = head.and_then(|head| match ungrouped(&parts[head]).kind() {
                HirKind::Alternation(branches) if branches.len() <= MAX_SPREAD => {
                    Some((head, branches))
                }
                _ => None,
            });
            let Some((head, branches)) = branches else {
                out.push(hir.clone());
                return;
            };
            for branch in branches {
                let mut spread = parts[..head].to_vec();
                spread.push(branch.clone());
                spread.extend(parts[head + 1..].iter().cloned());
                alternatives(&Hir::concat(spread), out);
            }
        }
        _ => out.push(hir.clone()),
    }
}

/// `hir` without the capture groups around it.
fn ungrouped(hir: &Hir) -> &Hir {
    match hir.kind() {
        HirKind::Capture(capture) => ungrouped(&capture.sub),
        _ => hir,
    }
}

/// Extraction stops a literal at [`MAX_PREFIX`] bytes, where it is cut
/// anyway: grown further, a rule's cross products of words and gaps went
/// past the total limit, and extraction fell back to a literal as short as
/// `a` or `the`, which made every such word of a page a start the rule had
/// to search (41% of all anchored searches on the Rust docs).
fn literals_of(hir: &regex_syntax::hir::Hir) -> Option<Vec<Vec<u8>>> {
    let mut seq = Extractor::new()
        .kind(ExtractKind::Prefix)
        .limit_total(4000)
        .limit_literal_len(MAX_PREFIX)
        .extract(hir);
    seq.keep_first_bytes(MAX_PREFIX);
    let literals: Vec<Vec<u8>> = seq
        .literals()?
        .iter()
        .map(|literal| literal.as_bytes().to_vec())
        .collect();
    // Sorted, with duplicates and prefixes merged, by `first_literals`
    // across all of a rule's alternatives.
    (!literals.iter().any(Vec::is_empty)).then_some(literals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_sources() -> Vec<String> {
        super::super::rules::rules()
            .into_iter()
            .map(|rule| rule.source)
            .collect()
    }

    /// A candidate [`StartLooks::may_start_at`] turns away is no start of
    /// its rule: over generated texts of rule words, line breaks, word
    /// characters ASCII and not, at every position where the rule's own
    /// anchored search finds a match, one of the rule's first literals
    /// occurs (folded) and passes its start assertions.
    #[test]
    fn start_looks_turn_away_only_starts_without_a_match() {
        let sources = rule_sources();
        let pieces = [
            "system",
            "system:",
            " ",
            "\n",
            "x",
            "_",
            "é",
            "日",
            "#",
            "ignore",
            "all",
            "previous",
            "instructions",
            "you",
            "are",
            "now",
            "the",
            "ai",
            "assistant",
            "must",
            "end",
            "of",
            "prompt",
            "-",
            ":",
            "(",
            ")",
            "[",
            "9",
            "developer",
            "message",
            "rules",
            "do",
            "not",
        ];
        let mut next = crate::xorshift::xorshift(0x5eed_1005);
        let texts: Vec<String> = (0..300)
            .map(|_| {
                (0..next() % 24)
                    .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                    .collect()
            })
            .collect();
        let (mut turned_away, mut matched) = (0, 0);
        for source in &sources {
            let Some(literals) = first_literals(source) else {
                continue;
            };
            let literals: Vec<(Vec<u8>, StartLooks)> = literals
                .into_iter()
                .map(|(literal, looks)| (literal.into_iter().map(fold_gap).collect(), looks))
                .collect();
            let regex = AnchoredRegex::new(source);
            for text in &texts {
                let folded: Vec<u8> = text.bytes().map(fold_gap).collect();
                for at in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
                    let mut occurs = false;
                    let mut offered = false;
                    for (literal, looks) in &literals {
                        if folded[at..].starts_with(literal) {
                            occurs = true;
                            offered |= looks.may_start_at(text.as_bytes(), at);
                        }
                    }
                    turned_away += usize::from(occurs && !offered);
                    if regex.end_at(text, at).is_some_and(|end| end > at) {
                        matched += 1;
                        assert!(
                            offered,
                            "{source:?} matches at {at} of {text:?}, which no literal offers"
                        );
                    }
                }
            }
        }
        assert!(
            turned_away > 2000 && matched > 80,
            "the test turned away only {turned_away} starts, and saw {matched} matches"
        );
    }

    /// `hir` with each repetition bounded above [`RELAX_ABOVE`] unbounded,
    /// done on the translated pattern: the reading [`relaxed_hir`] is
    /// checked against; `changed` is set when there was one.
    fn unbound_long_repetitions(hir: &Hir, changed: &mut bool) -> Hir {
        use regex_syntax::hir::{Capture, Repetition};
        match hir.kind() {
            HirKind::Repetition(repetition) => {
                let max = match repetition.max {
                    Some(max) if max > RELAX_ABOVE => {
                        *changed = true;
                        None
                    }
                    max => max,
                };
                Hir::repetition(Repetition {
                    min: repetition.min,
                    max,
                    greedy: repetition.greedy,
                    sub: Box::new(unbound_long_repetitions(&repetition.sub, changed)),
                })
            }
            HirKind::Capture(capture) => Hir::capture(Capture {
                index: capture.index,
                name: capture.name.clone(),
                sub: Box::new(unbound_long_repetitions(&capture.sub, changed)),
            }),
            HirKind::Concat(subs) => Hir::concat(
                subs.iter()
                    .map(|sub| unbound_long_repetitions(sub, changed))
                    .collect(),
            ),
            HirKind::Alternation(subs) => Hir::alternation(
                subs.iter()
                    .map(|sub| unbound_long_repetitions(sub, changed))
                    .collect(),
            ),
            _ => hir.clone(),
        }
    }

    /// The relaxed pattern built from the syntax tree is the translated
    /// pattern with its long counted repetitions unbounded, node for node,
    /// for every rule and every `then`; and the longest match read from
    /// the syntax tree is never shorter than the translated pattern's (the
    /// relaxed search reads no further than it), and for today's rules the
    /// same, so no relaxed search reads further than it did.
    #[test]
    fn longest_match_bounds_the_translated_pattern() {
        let sources: Vec<String> = super::super::rules::rules()
            .into_iter()
            .flat_map(|rule| std::iter::once(rule.source).chain(rule.then))
            .collect();
        let (mut relaxed, mut bounded) = (0, 0);
        for source in &sources {
            let hir = regex_syntax::Parser::new()
                .parse(source)
                .expect("every rule parses");
            let mut changed = false;
            let expected = unbound_long_repetitions(&hir, &mut changed);
            let from_ast = relaxed_hir(source);
            assert_eq!(
                from_ast.as_ref().map(|(relaxed, _)| relaxed),
                changed.then_some(&expected),
                "{source:?}"
            );
            let ast = regex_syntax::ast::parse::Parser::new()
                .parse(source)
                .expect("every rule parses");
            let longest = longest_match(&ast);
            match (hir.properties().maximum_len(), longest) {
                (Some(exact), Some(read)) => {
                    assert_eq!(read, exact, "{source:?}");
                    bounded += 1;
                }
                (None, _) => {}
                (Some(exact), None) => panic!("{source:?}: no bound read, {exact} translated"),
            }
            relaxed += usize::from(changed);
        }
        assert!(
            relaxed >= 20 && bounded > 100,
            "{relaxed} relaxed and {bounded} bounded patterns: the rules changed shape"
        );
        for (pattern, longest) in [
            ("(?i)k", None),
            ("a(?i:k)", None),
            ("[a-z]{0,30}", Some(30)),
            ("[^x]{2}", Some(8)),
            ("(?:ab|c)?d+", None),
            ("é|日本", Some(6)),
        ] {
            let ast = regex_syntax::ast::parse::Parser::new()
                .parse(pattern)
                .expect("a valid pattern");
            assert_eq!(longest_match(&ast), longest, "{pattern:?}");
        }
    }

    /// A rule asked relaxed first ends each match where the pattern alone
    /// does: on the view of every text of the injection corpus (every
    /// language the rules spell, attacks and near misses), at every start
    /// the literal pass gives the rule, and at every word start.
    #[test]
    fn relaxed_first_answers_as_the_pattern() {
        let sources = rule_sources();
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/injection");
        let mut texts = Vec::new();
        for entry in std::fs::read_dir(corpus).expect("corpus/injection is in the repository") {
            let path = entry.expect("a readable folder entry").path();
            if path.extension().is_some_and(|ext| ext == "jsonl") {
                let rows = std::fs::read_to_string(&path).expect("a readable corpus file");
                for line in rows.lines() {
                    let row: serde_json::Value =
                        serde_json::from_str(line).expect("a corpus row is JSON");
                    if let Some(text) = row["text"].as_str() {
                        texts.push(super::super::normalize::normalize(text).text);
                    }
                }
            }
        }
        assert!(texts.len() > 3000, "only {} corpus texts", texts.len());
        let relaxed: Vec<usize> = (0..sources.len())
            .filter(|&rule| asked_relaxed_first(&sources[rule]))
            .collect();
        assert!(!relaxed.is_empty(), "no rule is asked relaxed first");
        let (mut asked, mut matched) = (0, 0);
        for rule in relaxed {
            let first = AnchoredRegex::relaxed_first(&sources[rule]);
            let exact = AnchoredRegex::new(&sources[rule]);
            assert!(first.relaxed.is_some(), "rule {rule} has no relaxed DFA");
            // A rule searched whole runs no anchored search, relaxed or not.
            let Some(literals) = first_literals(&sources[rule]) else {
                continue;
            };
            let starts_of = AhoCorasick::new(literals.iter().map(|(literal, _)| literal))
                .expect("a rule's literals build");
            for text in &texts {
                let bytes = text.as_bytes();
                let mut starts: Vec<usize> = starts_of
                    .find_overlapping_iter(text.as_str())
                    .map(|hit| hit.start())
                    .chain((0..bytes.len()).filter(|&at| {
                        text.is_char_boundary(at)
                            && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
                    }))
                    .collect();
                starts.sort_unstable();
                starts.dedup();
                for start in starts {
                    let end = first.end_at(text, start);
                    assert_eq!(
                        end,
                        exact.end_at(text, start),
                        "rule {rule} at {start} of {text:?}"
                    );
                    asked += 1;
                    matched += usize::from(end.is_some());
                }
            }
        }
        assert!(
            matched > 50 && asked > 100_000,
            "{matched} matches in {asked} starts: the corpus no longer reaches these rules"
        );
    }

    /// The literal pass, gaps folded, loses no match: on the view of every
    /// text of an injection corpus set, each rule's matches through the
    /// stored table are exactly those its whole regex finds on its own
    /// (`find_iter`, empty matches aside), and a search built from the
    /// sources alone (the stored table does not serve a table with one
    /// rule more) finds the same.
    #[test]
    fn the_literal_pass_finds_every_match_of_every_rule() {
        let sources = rule_sources();
        let stored = RuleSearch::new(&sources, Some(stored_prefixes()));
        assert!(matches!(stored.literal_rules, LiteralRules::Stored(_)));
        let mut more = sources.clone();
        more.push(r"(?-u:\b)zqxjzqxj(?-u:\b)".to_owned());
        let built = RuleSearch::new(&more, None);
        assert!(matches!(built.literal_rules, LiteralRules::Built(_)));
        let whole: Vec<meta::Regex> = sources
            .iter()
            .map(|source| meta::Regex::new(source).expect("every rule compiles"))
            .collect();
        let corpus = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/injection/blind11.jsonl"
        );
        let rows = std::fs::read_to_string(corpus).expect("blind11.jsonl is in the repository");
        let mut found = 0;
        for line in rows.lines() {
            let row: serde_json::Value = serde_json::from_str(line).expect("a corpus row is JSON");
            let text = row["text"].as_str().expect("a corpus row has a text");
            let view = super::super::normalize::normalize(text).text;
            let mut from_stored = stored.find_all(&view);
            assert_eq!(from_stored, built.find_all(&view), "{text:?}");
            let mut alone: Vec<(usize, usize, usize)> = whole
                .iter()
                .enumerate()
                .flat_map(|(rule, regex)| {
                    regex
                        .find_iter(&view)
                        .filter(|hit| !hit.is_empty())
                        .map(move |hit| (rule, hit.start(), hit.end()))
                })
                .collect();
            from_stored.sort_unstable();
            alone.sort_unstable();
            assert_eq!(from_stored, alone, "{text:?}");
            found += alone.len();
        }
        assert!(
            found > 100,
            "only {found} matches: the corpus no longer reaches the rules"
        );
    }

    /// `first_literals.rs` holds what extraction gives for today's rules,
    /// and is used: a stale table would only be ignored (and the rules'
    /// literals extracted at every start), so this test names it. Rewrite
    /// it with `AGENTFENCE_BLESS=1 cargo test -p agentfence --lib
    /// first_literal_table`.
    #[test]
    fn first_literal_table_is_current() {
        let sources = rule_sources();
        let extracted: Vec<RuleLiterals> = sources
            .iter()
            .map(|source| first_literals(source))
            .collect();
        let (table, searched_whole) = literal_table(&extracted);
        let stored: Vec<LiteralEntry> = first_literals::LITERALS
            .iter()
            .map(|(literal, rules)| (literal.to_vec(), rules.to_vec()))
            .collect();
        let relaxed: Vec<usize> = (0..sources.len())
            .filter(|&rule| asked_relaxed_first(&sources[rule]))
            .collect();
        let hash = sources_hash(&sources);
        if stored == table
            && searched_whole == first_literals::SEARCHED_WHOLE
            && sources.len() == first_literals::RULES
            && relaxed == first_literals::RELAXED_FIRST
            && hash == first_literals::SOURCES_HASH
        {
            assert!(table_is_stored(&sources), "the table is current but unused");
            return;
        }
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/web/strip/first_literals.rs"
        );
        if std::env::var_os("AGENTFENCE_BLESS").is_some() {
            std::fs::write(
                path,
                render_table(hash, sources.len(), &table, &searched_whole, &relaxed),
            )
            .expect("first_literals.rs is writable");
            return;
        }
        panic!(
            "{path} is stale: rewrite it with AGENTFENCE_BLESS=1 cargo test -p agentfence --lib first_literal_table"
        );
    }

    /// The table as Rust source (`cargo fmt` then lays it out).
    fn render_table(
        hash: u64,
        rules: usize,
        table: &[LiteralEntry],
        searched_whole: &[usize],
        relaxed: &[usize],
    ) -> String {
        let mut out = String::from(
            "//! The literal pass's table (see `matcher::literal_table`): each\n\
             //! rule's first literals (`matcher::first_literals`), folded\n\
             //! (`matcher::fold_gap`), each once with the rules it may start,\n\
             //! each packed with the literal's start assertions\n\
             //! (`matcher::pack_rule`); the rules searched whole; and the\n\
             //! rules asked relaxed first (`matcher::asked_relaxed_first`),\n\
             //! for the table of `RULES` rules whose sources hash to\n\
             //! `SOURCES_HASH`.\n\
             //! Written by `matcher::tests::first_literal_table_is_current`\n\
             //! (`AGENTFENCE_BLESS=1 cargo test -p agentfence --lib first_literal_table`);\n\
             //! do not edit.\n\n",
        );
        let list =
            |numbers: &mut dyn Iterator<Item = String>| numbers.collect::<Vec<_>>().join(", ");
        out.push_str(&format!("pub const SOURCES_HASH: u64 = {hash:#018x};\n\n"));
        out.push_str(&format!("pub const RULES: usize = {rules};\n\n"));
        out.push_str(&format!(
            "pub static RELAXED_FIRST: &[usize] = &[{}];\n\n",
            list(&mut relaxed.iter().map(usize::to_string))
        ));
        out.push_str(&format!(
            "pub static SEARCHED_WHOLE: &[usize] = &[{}];\n\n",
            list(&mut searched_whole.iter().map(usize::to_string))
        ));
        out.push_str("pub static LITERALS: &[(&[u8], &[u32])] = &[\n");
        for (literal, rules) in table {
            let escaped: String = literal
                .iter()
                .flat_map(|&b| std::ascii::escape_default(b))
                .map(char::from)
                .collect();
            out.push_str(&format!(
                "    (b\"{escaped}\", &[{}]),\n",
                list(&mut rules.iter().map(u32::to_string))
            ));
        }
        out.push_str("];\n");
        out
    }
}
