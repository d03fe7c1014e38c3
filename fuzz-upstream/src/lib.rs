//! The upstream crates in the shapes `agentfence::fuzzing::differential`
//! takes, for the one-line targets of this package.

/// prompty 2.1.0's non-strict parser: each message as (role, content).
pub fn prompty_parse(text: &str) -> Vec<(String, String)> {
    prompty::parsers::parse_chat(text)
        .iter()
        .map(|message| (message.role.to_string(), message.text_content()))
        .collect()
}

/// agentsec-core 0.5.0's regex layer.
pub fn agentsec_strip(text: &str) -> (String, Vec<String>) {
    agentsec_core::web::sanitize::regex_layer::strip(text)
}
