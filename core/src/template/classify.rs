//! The failure class of an error message: one of nine stable kinds.
//!
//! The class is what is reported when no template survives, so it must be
//! derivable from any message. Rules are phrases searched in the whole
//! message ignoring ASCII case; the most specific class whose phrase occurs
//! wins, whatever the order of the phrases in the message.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use serde::{Deserialize, Serialize};

/// Why a tool call failed, as a closed class whose names never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// Arguments missing, malformed or of the wrong type.
    InvalidInput,
    /// A file, symbol, job, tool or resource does not exist.
    NotFound,
    /// The operating system, a sandbox or a server refused access.
    Permission,
    /// Refused by a policy, allowlist or gateway rule.
    PolicyBlocked,
    /// The call or what it ran timed out.
    Timeout,
    /// The target changed or already exists (stale edit, ambiguous match).
    Conflict,
    /// Input, output or a resource is over a size, count or budget limit.
    TooLarge,
    /// A dependency (daemon, network, service, runtime) is not available.
    Unavailable,
    /// Anything else.
    Other,
}

impl FailureKind {
    pub const ALL: [FailureKind; 9] = [
        FailureKind::InvalidInput,
        FailureKind::NotFound,
        FailureKind::Permission,
        FailureKind::PolicyBlocked,
        FailureKind::Timeout,
        FailureKind::Conflict,
        FailureKind::TooLarge,
        FailureKind::Unavailable,
        FailureKind::Other,
    ];

    /// The wire name, as used in reports and vectors.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::InvalidInput => "invalid_input",
            FailureKind::NotFound => "not_found",
            FailureKind::Permission => "permission",
            FailureKind::PolicyBlocked => "policy_blocked",
            FailureKind::Timeout => "timeout",
            FailureKind::Conflict => "conflict",
            FailureKind::TooLarge => "too_large",
            FailureKind::Unavailable => "unavailable",
            FailureKind::Other => "other",
        }
    }

    /// The kind with this wire name.
    pub fn from_name(name: &str) -> Option<FailureKind> {
        FailureKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Classes from the most specific signal to the most generic one: a policy
/// refusal often also says "denied", a timeout often also says "failed to
/// connect", a stale edit often also says "not found".
const RULES: &[(FailureKind, &[&str])] = &[
    (
        FailureKind::PolicyBlocked,
        &[
            "[policy blocked]",
            "policy blocked",
            "blocked by policy",
            "denied by policy",
            "violates policy",
            "policy violation",
            "allowlist",
            "denylist",
            "blocklist",
            "not permitted by",
            "gateway denied",
            "egress denied",
        ],
    ),
    (
        FailureKind::Timeout,
        &[
            "timed out",
            "timeout",
            "time out",
            "deadline exceeded",
            "etimedout",
            "took too long",
        ],
    ),
    (
        FailureKind::Conflict,
        &[
            "old_string",
            "not unique",
            "no unique",
            "conflict",
            "mismatch",
            "stale",
            "changed since",
            "hash does not match",
            "anchor",
            "already exists",
            "file exists",
            "eexist",
            "non-fast-forward",
            "would be overwritten",
            "diverged",
        ],
    ),
    (
        FailureKind::Permission,
        &[
            "permission denied",
            "access denied",
            "access is denied",
            "eacces",
            "eperm",
            "operation not permitted",
            "not permitted",
            "not allowed",
            "forbidden",
            "unauthorized",
            "authentication failed",
            "authentication required",
            "outside the project",
            "outside project",
            "outside of",
            "path jail",
            "escapes project root",
            "read-only",
            "readonly",
        ],
    ),
    (
        FailureKind::NotFound,
        &[
            "not found",
            "no such",
            "does not exist",
            "doesn't exist",
            "did not exist",
            "enoent",
            "unknown tool",
            "no matches",
            "cannot find",
            "can't find",
            "could not find",
            "couldn't find",
            "unable to find",
            "not a git repository",
        ],
    ),
    (
        FailureKind::TooLarge,
        &[
            "too large",
            "too long",
            "too big",
            "too many",
            "exceeds",
            "exceeded",
            "limit reached",
            "over budget",
            "out of memory",
            "no space left",
            "quota",
            "e2big",
        ],
    ),
    (
        FailureKind::Unavailable,
        &[
            "unavailable",
            "not running",
            "connection refused",
            "connection reset",
            "connection aborted",
            "econnrefused",
            "not installed",
            "not configured",
            "is disabled",
            "not enabled",
            "failed to connect",
            "could not connect",
            "unable to connect",
            "network",
            "unreachable",
            "could not resolve",
            "name resolution",
            "name or service not known",
            "bad gateway",
            "broken pipe",
            "try again",
        ],
    ),
    (
        FailureKind::InvalidInput,
        &[
            "invalid",
            "missing required",
            "missing field",
            "required parameter",
            "required argument",
            "unknown field",
            "unknown parameter",
            "unknown action",
            "unknown option",
            "unknown argument",
            "unrecognized",
            "unexpected argument",
            "expected",
            "must be",
            "cannot parse",
            "failed to parse",
            "parse error",
            "syntax error",
            "malformed",
            "bad request",
            "not a valid",
            "illegal",
            "unsupported",
            "wrong type",
        ],
    ),
];

/// Pattern index → rule index, next to the automaton built from the rules.
struct Classifier {
    automaton: AhoCorasick,
    rule_of_pattern: Vec<usize>,
}

fn classifier() -> &'static Classifier {
    static CLASSIFIER: OnceLock<Classifier> = OnceLock::new();
    CLASSIFIER.get_or_init(|| {
        let mut patterns = Vec::new();
        let mut rule_of_pattern = Vec::new();
        for (rule, (_, needles)) in RULES.iter().enumerate() {
            for needle in *needles {
                patterns.push(*needle);
                rule_of_pattern.push(rule);
            }
        }
        // A DFA even past the builder's 100-pattern limit for one: the
        // phrases are a few hundred bytes, so its table stays small, and
        // every message is searched with it, overlapping.
        let automaton = AhoCorasickBuilder::new()
            .kind(Some(AhoCorasickKind::DFA))
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&patterns)
            .expect("the rule phrases are a few hundred bytes, far below any automaton limit");
        Classifier {
            automaton,
            rule_of_pattern,
        }
    })
}

