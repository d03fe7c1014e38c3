//! HTTP GET of one page, with the body cap enforced while streaming and
//! the address policy applied to every resolved address and redirect hop.

use std::time::Duration;

use super::{AddressPolicy, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT};

/// How a page is fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchConfig {
    pub timeout: Duration,
    pub max_body_bytes: usize,
    pub max_redirects: usize,
    pub policy: AddressPolicy,
}

impl Default for FetchConfig {
    fn default() -> FetchConfig {
        FetchConfig {
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            policy: AddressPolicy::default(),
        }
    }
}
