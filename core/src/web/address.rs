//! Which addresses a fetch may connect to.

/// The address policy: by default only public unicast addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AddressPolicy {
    /// Also allow loopback, private, link-local and unique-local addresses
    /// (intranets, tests).
    pub allow_private: bool,
}