/// The class of a message: the earliest rule any of whose phrases occurs.
/// One pass over the message, whatever its size.
pub fn classify(message: &str) -> FailureKind {
    let classifier = classifier();
    let mut best = RULES.len();
    for found in classifier.automaton.find_overlapping_iter(message) {
        let rule = classifier.rule_of_pattern[found.pattern().as_usize()];
        if rule < best {
            best = rule;
            if best == 0 {
                break;
            }
        }
    }
    RULES
        .get(best)
        .map_or(FailureKind::Other, |(kind, _)| *kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip() {
        for kind in FailureKind::ALL {
            assert_eq!(FailureKind::from_name(kind.as_str()), Some(kind));
            let json = serde_json::to_string(&kind).expect("a unit enum serializes");
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
    }

    #[test]
    fn specific_class_wins_over_earlier_generic_phrase() {
        // "not found" comes first in the text, the policy phrase is rarer
        // and more telling.
        assert_eq!(
            classify("tool not found: blocked by policy"),
            FailureKind::PolicyBlocked
        );
        assert_eq!(
            classify("failed to connect: operation timed out"),
            FailureKind::Timeout
        );
    }

    #[test]
    fn case_is_ignored() {
        assert_eq!(
            classify("Permission Denied (os error 13)"),
            FailureKind::Permission
        );
        assert_eq!(classify("NO SUCH FILE OR DIRECTORY"), FailureKind::NotFound);
    }

    #[test]
    fn message_without_signal_is_other() {
        assert_eq!(classify(""), FailureKind::Other);
        assert_eq!(classify("something odd happened"), FailureKind::Other);
    }
}
