//! The embedded reference (crate `agentfence`) as an implementation the
//! runner can drive in-process, and the panic guard every reference call
//! goes through.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use crate::outcome::Answer;
use crate::protocol::{CaseOutcome, ImplementationInfo, ReportedError};
use crate::runner::Implementation;
use crate::suites::{ReferenceSuite, SuiteRegistry};
use crate::vectors::{Case, VectorFile};

/// Who the reference is, as it introduces itself in a hello.
pub fn reference_info() -> ImplementationInfo {
    ImplementationInfo {
        name: "agentfence".into(),
        language: "rust".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    }
}

/// Calls the reference, turning a panic into a broken answer: the
/// reference promises not to panic, and the harness is where that promise
/// gets caught breaking, so one case must not take the whole run down.
pub fn call_reference(reference: &dyn ReferenceSuite, op: &str, input: &Value) -> Answer {
    match catch_unwind(AssertUnwindSafe(|| reference.call(op, input))) {
        Ok(Ok(output)) => Answer::Replied(CaseOutcome::Output(output)),
        Ok(Err(error)) => Answer::Replied(CaseOutcome::Error(ReportedError {
            kind: error.kind,
            message: error.message,
        })),
        Err(payload) => Answer::Broken {
            reason: format!("the reference panicked: {}", panic_message(&*payload)),
        },
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// The reference, configured anew by each vector file.
pub struct ReferenceImplementation<'r> {
    registry: &'r SuiteRegistry,
    current: Option<Box<dyn ReferenceSuite>>,
}

impl<'r> ReferenceImplementation<'r> {
    pub fn new(registry: &'r SuiteRegistry) -> Self {
        ReferenceImplementation {
            registry,
            current: None,
        }
    }
}

impl Implementation for ReferenceImplementation<'_> {
    fn info(&self) -> ImplementationInfo {
        reference_info()
    }

    fn supports(&self, op: &str) -> bool {
        self.registry.for_operation(op).is_some()
    }

    fn begin_file(&mut self, file: &VectorFile) -> Result<(), String> {
        self.current = None;
        let suite = self
            .registry
            .find(&file.suite)
            .ok_or_else(|| format!("the reference has no suite {:?}", file.suite))?;
        let reference = suite
            .reference(&file.config)
            .map_err(|error| format!("the reference rejects the suite config: {error}"))?;
        self.current = Some(reference);
        Ok(())
    }

    fn run_case(&mut self, _file: &VectorFile, case: &Case) -> Answer {
        match &self.current {
            Some(reference) => call_reference(&**reference, &case.op, &case.input),
            None => Answer::Broken {
                reason: "no suite is configured".into(),
            },
        }
    }
}
