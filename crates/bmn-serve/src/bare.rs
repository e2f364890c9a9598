//! hyper's own answers, made whole: a request hyper cannot parse (a head past [`HEAD_BYTES`],
//! bytes that are not HTTP) never reaches the service, and hyper answers it itself (400, 414
//! or 431) with a bare head and no body. [`FullAnswers`], a layer on the connection's stream,
//! puts in its place the answer every other error gets: the same status, the security headers
//! ([`SECURITY_HEADERS`]) and `{"error": "..."}`.
//!
//! What hyper 1.x writes then (`proto/h1/conn.rs` `on_parse_error`, `role.rs` `Server::on_error`
//! and `Server::encode`) is one head and nothing after it:
//!
//! ```text
//! HTTP/1.1 431 Request Header Fields Too Large\r\n
//! connection: close\r\n            (when the connection is not kept alive)
//! content-length: 0\r\n
//! date: Sun, 01 Jan 2034 00:00:00 GMT\r\n
//! \r\n
//! ```
//!
//! and it is the last thing hyper writes on the connection: it then shuts it down. The server
//! runs hyper with one flat write buffer (`writev(false)` in `listen.rs`), so everything hyper
//! has not yet written arrives in one `poll_write`, and its bare answer, when there is one, is
//! the end of that buffer. [`bare_answer`] looks for exactly that shape there: a whole head, a
//! 4xx or 5xx status, `content-length: 0`, no `content-security-policy`. No answer of the
//! service can end so: each of its heads has that header, and a body (JSON, whose strings hold
//! no raw line break; the page's files; server-sent events, whose lines end in `\n` alone)
//! cannot hold a status line followed by `\r\n`-ended header lines.
//!
//! hyper answers on a stream it has stopped reading; closing it then with the client's bytes
//! unread makes the kernel send a reset, which can destroy the answer before the client
//! reads it. So, after a full answer went out, the shutdown closes the writing side and then
//! reads and drops what the client still sends, as RFC 9112 §9.6 advises ("lingering close"),
//! for at most [`LINGER`] and [`LINGER_BYTES`], so that a client cannot hold the connection.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

use crate::HEAD_BYTES;
use crate::guard::SECURITY_HEADERS;

/// How long a closing connection reads what its client still sends after a full answer.
pub const LINGER: Duration = Duration::from_secs(2);

/// How much a closing connection reads after a full answer before it closes anyway.
pub const LINGER_BYTES: usize = 1 << 20;

/// The longest bare answer hyper writes (a status line and three short headers), with room.
const BARE_BYTES: usize = 512;

/// A stream whose writes pass through, but for hyper's bare answer, which is replaced by a
/// full one (see the module's doc).
pub struct FullAnswers<S> {
    inner: S,
    /// The full answer being written, how much of it is written, and how many of hyper's
    /// bytes it stands for (reported written once it is all out).
    answer: Option<(Vec<u8>, usize, usize)>,
    /// Whether a full answer went out: the shutdown lingers then.
    answered: bool,
    linger: Option<Linger>,
}

struct Linger {
    deadline: Pin<Box<Sleep>>,
    left: usize,
}

impl<S> FullAnswers<S> {
    pub fn new(inner: S) -> FullAnswers<S> {
        FullAnswers {
            inner,
            answer: None,
            answered: false,
            linger: None,
        }
    }
}

impl<S: AsyncWrite + Unpin> FullAnswers<S> {
    /// Writes what is left of a full answer; ready with the count of hyper's bytes it stands
    /// for (0 if there was none).
    fn poll_answer(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some((bytes, sent, owed)) = &mut self.answer else {
            return Poll::Ready(Ok(0));
        };
        while *sent < bytes.len() {
            match ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*sent..]))? {
                0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                n => *sent += n,
            }
        }
        let owed = *owed;
        self.answer = None;
        Poll::Ready(Ok(owed))
    }
}

impl<S: AsyncRead + Unpin> FullAnswers<S> {
    /// Reads and drops what the client still sends, until it closes its side, [`LINGER`]
    /// passes or [`LINGER_BYTES`] are read.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let linger = self.linger.get_or_insert_with(|| Linger {
            deadline: Box::pin(tokio::time::sleep(LINGER)),
            left: LINGER_BYTES,
        });
        if linger.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(());
        }
        let mut scratch = [0u8; 4096];
        loop {
            let mut buf = ReadBuf::new(&mut scratch);
            match ready!(Pin::new(&mut self.inner).poll_read(cx, &mut buf)) {
                Ok(()) if !buf.filled().is_empty() && buf.filled().len() < linger.left => {
                    linger.left -= buf.filled().len();
                }
                // The client closed its side or reset, or sent too much: close.
                _ => return Poll::Ready(()),
            }
        }
    }
}

reads_through!(FullAnswers);

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for FullAnswers<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        // A full answer begun on an earlier call: hyper calls again with the same bytes.
        if self.answer.is_none() {
            match bare_answer(buf) {
                // What precedes hyper's answer (the end of an earlier answer) goes first.
                Some(start) if start > 0 => {
                    return Pin::new(&mut self.inner).poll_write(cx, &buf[..start]);
                }
                Some(_) => {
                    self.answer = Some((full_answer(buf), 0, buf.len()));
                    self.answered = true;
                }
                None => return Pin::new(&mut self.inner).poll_write(cx, buf),
            }
        }
        let owed = ready!(self.poll_answer(cx))?;
        Poll::Ready(Ok(owed.min(buf.len())))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_answer(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_answer(cx))?;
        ready!(Pin::new(&mut self.inner).poll_shutdown(cx))?;
        if self.answered {
            ready!(self.poll_linger(cx));
            self.answered = false;
        }
        Poll::Ready(Ok(()))
    }
}

