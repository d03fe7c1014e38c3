//! How the property tests draw cases: bytes that proptest generates and
//! shrinks, handed to a generator of `agentfence::fuzzing` through
//! `arbitrary::Unstructured`, as libFuzzer's bytes are handed to the fuzz
//! targets; so a property test and a fuzz target explore one model.

use arbitrary::Unstructured;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// The cases `build` makes of 16 to 4,096 bytes; bytes it refuses are
/// drawn again.
pub fn from_bytes<T: std::fmt::Debug>(
    build: impl Fn(&mut Unstructured<'_>) -> arbitrary::Result<T>,
) -> impl Strategy<Value = T> {
    prop::collection::vec(any::<u8>(), 16..4096)
        .prop_filter_map("the bytes build a case", move |bytes| {
            build(&mut Unstructured::new(&bytes)).ok()
        })
}

/// The default config, so `PROPTEST_CASES` and the other `PROPTEST_*`
/// variables apply, with failures kept in `failures` (a path under
/// `core/proptest-regressions/`, written with `concat!` at the call).
pub fn config(failures: &'static str) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(failures))),
        ..ProptestConfig::default()
    }
}
