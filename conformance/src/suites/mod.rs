//! The suites the runner knows, one module each, behind the [`Suite`] trait.
//!
//! The runner, the loader and the reference port only ever talk to this
//! trait: adding a boundary (chat role markers, web sanitize) means one new
//! module implementing it and one line in [`SuiteRegistry::standard`].

pub mod chat;
pub mod template;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thiserror::Error;

use crate::vectors::ResourceDir;

/// One kind of vector file: what its header means, which operations its
/// cases use, and how the reference answers them.
pub trait Suite: Send + Sync {
    /// The value of the vector files' `suite` field.
    fn name(&self) -> &'static str;

    /// The operations its cases may use; names are unique across suites.
    fn operations(&self) -> &'static [&'static str];

    /// Turns a vector file's suite-specific header fields into the `config`
    /// of the protocol's suite message, reading any file the header names,
    /// so that a port needs nothing but the protocol.
    fn config(
        &self,
        header: &Map<String, Value>,
        resources: &ResourceDir,
    ) -> Result<Value, SuiteConfigError>;

    /// The reference implementation, configured by a suite message's config.
    fn reference(&self, config: &Value) -> Result<Box<dyn ReferenceSuite>, SuiteConfigError>;

    /// Whether an output matches an expected one. Outputs are compared as
    /// JSON values unless a suite defines a canonical form of its own.
    fn output_matches(&self, _op: &str, expected: &Value, got: &Value) -> bool {
        expected == got
    }
}

/// The reference implementation of one suite, ready to answer cases.
pub trait ReferenceSuite: Send + Sync {
    fn call(&self, op: &str, input: &Value) -> Result<Value, OperationError>;
}

/// An error answer to a case, with a stable kind the vectors can expect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Error)]
#[error("{kind}: {message}")]
pub struct OperationError {
    pub kind: String,
    pub message: String,
}

impl OperationError {
    /// The input does not have the shape the operation takes.
    pub fn bad_request(message: impl Into<String>) -> OperationError {
        OperationError {
            kind: "bad_request".into(),
            message: message.into(),
        }
    }
}

/// A suite's header or config that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SuiteConfigError {
    #[error("field {field:?} is missing or not {expected}")]
    BadField {
        field: &'static str,
        expected: &'static str,
    },
    #[error("cannot read {path:?}: {reason}")]
    Resource { path: String, reason: String },
    #[error("{0}")]
    Invalid(String),
}

/// The known suites, looked up by name or by operation.
pub struct SuiteRegistry {
    suites: Vec<Box<dyn Suite>>,
}

impl SuiteRegistry {
    /// Every suite this crate implements.
    pub fn standard() -> SuiteRegistry {
        SuiteRegistry {
            suites: vec![Box::new(template::TemplateSuite), Box::new(chat::ChatSuite)],
        }
    }

    pub fn find(&self, name: &str) -> Option<&dyn Suite> {
        self.suites
            .iter()
            .map(|suite| &**suite)
            .find(|suite| suite.name() == name)
    }

    pub fn for_operation(&self, op: &str) -> Option<&dyn Suite> {
        self.suites
            .iter()
            .map(|suite| &**suite)
            .find(|suite| suite.operations().contains(&op))
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.suites.iter().map(|suite| suite.name())
    }

    /// Every operation of every suite, in registry order.
    pub fn operations(&self) -> Vec<&'static str> {
        self.suites
            .iter()
            .flat_map(|suite| suite.operations().iter().copied())
            .collect()
    }
}

/// Reads a string field of a suite header.
pub(crate) fn header_string<'a>(
    header: &'a Map<String, Value>,
    field: &'static str,
) -> Result<&'a str, SuiteConfigError> {
    header
        .get(field)
        .and_then(Value::as_str)
        .ok_or(SuiteConfigError::BadField {
            field,
            expected: "a string",
        })
}

/// Reads a file a header names, relative to the vectors directory.
pub(crate) fn read_resource<'a>(
    resources: &'a ResourceDir,
    path: &str,
) -> Result<Cow<'a, str>, SuiteConfigError> {
    resources
        .read(path)
        .map_err(|reason| SuiteConfigError::Resource {
            path: path.to_owned(),
            reason,
        })
}
