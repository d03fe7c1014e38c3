//! Stable error kinds: the names vectors and the wire use for each variant
//! of an error enum, written once, so `kind()` and the list of every kind
//! can never disagree.

/// Implements `KINDS` (every kind, in declaration order) and `kind()` for
/// an error enum whose variants all have named fields (or none, written
/// `{}`), from one `Variant => "kind"` list. The `match` in `kind()` is
/// exhaustive, so a new variant without a kind does not compile.
macro_rules! stable_kinds {
    ($error:ident { $($variant:ident => $kind:literal),+ $(,)? }) => {
        impl $error {
            /// Every stable kind, in declaration order.
            pub const KINDS: &'static [&'static str] = &[$($kind),+];

            /// The stable name of this kind of error, as used in vectors and
            /// on the wire.
            pub fn kind(&self) -> &'static str {
                match self {
                    $($error::$variant { .. } => $kind,)+
                }
            }
        }
    };
}

pub(crate) use stable_kinds;
