//! The `Retry-After` a server answers a 429 or 5xx with, heard on the way (a layer of
//! the client's stack), for `get -w`'s watches: kube's watcher reports such an answer as
//! its status alone, without the headers that say when to try again.

use futures::future::BoxFuture;
use kube::client::Body;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// How long what a server asked for stands: its failure reaches the watch at once.
const HEARD_FOR: Duration = Duration::from_secs(5);

/// Per request path, the last `Retry-After` a 429 or 5xx asked for, and when.
#[derive(Clone, Default)]
pub(crate) struct RetryAfters(Arc<Mutex<HashMap<String, (Instant, Duration)>>>);

impl RetryAfters {
    /// What the last failed request to `path` asked for (if it was just now), forgotten.
    pub(crate) fn take(&self, path: &str) -> Option<Duration> {
        let (when, wait) = self.0.lock().ok()?.remove(path)?;
        (when.elapsed() < HEARD_FOR).then_some(wait)
    }

    fn note(&self, path: String, wait: Duration) {
        if let Ok(mut heard) = self.0.lock() {
            heard.insert(path, (Instant::now(), wait));
        }
    }
}

impl<S> tower::Layer<S> for RetryAfters {
    type Service = Heeding<S>;

    fn layer(&self, inner: S) -> Heeding<S> {
        Heeding {
            inner,
            heard: self.clone(),
        }
    }
}

/// The client's stack, with `RetryAfters` noting what its failed answers ask for.
#[derive(Clone)]
pub(crate) struct Heeding<S> {
    inner: S,
    heard: RetryAfters,
}

impl<S, B> tower::Service<http::Request<Body>> for Heeding<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<B>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<S::Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let path = request.uri().path().to_string();
        let heard = self.heard.clone();
        let answer = self.inner.call(request);
        Box::pin(async move {
            let response = answer.await?;
            let status = response.status();
            if status == http::StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
                if let Some(wait) = retry_after(response.headers()) {
                    heard.note(path, wait);
                }
            }
            Ok(response)
        })
    }
}

/// `Retry-After` in seconds, as Kubernetes sends it (an HTTP date is not read).
pub(super) fn retry_after(headers: &http::HeaderMap) -> Option<Duration> {
    headers
        .get(http::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs)
}
