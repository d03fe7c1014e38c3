//! agentfence: the reference implementation of three text trust boundaries
//! of AI-agent tooling.
//!
//! - [`template`]: what **leaves**: a tool's error message becomes a
//!   template safe to send as telemetry.
//! - [`chat`]: **who speaks**: rendered prompt text is split into role
//!   messages, and role markers forged through template values are caught.
//! - `web` (default feature `web`): what **enters**: a fetched page is
//!   stripped of prompt-injection markers and wrapped in an
//!   `<untrusted_content>` envelope it cannot escape, with an audit row that
//!   never holds the raw body.
//!
//! Each boundary is one module whose comment states its guarantees, and a
//! `contract` module beside it states them once more as checks
//! ([`template::contract`], [`chat::contract`], `web::contract`) that the
//! fuzz harnesses, the property tests and the corpus replay all call.
//!
//! Without default features (`agentfence = { default-features = false }`)
//! the crate builds `template` and `chat` with no HTTP or async stack. The
//! `fuzzing` feature adds the fuzz harness bodies and their generators, so
//! that a fuzz target is one line and `cargo test` replays the committed
//! corpus on stable Rust; it is not part of the stable API.

mod char_class;
pub mod chat;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod stable_kind;
pub mod template;
#[cfg(feature = "web")]
pub mod web;
#[cfg(test)]
mod xorshift;
