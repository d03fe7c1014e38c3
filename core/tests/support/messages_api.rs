//! A stand-in for the Messages API the semantic review calls, for the web
//! tests that need one.

use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A Messages API that answers every `POST /v1/messages` with `response`.
pub async fn messages_api(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}
