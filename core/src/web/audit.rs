//! The audit row of one sanitize call.
