//! The suites the runner knows, one module each, behind the [`Suite`] trait.
//!
//! The runner, the loader and the reference port only ever talk to this
//! trait: adding a boundary (chat role markers, web sanitize) means one new
//! module implementing it and one line in [`SuiteRegistry::standard`].
//!
//! A case may describe more than its input: a web `fetch` case describes
//! the HTTP fixture it is fetched from. [`Suite::check_case`] vets that
//! description when the vectors load, and [`Suite::prepare`] sets it up
//! for the length of one case (serving the fixture) and rewrites the case
//! to point at it, so that an implementation, in process or a port, only
//! ever sees an ordinary input.

pub mod chat;
pub mod template;
pub mod web;

use std::any::Any;
use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thiserror::Error;

use crate::vectors::{Case, ResourceDir};

/// One kind of vector file: what its header means, which operations its
/// cases use, and how the reference answers them.
pub trait Suite: Send + Sync {
    /// The value of the vector files' `suite` field.
    fn name(&self) -> &'static str;

    /// The operations its cases may use; names are unique across suites.
    fn operations(&self) -> &'static [&'static str];

    /// Turns a vector file's suite-specific header fields into the `config`
    /// of the protocol's suite message, reading any file the header names,
    /// so that a port needs nothing but the protocol. A suite whose cases
    /// carry all they need sends `{}`.
    fn config(
        &self,
        _header: &Map<String, Value>,
        _resources: &ResourceDir,
    ) -> Result<Value, SuiteConfigError> {
        Ok(Value::Object(Map::new()))
    }

    /// The reference implementation, configured by a suite message's config.
    fn reference(&self, config: &Value) -> Result<Box<dyn ReferenceSuite>, SuiteConfigError>;

    /// Whether an output matches an expected one. Outputs are compared as
    /// JSON values unless a suite defines a canonical form of its own.
    fn output_matches(&self, _op: &str, expected: &Value, got: &Value) -> bool {
        expected == got
    }

    /// Vets what a case holds besides the standard fields, when the vectors
    /// load (the lint rules call it): a fixture, and what the input may
    /// reach through it. By default a suite takes no fixture.
    fn check_case(&self, case: &Case) -> Result<(), String> {
        match case.fixture {
            Some(_) => Err(format!(
                "suite {} serves no fixture, but the case describes one",
                self.name()
            )),
            None => Ok(()),
        }
    }

    /// Readies one case to be run: sets up what it describes besides its
    /// input (an HTTP fixture, say) and returns the case as the
    /// implementation gets it and as its answer is judged, rewritten to
    /// point at what was set up, with whatever must stay alive until the
    /// answer is in. By default the case runs as written.
    ///
    /// An error fails the case without sending it.
    fn prepare<'c>(&self, case: &'c Case) -> Result<PreparedCase<'c>, String> {
        Ok(PreparedCase::unchanged(case))
    }
}

/// A case ready to be run: the case to send and judge, and the resources
/// (a fixture server, say) that live as long as this value does. Drop it
/// once the answer is judged.
pub struct PreparedCase<'c> {
    case: Cow<'c, Case>,
    _resources: Option<Box<dyn Any + Send>>,
}

impl<'c> PreparedCase<'c> {
    /// The case as written, with nothing set up.
    pub fn unchanged(case: &'c Case) -> PreparedCase<'c> {
        PreparedCase {
            case: Cow::Borrowed(case),
            _resources: None,
        }
    }

    /// A rewritten case, and what must live while it runs.
    pub fn rewritten(case: Case, resources: impl Any + Send) -> PreparedCase<'c> {
        PreparedCase {
            case: Cow::Owned(case),
            _resources: Some(Box::new(resources)),
        }
    }

    /// The case to send and to judge the answer against.
    pub fn case(&self) -> &Case {
        &self.case
    }

    /// The case, with its resources released.
    pub fn into_case(self) -> Cow<'c, Case> {
        self.case
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
            suites: vec![
                Box::new(template::TemplateSuite),
                Box::new(chat::ChatSuite),
                Box::new(web::WebSuite),
            ],
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

/// Checks that a suite's config is a JSON object; later minor versions may
/// add keys, and like any protocol object its unknown keys are ignored.
pub(crate) fn require_object_config(suite: &str, config: &Value) -> Result<(), SuiteConfigError> {
    if config.is_object() {
        Ok(())
    } else {
        Err(SuiteConfigError::Invalid(format!(
            "the {suite} suite's config is not a JSON object"
        )))
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
