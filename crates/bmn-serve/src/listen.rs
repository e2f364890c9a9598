//! The accept loop: a bounded number of connections, each with a deadline for its request
//! head and for every write, so that no client can hold the server by being slow.
//!
//! `axum::serve` sets no timer, so hyper's header timeout never fires there and a client that
//! sends one header byte a second (slowloris) keeps its connection, and its task, for ever.
//! This loop serves HTTP/1 with hyper directly: the head of each request (the first, and each
//! next one on a kept-alive connection) must arrive within [`Limits::header_timeout`], a
//! response nobody reads is dropped after [`Limits::write_timeout`], and past
//! [`Limits::connections`] open connections new ones wait in the kernel's backlog until one
//! closes. Memory is thereby bounded: each connection buffers at most [`HEAD_BYTES`].
//!
//! A request hyper cannot parse (a head past [`HEAD_BYTES`], garbage) is answered by hyper
//! itself, never reaching the service; `bare.rs`, a layer on the stream, gives that answer the
//! security headers and JSON body every other answer has.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWrite;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::time::Sleep;

use crate::bare::FullAnswers;
use crate::{HEAD_BYTES, Limits};

/// Serves `app` on `listener` until the process ends.
pub async fn run(listener: TcpListener, app: Router, limits: Limits) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.connections.max(1)));
    loop {
        let slot = slots
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors (EMFILE) or a connection reset before it was accepted:
            // wait a little rather than spin, and go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let io = TokioIo::new(FullAnswers::new(WriteDeadline::new(
                stream,
                limits.write_timeout,
            )));
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .max_buf_size(HEAD_BYTES)
                // One flat write buffer rather than vectored writes: all hyper has yet to
                // write comes in one `poll_write`, which is where `FullAnswers` finds hyper's
                // own bare answer to a request it could not parse (see `bare.rs`).
                .writev(false)
                .serve_connection(io, service);
            // The error is the client's (it went away, sent garbage or was too slow), and
            // what can be answered has been: hyper's parse-error answers made whole by
            // `FullAnswers`; a timeout closes the connection without a word.
            let _ = connection.await;
            drop(slot);
        });
    }
}

/// A stream whose writes fail with `TimedOut` once one has waited `limit` for the client to
/// read: a reader that stalls cannot hold a connection (and a search's result) for ever.
struct WriteDeadline<S> {
    inner: S,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteDeadline<S> {
    fn new(inner: S, limit: Duration) -> WriteDeadline<S> {
        WriteDeadline {
            inner,
            limit,
            stalled: None,
        }
    }

    /// Called when a write is pending: starts the clock, or fails once it has run out.
    fn pending<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let limit = self.limit;
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progressed<T>(
        &mut self,
        result: Poll<io::Result<T>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<T>> {
        match result {
            Poll::Pending => self.pending(cx),
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

reads_through!(WriteDeadline);

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.progressed(result, cx)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.inner).poll_flush(cx);
        self.progressed(result, cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.progressed(result, cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.progressed(result, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
