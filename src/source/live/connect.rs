//! Connecting: the kubeconfig and kubectl's flags made a client (a credential plugin run
//! first, bounded), and discovery's failures said in the terms of the connection.

use super::api::{self, Api, ApiError};
use super::discovery::{self, Discovery};
use super::{config, exec, ConfigError, DiscoveryError, LiveError, LiveOptions};

/// A connection to one cluster.
#[derive(Clone)]
pub struct Cluster {
    pub(super) api: Api,
    /// The API server's URL, for messages.
    pub(crate) server: String,
    /// The context's namespace, else `default` (in-cluster: the pod's namespace).
    pub default_namespace: String,
    pub(super) concurrency: usize,
    /// What the server's failed answers asked for in `Retry-After` (for the watches).
    pub(super) retry_after: super::retry_after::RetryAfters,
}

/// The namespace of the kubeconfig's context (`context`, else the current one), read from
/// the files only: what `kubectl apply -f` puts an object without a namespace in. None
/// when there is no kubeconfig or the context names no namespace.
pub fn context_namespace(
    kubeconfig: Option<&std::path::Path>,
    context: Option<&str>,
) -> Result<Option<String>, ConfigError> {
    let Some(file) = config::load_kubeconfig(kubeconfig)? else {
        return Ok(None);
    };
    let kubeconfig = file.kubeconfig;
    let Some(name) = context.map(str::to_string).or(kubeconfig.current_context) else {
        return Ok(None);
    };
    Ok(kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| c.context.as_ref())
        .and_then(|c| c.namespace.clone())
        .filter(|ns| !ns.is_empty()))
}

/// Loads the kubeconfig (`--kubeconfig`, else `KUBECONFIG` as a colon list, else
/// `~/.kube/config`, else the in-cluster service account), lays kubectl's connection
/// flags over it, runs a credential plugin within the request timeout, and builds a
/// client whose every request is bounded by the request timeout.
pub async fn connect(opts: &LiveOptions) -> Result<Cluster, LiveError> {
    use kube::config::{Config, KubeConfigOptions};
    config::check_flags(&opts.overrides)?;
    let loaded = config::load_kubeconfig(opts.kubeconfig.as_deref())?;
    let chosen = config::choose(
        loaded.as_ref(),
        opts.context.as_deref(),
        &opts.overrides,
        || {
            config::in_cluster(
                |k| std::env::var(k).ok(),
                std::path::Path::new(config::SERVICE_ACCOUNT_DIR),
            )
        },
    )?;
    let origin = chosen.origin.clone();
    let mut config =
        Config::from_custom_kubeconfig(chosen.kubeconfig(), &KubeConfigOptions::default())
            .await
            .map_err(|error| config::config_error(&origin, error))?;
    run_credential_plugin(&mut config, opts.request_timeout)?;
    // Each request as a whole is bounded by `Api::get`; the connector only needs to
    // give up on a connection no later than that.
    config.connect_timeout = Some(opts.request_timeout);
    config.read_timeout = None;
    config.write_timeout = None;
    // Retries are ours (429 and 5xx with Retry-After, 410 on continue), explicit and
    // bounded.
    config.default_retry = false;
    // Every request says who sends it, as client-go's do.
    config.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_str(&api::user_agent())
            .map_err(|error| LiveError::UserAgent { error })?,
    ));
    // For messages: a URL's user information may be a password or a token.
    let server = config::redact_userinfo(&config.cluster_url.to_string());
    let server = server.trim_end_matches('/').to_string();
    let default_namespace = config.default_namespace.clone();
    let retry_after = super::retry_after::RetryAfters::default();
    let built = kube::client::ClientBuilder::try_from(config)
        .map(|builder| builder.with_layer(&retry_after).build());
    let client = built.map_err(|error| match error {
        // kube's message for failed credentials may carry a plugin's environment and
        // output: credentials, possibly. Say less.
        kube::Error::Auth(_) => LiveError::CredentialsUnobtainable {
            server: server.clone(),
            origin: origin.clone(),
        },
        // Key and certificate data are decoded here: said without what they hold.
        kube::Error::InferKubeconfig(error) => config::config_error(&origin, error).into(),
        other => LiveError::Client {
            server: server.clone(),
            origin: origin.clone(),
            message: config::redact_userinfo(&other.to_string()),
        },
    })?;
    Ok(Cluster {
        api: Api::new(client, opts.request_timeout),
        server,
        default_namespace,
        concurrency: opts.concurrency.max(1),
        retry_after,
    })
}

/// A credential plugin runs here, bounded by `timeout`, rather than inside kube with
/// no bound; its token or client certificate takes its place in `config`.
fn run_credential_plugin(
    config: &mut kube::Config,
    timeout: std::time::Duration,
) -> Result<(), LiveError> {
    let Some(exec) = config.auth_info.exec.take() else {
        return Ok(());
    };
    match exec::run(&exec, timeout)? {
        exec::Credential::Token(token) => config.auth_info.token = Some(token.into()),
        exec::Credential::Certificate { certificate, key } => {
            use base64::Engine as _;
            let b64 = base64::engine::general_purpose::STANDARD;
            config.auth_info.client_certificate = None;
            config.auth_info.client_key = None;
            config.auth_info.client_certificate_data = Some(b64.encode(certificate));
            config.auth_info.client_key_data = Some(b64.encode(key).into());
        }
    }
    Ok(())
}

impl Cluster {
    /// Discovers what the cluster serves. Fails (naming the server) only when the
    /// discovery roots cannot be read at all.
    pub(crate) async fn discover(&self) -> Result<Discovery, LiveError> {
        discovery::discover(&self.api, self.concurrency)
            .await
            .map_err(|e| self.fatal(e))
    }

    /// What a failed discovery means for the user: credentials rejected, a server
    /// that cannot be reached (and why, for TLS), one too slow, or the request that failed.
    fn fatal(&self, error: DiscoveryError) -> LiveError {
        let server = self.server.clone();
        match error {
            DiscoveryError::Api {
                error: ApiError::Status { code: 401, .. },
                ..
            } => LiveError::Unauthorized { server },
            DiscoveryError::Api {
                error: ApiError::Transport(message),
                ..
            } => LiveError::Unreachable {
                server,
                hint: tls_hint(&message),
                message,
            },
            DiscoveryError::Api {
                error: error @ ApiError::Timeout(_),
                path,
            } => LiveError::TimedOut {
                server,
                path,
                error,
            },
            error => LiveError::Discovery { server, error },
        }
    }
}

/// What a TLS failure means, in the terms of the kubeconfig and the flags.
fn tls_hint(message: &str) -> Option<&'static str> {
    let said = message.to_ascii_lowercase();
    let says = |text: &str| said.contains(text);
    if says("unknownissuer") || says("unknown issuer") || says("badsignature") {
        Some("the server's certificate is not signed by a certificate authority this connection trusts: the cluster's certificate-authority(-data) or --certificate-authority; --insecure-skip-tls-verify skips the check")
    } else if says("notvalidforname") || says("not valid for name") {
        Some("the server's certificate is not valid for the name connected to: the server URL's host, or --tls-server-name")
    } else if says("certificaterequired") || says("certificate required") {
        Some("the server asks for a client certificate: the user's client-certificate and client-key, or --client-certificate and --client-key")
    } else if says("unknownca") || says("badcertificate") || says("bad certificate") {
        Some("the server refused the client certificate: it is not issued by a certificate authority the server trusts")
    } else {
        None
    }
}
