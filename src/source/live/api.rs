//! One GET against the API server, as client-go sends it: bounded by the request
//! timeout, a 429 or 5xx that says `Retry-After` retried as the server asks (all within
//! the timeout), its body bounded, and every non-2xx answer turned into an [`ApiError`]
//! that keeps the server's `Status` reason and message.

use http_body_util::BodyExt as _;
use kube::client::Body;
use serde::Deserialize;
use std::fmt;
use std::time::Duration;

/// How many times an answer that asks to be retried (a 429, or a 5xx with `Retry-After`)
/// is retried before it becomes an error: client-go's default (`maxRetries`).
const MAX_RETRIES: u32 = 10;

/// The most one answer's body may hold. A real list page of 500 objects stays below
/// it: objects of a few KiB make a page of a few MiB, and even a page of 200 MiB (500
/// objects of 400 KiB, near etcd's default limit of 1.5 MiB for one) fits. A body
/// growing past it comes from a server that would never stop, and reading stops
/// there. 256 MiB: a 200 MiB chunked page, read into a buffer that doubles as it
/// grows, occupies a 256 MiB buffer anyway, so the bound costs a real page nothing.
pub(crate) const MAX_BODY: usize = 256 << 20;

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
    /// The answer cannot be used as it is: larger than [`MAX_BODY`], a list whose
    /// continue tokens go round, JSON that is not what was asked for.
    Invalid(String),
    /// The server asked to be retried (`Retry-After`) until the retries ran out:
    /// the last error, and why no further retry was made.
    Retried { last: Box<ApiError>, why: String },
}

impl ApiError {
    pub(crate) fn code(&self) -> Option<u16> {
        match self {
            ApiError::Status { code, .. } => Some(*code),
            ApiError::Retried { last, .. } => last.code(),
            _ => None,
        }
    }

    /// client-go retries a 429 or any 5xx that says when (`checkWait` in its
    /// `rest/request.go`); a 429 without `Retry-After` is retried after a second.
    fn retry_after(&self, retry_after: Option<Duration>) -> Option<Duration> {
        match self.code() {
            Some(429) => Some(retry_after.unwrap_or(Duration::from_secs(1))),
            Some(500..=599) => retry_after,
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
            ApiError::Transport(m) | ApiError::Invalid(m) => write!(f, "{m}"),
            ApiError::Retried { last, why } => write!(f, "{last} ({why})"),
        }
    }
}

