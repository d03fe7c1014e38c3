//! A xorshift64 stream, for unit tests that draw many generated inputs:
//! the same inputs on every run, from a seed each test names, without a
//! random-number crate in the library's dependencies.

/// The stream from `state` (not zero).
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
