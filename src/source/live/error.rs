//! Why the live source gives no answer. Each error carries what it is about (the
//! server, the kubeconfig, the namespace, the request and its status) as data; its text
//! is what the user reads. No error holds a credential: text from kube is kept only with
//! every URL's user information redacted, a credential plugin is named by its command
//! alone. Text from a server is escaped where it is printed (the binary).
//!
//! An error that holds another error (`error`) says it in its own text and does not
//! give it as its `source`, so that printing the chain says it once.

use super::api::{flag_duration, ApiError};
use super::config::{ConfigError, ConfigOrigin};
use super::exec::CredentialError;
use std::time::Duration;

/// Why connecting, discovering, reading or watching the cluster gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The kubeconfig or kubectl's connection flags.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The kubeconfig's credential plugin.
    #[error(transparent)]
    Credential(#[from] CredentialError),
    #[error("the User-Agent header: {error}")]
    UserAgent {
        error: http::header::InvalidHeaderValue,
    },
    #[error("the credentials for {server} could not be obtained from {origin} (a token file or auth provider failed)")]
    CredentialsUnobtainable {
        server: String,
        origin: ConfigOrigin,
    },
    /// `message`: kube's, with URLs' user information redacted.
    #[error("building a client for the API server at {server} ({origin}): {message}")]
    Client {
        server: String,
        origin: ConfigOrigin,
        message: String,
    },
    #[error("the API server at {server} rejected the credentials (401 Unauthorized): check the kubeconfig's user for this context")]
    Unauthorized { server: String },
    /// `hint`: what a TLS failure means in the terms of the kubeconfig and the flags.
    #[error("cannot reach the API server at {server}: {message}{}", hint.map(|h| format!(" ({h})")).unwrap_or_default())]
    Unreachable {
        server: String,
        message: String,
        hint: Option<&'static str>,
    },
    #[error("the API server at {server} gave {error} to GET {path}; raise --request-timeout or check the connection")]
    TimedOut {
        server: String,
        path: String,
        error: ApiError,
    },
    #[error("API server at {server}: {error}")]
    Discovery {
        server: String,
        error: DiscoveryError,
    },
    #[error("namespace {namespace:?}: {problem}")]
    NotANamespaceName {
        namespace: String,
        problem: &'static str,
    },
    #[error("the API server at {server} rejected the credentials (401 Unauthorized) part-way through the reads: check the kubeconfig's user for this context")]
    UnauthorizedPartWay { server: String },
    #[error("the API server at {server} rejected the credentials (401 Unauthorized) while watching {resource}: check the kubeconfig's user for this context")]
    UnauthorizedWatching { server: String, resource: String },
    /// `why`: the last failure, as the server or the connection said it.
    #[error("the API server at {server} ended the watch of {resource} and could not be reached again within {}: {why}", flag_duration(*give_up))]
    WatchLost {
        server: String,
        resource: String,
        give_up: Duration,
        why: String,
    },
    #[error("nothing can be watched on the API server at {server}: every watch ended")]
    NothingWatched { server: String },
    /// `what`: `namespaces`, or a resource as `plural.group`.
    #[error("listing {what} at {server}: {error}")]
    Listing {
        what: String,
        server: String,
        error: ApiError,
    },
    #[error("reading a list: {error}")]
    NotAList { error: serde_json::Error },
    #[error("starting the I/O runtime: {error}")]
    Runtime { error: std::io::Error },
}

/// Why the roots of discovery could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    #[error("GET {path}: {error}")]
    Api { path: String, error: ApiError },
    #[error("GET {path}: the answer is not the JSON expected: {error}")]
    Decode {
        path: String,
        error: serde_json::Error,
    },
}

impl DiscoveryError {
    pub(crate) fn api(path: &str, error: ApiError) -> DiscoveryError {
        DiscoveryError::Api {
            path: path.to_string(),
            error,
        }
    }
}
