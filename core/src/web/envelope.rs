//! The `<untrusted_content>` envelope.
