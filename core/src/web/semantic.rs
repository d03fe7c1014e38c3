//! The optional model review of a stripped body.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The Anthropic Messages API endpoint and model; the review runs only
/// when `api_key` is set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemanticConfig {
    pub api_key: Option<String>,
    pub base_url: String,
    pub model: String,
    pub timeout: Duration,
    pub max_tokens: u32,
}

impl Default for SemanticConfig {
    fn default() -> SemanticConfig {
        SemanticConfig {
            api_key: None,
            base_url: "https://api.anthropic.com".into(),
            model: "claude-haiku-4-5-20251001".into(),
            timeout: Duration::from_secs(30),
            max_tokens: 1024,
        }
    }
}

/// What became of the review: `applied`, `skipped: no key`, or
/// `failed: <kind>` with kind one of `connect`, `timeout`, `http_status`,
/// `malformed`, `truncated`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum SemanticStatus {
    Applied,
    SkippedNoKey,
    Failed(SemanticFailure),
}

/// Why a review failed (and so was left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SemanticFailure {
    Connect,
    Timeout,
    HttpStatus,
    Malformed,
    Truncated,
}

impl SemanticFailure {
    pub const ALL: [SemanticFailure; 5] = [
        SemanticFailure::Connect,
        SemanticFailure::Timeout,
        SemanticFailure::HttpStatus,
        SemanticFailure::Malformed,
        SemanticFailure::Truncated,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SemanticFailure::Connect => "connect",
            SemanticFailure::Timeout => "timeout",
            SemanticFailure::HttpStatus => "http_status",
            SemanticFailure::Malformed => "malformed",
            SemanticFailure::Truncated => "truncated",
        }
    }
}

impl From<SemanticStatus> for String {
    fn from(status: SemanticStatus) -> String {
        match status {
            SemanticStatus::Applied => "applied".into(),
            SemanticStatus::SkippedNoKey => "skipped: no key".into(),
            SemanticStatus::Failed(failure) => format!("failed: {}", failure.as_str()),
        }
    }
}

impl TryFrom<String> for SemanticStatus {
    type Error = String;

    fn try_from(text: String) -> Result<SemanticStatus, String> {
        match text.as_str() {
            "applied" => Ok(SemanticStatus::Applied),
            "skipped: no key" => Ok(SemanticStatus::SkippedNoKey),
            other => other
                .strip_prefix("failed: ")
                .and_then(|kind| SemanticFailure::ALL.into_iter().find(|f| f.as_str() == kind))
                .map(SemanticStatus::Failed)
                .ok_or_else(|| format!("unknown semantic status {other:?}")),
        }
    }
}
