//! Why no cluster and user could be chosen, and where they came from, for messages:
//! the errors of the kubeconfig files (`kubeconfig.rs`) and of the in-cluster service
//! account (`in_cluster.rs`) too, and the places they name, below both.

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

/// Where a kubeconfig was read: one file (`--kubeconfig`, `~/.kube/config`), or the
/// files `KUBECONFIG` lists, merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KubeconfigLocation {
    File(PathBuf),
    Env(Vec<PathBuf>),
}

/// Its path, or `KUBECONFIG=a:b` for a merged list.
impl fmt::Display for KubeconfigLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KubeconfigLocation::File(path) => write!(f, "{}", path.display()),
            KubeconfigLocation::Env(paths) => {
                let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(f, "KUBECONFIG={}", paths.join(":"))
            }
        }
    }
}

/// One kubeconfig file as a message names it: `kubeconfig PATH`, and ` (from KUBECONFIG)`
/// when `KUBECONFIG` listed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeconfigPath {
    pub(crate) path: PathBuf,
    pub(crate) from_env: bool,
}

impl fmt::Display for KubeconfigPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kubeconfig {}", self.path.display())?;
        if self.from_env {
            f.write_str(" (from KUBECONFIG)")?;
        }
        Ok(())
    }
}

/// Where a kubeconfig's YAML cannot be read, and why, without the text there: the
/// line and column, and the reader's reason when it quotes nothing from the file
/// (None: a reason that would, or none at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlProblem {
    pub(crate) line: Option<u64>,
    pub(crate) column: Option<u64>,
    pub(crate) reason: Option<String>,
}

impl fmt::Display for YamlProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a valid kubeconfig")?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, " at line {line} column {column}")?;
        }
        let reason = self
            .reason
            .as_deref()
            .unwrap_or("a value there is not what a kubeconfig holds");
        write!(
            f,
            ": {reason} (the text there is not shown: a kubeconfig holds credentials)"
        )
    }
}

/// Why the in-cluster service account cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum InClusterError {
    #[error("KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set")]
    NotInAPod,
    #[error("{} does not exist", token.display())]
    NoToken { token: PathBuf },
}