/// Where hyper's bare answer begins in `buf`, if `buf` ends with one (see the module's doc).
fn bare_answer(buf: &[u8]) -> Option<usize> {
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let from = buf.len().saturating_sub(BARE_BYTES);
    let start = from
        + buf[from..]
            .windows(b"HTTP/1.".len())
            .rposition(|w| w == b"HTTP/1.")?;
    parse_bare(&buf[start..]).map(|_| start)
}

/// What a bare answer says: its HTTP version, status and `date`.
#[derive(Debug, PartialEq, Eq)]
struct Bare<'a> {
    version: &'a str,
    status: StatusCode,
    date: Option<&'a str>,
}

/// `head` read as hyper's bare answer: a whole head and nothing after it, an error status, no
/// body and none of the service's headers.
fn parse_bare(head: &[u8]) -> Option<Bare<'_>> {
    let printable = |s: &str| s.bytes().all(|b| matches!(b, b' '..=b'~' | b'\t'));
    let text = std::str::from_utf8(head).ok()?;
    let mut lines = text.strip_suffix("\r\n\r\n")?.split("\r\n");
    let (version, rest) = lines.next()?.split_once(' ')?;
    let (code, reason) = rest.split_once(' ')?;
    let status = StatusCode::from_bytes(code.as_bytes()).ok()?;
    if !matches!(version, "HTTP/1.0" | "HTTP/1.1")
        || !(status.is_client_error() || status.is_server_error())
        || reason.is_empty()
        || !printable(reason)
    {
        return None;
    }
    let (mut empty, mut date) = (false, None);
    for line in lines {
        let (name, value) = line.split_once(": ")?;
        if name.is_empty()
            || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            || !printable(value)
        {
            return None;
        }
        match name {
            "content-length" if value == "0" => empty = true,
            "content-length" | "transfer-encoding" => return None,
            name if SECURITY_HEADERS.iter().any(|(n, _)| *n == name) => return None,
            "date" => date = Some(value),
            _ => {}
        }
    }
    empty.then_some(Bare {
        version,
        status,
        date,
    })
}

/// The full answer that stands for hyper's bare `head`: its version, status and date, the
/// security headers, and a JSON body that says why.
fn full_answer(head: &[u8]) -> Vec<u8> {
    let bare = parse_bare(head).expect("bare_answer found it");
    let body = serde_json::json!({ "error": message(bare.status) }).to_string();
    let mut answer = format!(
        "{} {} {}\r\ncontent-type: application/json\r\n",
        bare.version,
        bare.status.as_str(),
        bare.status.canonical_reason().unwrap_or("Error")
    );
    for (name, value) in SECURITY_HEADERS {
        answer += &format!("{name}: {value}\r\n");
    }
    answer += &format!("connection: close\r\ncontent-length: {}\r\n", body.len());
    if let Some(date) = bare.date {
        answer += &format!("date: {date}\r\n");
    }
    answer += "\r\n";
    answer += &body;
    answer.into_bytes()
}

/// Why hyper refused the request, in one line.
fn message(status: StatusCode) -> String {
    match status {
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => format!(
            "request head too large: this server reads at most {HEAD_BYTES} bytes of request \
             line and headers, and 100 headers"
        ),
        StatusCode::URI_TOO_LONG => "request target too long".into(),
        StatusCode::BAD_REQUEST => {
            "bad request: not a well-formed HTTP/1.1 request line and headers".into()
        }
        _ => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::{bare_answer, full_answer};

    const BARE: &[u8] = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\n\
        content-length: 0\r\ndate: Sun, 01 Jan 2034 00:00:00 GMT\r\n\r\n";

    #[test]
    fn hyper_s_bare_answer_is_found_at_the_end_of_a_write_and_only_there() {
        assert_eq!(bare_answer(BARE), Some(0));
        let after = [&b"...the end of an earlier body}"[..], BARE].concat();
        assert_eq!(bare_answer(&after), Some(30));
        for not in [
            // The service's heads carry the security headers.
            &b"HTTP/1.1 404 Not Found\r\ncontent-security-policy: x\r\ncontent-length: 0\r\n\r\n"[..],
            // A success, a body to come, a head not whole, a line break alone.
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 5\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
            b"data: {\"x\":\"HTTP/1.1 400 Bad Request\"}\n\ncontent-length: 0\r\n\r\n",
            &BARE[..BARE.len() - 2],
        ] {
            assert_eq!(bare_answer(not), None, "{}", String::from_utf8_lossy(not));
        }
    }

    #[test]
    fn the_full_answer_keeps_status_and_date_and_adds_headers_and_a_body() {
        let full = String::from_utf8(full_answer(BARE)).unwrap();
        let (head, body) = full.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head.contains("\r\ndate: Sun, 01 Jan 2034 00:00:00 GMT"));
        assert!(head.contains("\r\ncontent-security-policy: default-src 'none'"));
        assert!(head.contains("\r\ncontent-type: application/json"));
        assert!(head.contains(&format!("\r\ncontent-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("request head too large")
        );
        // The full answer is not itself taken for a bare one.
        assert_eq!(bare_answer(full.as_bytes()), None);
    }
}
