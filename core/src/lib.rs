//! agentfence: the reference implementation of three text trust boundaries
//! of AI-agent tooling.
//!
//! - [`template`]: what **leaves**: a tool's error message becomes a
//!   template safe to send as telemetry.
//! - [`chat`]: **who speaks**: rendered prompt text is split into role
//!   messages, and role markers forged through template values are caught.
//!
//! Each boundary is one module whose comment states its guarantees; the
//! [`fuzzing`] module holds the fuzz harness bodies, so that a fuzz target
//! is one line and `cargo test` replays the committed corpus on stable Rust.

mod char_class;
pub mod chat;
pub mod fuzzing;
pub mod template;
pub mod web;
