//! What every answer carries and what every request must show: security headers on the page,
//! and, on a loopback address, a `Host` that names this machine.
//!
//! The page has no login, so on 127.0.0.1 the loopback address is its only protection, and DNS
//! rebinding gets round that: a page on `evil.example` whose name then resolves to 127.0.0.1
//! can read this server's answers as its own origin. Its requests carry `Host: evil.example`,
//! which a server on loopback refuses (as Jupyter and the Vite dev server do).

use std::net::IpAddr;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::ApiError;

/// What the page may load: its own script, style and API, inline SVG and nothing else; no
/// inline script, no frames, no forms posting elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
form-action 'none'; frame-ancestors 'none'";

/// Adds the security headers to every answer. No `Access-Control-Allow-Origin` is ever sent,
/// so other origins' pages cannot read the API.
pub async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// Refuses (403) a request whose `Host` is not a name of this machine: see the module's doc.
/// A request without `Host` (HTTP/1.0) is let through: no browser sends one.
pub async fn loopback_host(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
    match host {
        Some(h) if !is_loopback_name(&h) => ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "Host '{h}' is not this machine: a server on a loopback address answers only \
                 to localhost, 127.0.0.1 and [::1]"
            ),
        }
        .into_response(),
        _ => next.run(request).await,
    }
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
    use super::is_loopback_name;

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
}
