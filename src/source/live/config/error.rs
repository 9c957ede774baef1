//! Why no cluster and user could be chosen, and where they came from, for messages.

use super::in_cluster::InClusterError;
use super::kubeconfig::{KubeconfigLocation, KubeconfigPath, YamlProblem};
use std::fmt;
use std::path::PathBuf;

/// Where the connection's cluster and user came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigOrigin {
    Kubeconfig(KubeconfigLocation),
    InCluster,
    Flags,
}

impl fmt::Display for ConfigOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigOrigin::Kubeconfig(location) => write!(f, "kubeconfig {location}"),
            ConfigOrigin::InCluster => f.write_str("the in-cluster service account"),
            ConfigOrigin::Flags => f.write_str("the command-line flags"),
        }
    }
}

/// Why no cluster and user could be chosen from the kubeconfig and the flags. No
/// variant holds a credential: text from kube or a file's reader is kept only with
/// every URL's user information redacted, and YAML errors only as a position.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: {problem}")]
    InvalidYaml {
        file: KubeconfigPath,
        problem: YamlProblem,
    },
    /// `message`: kube's, with URLs' user information redacted.
    #[error("{file}: {message}")]
    Unreadable {
        file: KubeconfigPath,
        message: String,
    },
    /// `message`: kube's, with URLs' user information redacted.
    #[error("{file}: {message}")]
    Unmergeable {
        file: KubeconfigPath,
        message: String,
    },
    #[error("{origin}: {what}-data is not valid base64")]
    DataNotBase64 {
        origin: ConfigOrigin,
        what: &'static str,
    },
    #[error("{origin}: {what} {} cannot be read: {error}", path.display())]
    DataFileUnreadable {
        origin: ConfigOrigin,
        what: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{origin}: {what}(-data) is empty")]
    DataEmpty {
        origin: ConfigOrigin,
        what: &'static str,
    },
    #[error("{origin}: a certificate or key is not valid PEM")]
    NotPem { origin: ConfigOrigin },
    #[error("{origin}: {problem}")]
    Invalid {
        origin: ConfigOrigin,
        problem: YamlProblem,
    },
    /// `message`: kube's, with URLs' user information redacted.
    #[error("{origin}: {message}")]
    Unusable {
        origin: ConfigOrigin,
        message: String,
    },
    #[error("--insecure-skip-tls-verify and --certificate-authority: specifying a root certificates file with the insecure flag is not allowed")]
    InsecureFlagWithCertificateAuthority,
    #[error("{flag} {path}: {error}")]
    FlagFile {
        flag: &'static str,
        path: String,
        error: std::io::Error,
    },
    #[error("--server: the API server's URL is empty")]
    EmptyServerFlag,
    /// `--context`, `--cluster` or `--user` with no kubeconfig to look the name up in.
    #[error("{flag} {name}: no kubeconfig found (KUBECONFIG is unset and ~/.kube/config does not exist)")]
    NoKubeconfigFor { flag: &'static str, name: String },
    #[error("no kubeconfig found (KUBECONFIG is unset, ~/.kube/config does not exist) and not running in a cluster ({why}); give --kubeconfig PATH or --server URL, or read files with -f PATH, or try --demo")]
    NothingToConnectWith { why: InClusterError },
    /// A context, cluster or user that `flag` names and the kubeconfig lacks.
    #[error("{flag} {name}: no {entry} {name:?} in kubeconfig {kubeconfig}")]
    NoSuchEntry {
        flag: &'static str,
        entry: &'static str,
        name: String,
        kubeconfig: KubeconfigLocation,
    },
    #[error("kubeconfig {kubeconfig}: its current-context {context:?} is not among its contexts")]
    CurrentContextMissing {
        kubeconfig: KubeconfigLocation,
        context: String,
    },
    #[error("kubeconfig {kubeconfig}: context {context:?} names no cluster; give --cluster NAME or --server URL")]
    ContextWithoutCluster {
        kubeconfig: KubeconfigLocation,
        context: String,
    },
    #[error(
        "kubeconfig {kubeconfig}: no current-context is set; give --context NAME (or --server URL)"
    )]
    NoCurrentContext { kubeconfig: KubeconfigLocation },
    #[error("kubeconfig {kubeconfig}: context {context:?} names cluster {cluster:?}, which is not among its clusters")]
    ClusterMissing {
        kubeconfig: KubeconfigLocation,
        context: String,
        cluster: String,
    },
    #[error("{origin}: the cluster has no server; give --server URL")]
    NoServer { origin: ConfigOrigin },
    #[error("{origin}: specifying a root certificates file with the insecure flag is not allowed (the cluster has certificate-authority and insecure-skip-tls-verify)")]
    InsecureWithCertificateAuthority { origin: ConfigOrigin },
    #[error(
        "{origin}: a client certificate needs its key (--client-key or the user's client-key)"
    )]
    CertificateWithoutKey { origin: ConfigOrigin },
    #[error("{origin}: a client key needs its certificate (--client-certificate or the user's client-certificate)")]
    KeyWithoutCertificate { origin: ConfigOrigin },
    #[error("--as-group and --as-uid need --as USER: impersonating groups or a uid without a user is not allowed")]
    ImpersonationWithoutUser,
}
