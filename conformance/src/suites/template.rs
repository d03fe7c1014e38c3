//! The failure-template suite: operation `template` turns an error message
//! into `{"kind", "template"}`, under the vocabulary the vector file names.
//!
//! The vocabulary travels inline in the suite message as a word list, so a
//! port in another language never reads our files.

use serde_json::{Map, Value, json};

use super::{
    OperationError, ReferenceSuite, Suite, SuiteConfigError, header_string, read_resource,
};
use crate::vectors::ResourceDir;
use agentfence::template::{Scrubber, Vocabulary};

pub struct TemplateSuite;

pub const OPERATION: &str = "template";

impl Suite for TemplateSuite {
    fn name(&self) -> &'static str {
        "template"
    }

    fn operations(&self) -> &'static [&'static str] {
        &[OPERATION]
    }

    fn config(
        &self,
        header: &Map<String, Value>,
        resources: &ResourceDir,
    ) -> Result<Value, SuiteConfigError> {
        let path = header_string(header, "vocabulary")?;
        let text = read_resource(resources, path)?;
        let vocabulary = Vocabulary::parse(&text)
            .map_err(|error| SuiteConfigError::Invalid(format!("vocabulary {path:?}: {error}")))?;
        let words: Vec<&str> = vocabulary.words().collect();
        Ok(json!({ "vocabulary": words }))
    }

    fn reference(&self, config: &Value) -> Result<Box<dyn ReferenceSuite>, SuiteConfigError> {
        let vocabulary = vocabulary_from_config(config)?;
        Ok(Box::new(TemplateReference {
            scrubber: Scrubber::with_vocabulary(vocabulary),
        }))
    }
}

/// Rebuilds the vocabulary from the suite message's word list, with the
/// same checks as the file format (sorted, lowercase, no duplicates).
fn vocabulary_from_config(config: &Value) -> Result<Vocabulary, SuiteConfigError> {
    let bad_list = SuiteConfigError::BadField {
        field: "vocabulary",
        expected: "an array of strings",
    };
    let items = config
        .get("vocabulary")
        .and_then(Value::as_array)
        .ok_or(bad_list.clone())?;
    let mut text = String::new();
    for (index, item) in items.iter().enumerate() {
        let word = item.as_str().ok_or(bad_list.clone())?;
        // The file format would read these as a comment, a blank line or
        // two words, silently changing the list; a word has none of them.
        if word.is_empty() || word.starts_with('#') || word.contains(['\n', '\r']) {
            return Err(SuiteConfigError::Invalid(format!(
                "vocabulary word {index} ({word:?}) is not a word"
            )));
        }
        text.push_str(word);
        text.push('\n');
    }
    Vocabulary::parse(&text)
        .map_err(|error| SuiteConfigError::Invalid(format!("config vocabulary: {error}")))
}

struct TemplateReference {
    scrubber: Scrubber,
}

impl ReferenceSuite for TemplateReference {
    fn call(&self, op: &str, input: &Value) -> Result<Value, OperationError> {
        if op != OPERATION {
            return Err(OperationError::bad_request(format!(
                "the template suite has no operation {op:?}"
            )));
        }
        let message = input
            .get("message")
            .and_then(Value::as_str)
            .ok_or_else(|| OperationError::bad_request("input.message is not a string"))?;
        let report = self.scrubber.report(message);
        Ok(json!({ "kind": report.kind.as_str(), "template": report.template }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference_with(words: &[&str]) -> Result<Box<dyn ReferenceSuite>, SuiteConfigError> {
        TemplateSuite.reference(&json!({ "vocabulary": words }))
    }

    #[test]
    fn unsorted_config_vocabulary_is_rejected() {
        assert!(matches!(
            reference_with(&["open", "file"]),
            Err(SuiteConfigError::Invalid(_))
        ));
    }

    #[test]
    fn comment_shaped_word_is_rejected_not_dropped() {
        assert!(matches!(
            reference_with(&["# file", "open"]),
            Err(SuiteConfigError::Invalid(_))
        ));
    }

    #[test]
    fn missing_vocabulary_names_the_field() {
        assert!(matches!(
            TemplateSuite.reference(&json!({})),
            Err(SuiteConfigError::BadField {
                field: "vocabulary",
                ..
            })
        ));
    }

    #[test]
    fn message_that_is_not_a_string_is_a_bad_request() {
        let reference = reference_with(&["file", "open"]).expect("valid list");
        let error = reference
            .call(OPERATION, &json!({ "message": 42 }))
            .expect_err("a number is not a message");
        assert_eq!(error.kind, "bad_request");
    }

    #[test]
    fn output_has_kind_and_template() {
        let reference = reference_with(&["file", "open"]).expect("valid list");
        let output = reference
            .call(OPERATION, &json!({ "message": "x" }))
            .expect("a string message is answered");
        let object = output.as_object().expect("the output is an object");
        assert_eq!(
            object.keys().map(String::as_str).collect::<Vec<_>>(),
            ["kind", "template"]
        );
    }
}
