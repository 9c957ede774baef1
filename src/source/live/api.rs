//! One GET against the API server: bounded by the request timeout, 429 retried as the
//! server asks, and every non-2xx answer turned into an [`ApiError`] that keeps the
//! server's `Status` reason and message.

use http_body_util::BodyExt as _;
use kube::client::Body;
use serde::Deserialize;
use std::fmt;
use std::time::Duration;

/// How many times a 429 (Too Many Requests) is retried before it becomes an error.
const MAX_RETRIES_429: u32 = 3;

/// How many times a GET whose connection was lost before it was answered is sent again
/// (as client-go retries a GET on a connection reset): a server that refuses the TLS
/// client mid-handshake may close the connection before the request is even sent, and
/// only a later attempt reads the alert that says why.
const MAX_RETRIES_LOST: u32 = 2;

/// Why one request did not give a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The server answered with a non-2xx code; `reason` and `message` come from its
    /// `Status` body when it sent one.
    Status {
        code: u16,
        reason: String,
        message: String,
    },
    /// No answer within the request timeout.
    Timeout(Duration),
    /// The connection failed (refused, reset, TLS, DNS, proxy, credentials plugin).
    Transport(String),
}

impl ApiError {
    pub fn code(&self) -> Option<u16> {
        match self {
            ApiError::Status { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// The connection closed before the request was answered, saying no more.
    fn connection_lost(&self) -> bool {
        let ApiError::Transport(m) = self else {
            return false;
        };
        [
            "connection was not ready",
            "connection closed before message completed",
        ]
        .iter()
        .any(|lost| m.contains(lost))
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Status {
                code,
                reason,
                message,
            } => {
                let reason = if reason.is_empty() {
                    http::StatusCode::from_u16(*code)
                        .ok()
                        .and_then(|c| c.canonical_reason())
                        .unwrap_or("error")
                        .to_string()
                } else {
                    reason.clone()
                };
                if message.is_empty() {
                    write!(f, "{code} {reason}")
                } else {
                    write!(f, "{code} {reason}: {message}")
                }
            }
            ApiError::Timeout(d) => write!(f, "no answer within {}", flag_duration(*d)),
            ApiError::Transport(m) => write!(f, "{m}"),
        }
    }
}

pub(crate) fn flag_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

#[derive(Deserialize, Default)]
struct StatusBody {
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message: String,
}

/// A client that only ever sends GET.
#[derive(Clone)]
pub struct Api {
    client: kube::Client,
    timeout: Duration,
}

impl Api {
    pub fn new(client: kube::Client, timeout: Duration) -> Api {
        Api { client, timeout }
    }

    /// GET `path_and_query` (which starts with `/`), returning the body of a 2xx answer.
    pub async fn get(&self, path_and_query: &str, accept: &str) -> Result<Vec<u8>, ApiError> {
        // One deadline for the request and its retries: the timeout bounds them all.
        let deadline = tokio::time::Instant::now() + self.timeout;
        let (mut attempt, mut lost) = (0, 0);
        loop {
            match tokio::time::timeout_at(deadline, self.get_once(path_and_query, accept)).await {
                Err(_) => return Err(ApiError::Timeout(self.timeout)),
                Ok(Ok(body)) => return Ok(body),
                Ok(Err((err, _))) if err.connection_lost() && lost < MAX_RETRIES_LOST => {
                    lost += 1;
                }
                Ok(Err((err, retry_after))) => {
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    // Retry-After in seconds, as the API server sends it.
                    let wait = retry_after.unwrap_or(Duration::from_secs(1));
                    if err.code() == Some(429) && attempt < MAX_RETRIES_429 && wait < left {
                        attempt += 1;
                        tokio::time::sleep(wait).await;
                        continue;
                    }
                    return Err(err);
                }
            }
        }
    }

    async fn get_once(
        &self,
        path_and_query: &str,
        accept: &str,
    ) -> Result<Vec<u8>, (ApiError, Option<Duration>)> {
        let request = http::Request::get(path_and_query)
            .header(http::header::ACCEPT, accept)
            .body(Body::empty())
            .map_err(|e| (ApiError::Transport(format!("bad request path: {e}")), None))?;
        let response = self
            .client
            .send(request)
            .await
            .map_err(|e| (ApiError::Transport(transport_message(&e)), None))?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(http::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| {
                (
                    ApiError::Transport(format!("reading the answer: {e}")),
                    None,
                )
            })?
            .to_bytes()
            .to_vec();
        if status.is_success() {
            return Ok(body);
        }
        let parsed: StatusBody = serde_json::from_slice(&body).unwrap_or_default();
        let message = if parsed.message.is_empty() && !body.is_empty() && body.len() < 300 {
            String::from_utf8_lossy(&body).trim().to_string()
        } else {
            parsed.message
        };
        Err((
            ApiError::Status {
                code: status.as_u16(),
                reason: parsed.reason,
                message,
            },
            retry_after,
        ))
    }
}

/// kube's errors nest the cause (hyper → io); the innermost says what happened.
fn transport_message(e: &kube::Error) -> String {
    if let kube::Error::Auth(_) = e {
        // Its text may carry a credential plugin's environment and output.
        return "the kubeconfig's credentials could not be obtained (a credential plugin or token file failed)".into();
    }
    let mut parts: Vec<String> = vec![e.to_string()];
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a connection that closed before any answer is sent again; a refusal, a
    /// TLS alert or a status is what the server said.
    #[test]
    fn a_connection_lost_before_an_answer_is_told_apart() {
        let transport = |m: &str| ApiError::Transport(m.into());
        let lost = "ServiceError: client error (Canceled): operation was canceled: connection was not ready";
        assert!(transport(lost).connection_lost());
        assert!(transport("connection closed before message completed").connection_lost());
        for said in [
            "received fatal alert: CertificateRequired",
            "Connection refused (os error 111)",
        ] {
            assert!(!transport(said).connection_lost(), "{said}");
        }
        let status = ApiError::Status {
            code: 503,
            reason: String::new(),
            message: "connection was not ready".into(),
        };
        assert!(!status.connection_lost());
        assert!(!ApiError::Timeout(Duration::from_secs(1)).connection_lost());
    }
}
