//! What every answer carries and what every request must show: security headers and, for an
//! error, a JSON body on every answer; a `Host` as HTTP/1.1 requires it, and, on a loopback
//! address, one that names this machine.
//!
//! The page has no login, so on 127.0.0.1 the loopback address is its only protection, and DNS
//! rebinding gets round that: a page on `evil.example` whose name then resolves to 127.0.0.1
//! can read this server's answers as its own origin. Its requests carry `Host: evil.example`,
//! which a server on loopback refuses (as Jupyter and the Vite dev server do).
//!
//! [`headers`] is the outermost layer of the service, so whatever answers inside it (a handler,
//! axum's own 405, the `Host` checks here) leaves with the same headers. The answers hyper
//! writes by itself, without the service, are made whole in `bare.rs` with the same
//! [`SECURITY_HEADERS`].

use std::net::IpAddr;
use std::str::FromStr;

use axum::extract::{Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, Version, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::ApiError;

/// What the page may load: its own script, style and API, inline SVG and nothing else; no
/// inline script, no frames, no forms posting elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
form-action 'none'; frame-ancestors 'none'";

/// The headers every answer carries, names in lower case (as hyper writes them). No
/// `Access-Control-Allow-Origin` is ever sent, so other origins' pages cannot read the API.
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
];

/// Adds the security headers to every answer, and gives an error that has no JSON body (axum's
/// own 405, say) one: `{"error": "..."}`, as every error of the API has.
pub async fn headers(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let mut response = json_error(next.run(request).await, &method);
    let h = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        h.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

/// `response` itself, or, for an error whose body is not JSON, the same status and headers
/// (an `Allow`, say) with a JSON body that says why.
fn json_error(response: Response, method: &Method) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => format!(
            "method {} not allowed: the page and its API answer GET (and HEAD)",
            method.as_str().escape_debug()
        ),
        _ => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase(),
    };
    let mut answer = ApiError { status, message }.into_response();
    for (name, value) in response.headers() {
        if ![
            header::CONTENT_TYPE,
            header::CONTENT_LENGTH,
            header::TRANSFER_ENCODING,
        ]
        .contains(name)
        {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer
}

/// Which hosts a server answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosts {
    /// Any (a server on another address than loopback).
    Any,
    /// Only names of this machine (a server on a loopback address): see the module's doc.
    ThisMachine,
}

/// Refuses a request whose `Host` is missing (HTTP/1.1), repeated or not a host (400, as RFC
/// 9112 §3.2 requires), or, on a loopback address, does not name this machine (403). An
/// HTTP/1.0 request without `Host` is let through: that version has none, and no browser
/// sends one.
pub async fn host(State(hosts): State<Hosts>, request: Request, next: Next) -> Response {
    match check_host(&request, hosts) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

fn check_host(request: &Request, hosts: Hosts) -> Result<(), ApiError> {
    let bad = |message: String| ApiError {
        status: StatusCode::BAD_REQUEST,
        message,
    };
    let mut given = request.headers().get_all(header::HOST).iter();
    let host = given
        .next()
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
    if given.next().is_some() {
        return Err(bad(
            "more than one Host header: a request names the one host it is for (RFC 9112 §3.2)"
                .into(),
        ));
    }
    match &host {
        None if request.version() == Version::HTTP_11 => {
            return Err(bad(
                "no Host header: an HTTP/1.1 request must name the host it is for (RFC 9112 §3.2)"
                    .into(),
            ));
        }
        // Empty is allowed: it says the request's target has no host (RFC 9112 §3.2).
        Some(h) if !h.is_empty() && !is_host(h) => {
            return Err(bad(format!(
                "bad Host '{}': not a host name or address with an optional port",
                h.escape_debug()
            )));
        }
        _ => {}
    }
    if hosts == Hosts::ThisMachine {
        // An absolute target (`GET http://name/ HTTP/1.1`) names its host too; it must be this
        // machine as well.
        let target = request.uri().authority().map(Authority::as_str);
        if let Some(h) = host
            .as_deref()
            .into_iter()
            .chain(target)
            .find(|h| !is_loopback_name(h))
        {
            return Err(ApiError {
                status: StatusCode::FORBIDDEN,
                message: format!(
                    "Host '{}' is not this machine: a server on a loopback address answers only \
                     to localhost, 127.0.0.1 and [::1]",
                    h.escape_debug()
                ),
            });
        }
    }
    Ok(())
}

/// Whether a `Host` value is `host[:port]`: an authority without user information.
fn is_host(value: &str) -> bool {
    !value.contains('@') && Authority::from_str(value).is_ok()
}

/// Whether a `Host` header (`name[:port]`) names this machine.
pub fn is_loopback_name(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        // [::1]:8080
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::{is_host, is_loopback_name};

    #[test]
    fn loopback_names() {
        for ok in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.:1",
            "app.localhost:3",
            "127.0.0.1",
            "127.0.0.1:8080",
            "127.1.2.3:80",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(is_loopback_name(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1:8080",
            "[::2]:80",
            "",
            "127.0.0.1.nip.io",
        ] {
            assert!(!is_loopback_name(bad), "{bad}");
        }
    }

    #[test]
    fn hosts() {
        for ok in ["localhost", "example.org:8080", "[::1]:80", "10.0.0.1"] {
            assert!(is_host(ok), "{ok}");
        }
        for bad in ["user@example.org", "a b", "example.org/x", "[::1", "a:b:c"] {
            assert!(!is_host(bad), "{bad}");
        }
    }
}
