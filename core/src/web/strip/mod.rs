//! The local strip layer.

/// A stripped text and the labels of what was removed, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Stripped {
    pub text: String,
    pub removed_patterns: Vec<String>,
}

/// Placeholder until the layer lands.
pub fn strip(text: &str) -> Stripped {
    Stripped {
        text: text.to_owned(),
        removed_patterns: Vec::new(),
    }
}