pub(crate) fn flag_duration(duration: Duration) -> String {
    if duration.subsec_millis() == 0 {
        format!("{}s", duration.as_secs())
    } else {
        format!("{}ms", duration.as_millis())
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
pub(crate) struct Api {
    client: kube::Client,
    timeout: Duration,
}

/// `kubectl-policies/VERSION (OS/ARCH)`, as client-go's default user agent names the
/// program, with the platform spelled as Go spells it (`linux/amd64`, `darwin/arm64`).
pub(crate) fn user_agent() -> String {
    format!(
        "kubectl-policies/{} ({}/{})",
        env!("CARGO_PKG_VERSION"),
        go_os(std::env::consts::OS),
        go_arch(std::env::consts::ARCH, cfg!(target_endian = "little"))
    )
}

/// Go's `GOOS` for Rust's `target_os`.
fn go_os(os: &str) -> &str {
    match os {
        "macos" => "darwin",
        other => other,
    }
}

/// Go's `GOARCH` for Rust's `target_arch`.
fn go_arch(arch: &str, little_endian: bool) -> &str {
    match (arch, little_endian) {
        ("x86_64", _) => "amd64",
        ("x86", _) => "386",
        ("aarch64", _) => "arm64",
        ("powerpc64", true) => "ppc64le",
        ("powerpc64", false) => "ppc64",
        ("loongarch64", _) => "loong64",
        ("mips64", true) => "mips64le",
        ("mips", true) => "mipsle",
        (other, _) => other,
    }
}

impl Api {
    pub(crate) fn new(client: kube::Client, timeout: Duration) -> Api {
        Api { client, timeout }
    }

    /// The client, for kube-rs's watcher (`get -w`): list and watch are GETs too.
    pub(crate) fn client(&self) -> kube::Client {
        self.client.clone()
    }

    /// GET `path_and_query` (which starts with `/`), returning the body of a 2xx answer.
    pub(crate) async fn get(
        &self,
        path_and_query: &str,
        accept: &str,
    ) -> Result<Vec<u8>, ApiError> {
        // One deadline for the request and its retries: the timeout bounds them all.
        let deadline = tokio::time::Instant::now() + self.timeout;
        let (mut retries, mut lost) = (0, 0);
        // What the last retried answer was, for an error after it.
        let mut retried: Option<ApiError> = None;
        loop {
            match tokio::time::timeout_at(deadline, self.get_once(path_and_query, accept)).await {
                Err(_) => {
                    let timeout = ApiError::Timeout(self.timeout);
                    return Err(match retried {
                        Some(last) => ApiError::Retried {
                            last: Box::new(timeout),
                            why: format!(
                                "after {retries} {} of {last} as the server asked",
                                plural(retries, "retry", "retries")
                            ),
                        },
                        None => timeout,
                    });
                }
                Ok(Ok(body)) => return Ok(body),
                Ok(Err((err, _))) if err.connection_lost() && lost < MAX_RETRIES_LOST => {
                    lost += 1;
                }
                Ok(Err((err, retry_after))) => {
                    let Some(wait) = err.retry_after(retry_after) else {
                        return Err(err);
                    };
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    let why = if retries >= MAX_RETRIES {
                        format!("still so after {MAX_RETRIES} retries, each after the Retry-After the server asked for")
                    } else if wait >= left {
                        format!(
                            "the server asked to retry after {}, past the --request-timeout of {}{}",
                            flag_duration(wait),
                            flag_duration(self.timeout),
                            match retries {
                                0 => String::new(),
                                n => format!(", after {n} {}", plural(n, "retry", "retries")),
                            }
                        )
                    } else {
                        retries += 1;
                        retried = Some(err);
                        tokio::time::sleep(wait).await;
                        continue;
                    };
                    return Err(ApiError::Retried {
                        last: Box::new(err),
                        why,
                    });
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
        let retry_after = super::retry_after::retry_after(response.headers());
        let length = response
            .headers()
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let body = read_bounded(response.into_body(), length, MAX_BODY)
            .await
            .map_err(|e| (e, None))?;
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

fn plural<'a>(count: u32, one: &'a str, many: &'a str) -> &'a str {
    if count == 1 {
        one
    } else {
        many
    }
}

/// A body read to its end, or an error as soon as it holds more than `max` bytes: a
/// server that streams without end fills no more than that.
async fn read_bounded(
    mut body: Body,
    length: Option<u64>,
    max: usize,
) -> Result<Vec<u8>, ApiError> {
    let too_large = || {
        ApiError::Invalid(format!(
            "the answer is larger than {}, the most one answer may hold; it was not read further",
            size(max)
        ))
    };
    let mut buf = Vec::new();
    if let Some(n) = length {
        if n > max as u64 {
            return Err(too_large());
        }
        buf.reserve_exact(n as usize);
    }
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| ApiError::Transport(format!("reading the answer: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if buf.len().saturating_add(data.len()) > max {
                return Err(too_large());
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf)
}

/// `256 MiB`, `64 KiB`.
fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// kube's errors nest the cause (hyper → io); the innermost says what happened.
pub(crate) fn transport_message(error: &kube::Error) -> String {
    if let kube::Error::Auth(_) = error {
        // Its text may carry a credential plugin's environment and output.
        return "the kubeconfig's credentials could not be obtained (a credential plugin or token file failed)".into();
    }
    let mut parts: Vec<String> = vec![error.to_string()];
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    // A server's or a proxy's URL in the message may carry user information.
    super::config::redact_userinfo(&parts.join(": "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platform_is_spelled_as_go_spells_it() {
        assert_eq!(go_os("macos"), "darwin");
        assert_eq!(go_os("linux"), "linux");
        assert_eq!(go_arch("x86_64", true), "amd64");
        assert_eq!(go_arch("aarch64", true), "arm64");
        assert_eq!(go_arch("powerpc64", true), "ppc64le");
        assert_eq!(go_arch("s390x", false), "s390x");
        let ua = user_agent();
        assert!(
            ua.starts_with(&format!("kubectl-policies/{} (", env!("CARGO_PKG_VERSION"))),
            "{ua}"
        );
        assert!(ua.ends_with(')') && ua.contains('/'), "{ua}");
    }

    /// As client-go's `checkWait`: a 429, or a 5xx that says when; nothing else.
    #[test]
    fn only_a_429_or_a_5xx_that_says_when_is_retried() {
        let status = |code| ApiError::Status {
            code,
            reason: String::new(),
            message: String::new(),
        };
        let two = Some(Duration::from_secs(2));
        assert_eq!(status(429).retry_after(two), two);
        assert_eq!(status(429).retry_after(None), Some(Duration::from_secs(1)));
        assert_eq!(status(503).retry_after(two), two);
        assert_eq!(status(500).retry_after(two), two);
        assert_eq!(status(503).retry_after(None), None);
        assert_eq!(status(404).retry_after(two), None);
        assert_eq!(
            ApiError::Timeout(Duration::from_secs(1)).retry_after(two),
            None
        );
    }

    #[test]
    fn sizes_are_said_in_binary_units() {
        assert_eq!(size(MAX_BODY), "256 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }

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
