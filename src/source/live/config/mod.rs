//! Which cluster, as whom: the kubeconfig (`--kubeconfig`, else `KUBECONFIG` as a colon
//! list, else `~/.kube/config`: `kubeconfig.rs`) or the in-cluster service account
//! (`in_cluster.rs`), with kubectl's connection flags laid over it the way client-go
//! lays its `ConfigOverrides` over the kubeconfig: `--context`, `--cluster` and `--user`
//! pick entries by name, and the other flags replace the fields of the chosen cluster
//! and user. What cannot be chosen is a [`ConfigError`] (`error.rs`).

mod error;
mod in_cluster;
mod kubeconfig;

pub(crate) use error::InClusterError;
pub(crate) use error::{ConfigError, ConfigOrigin};
pub(crate) use in_cluster::{in_cluster, SERVICE_ACCOUNT_DIR};
pub(crate) use kubeconfig::{config_error, load_kubeconfig, KubeconfigFile};

use kube::config::NamedContext;
use kube::config::{AuthInfo, Cluster, Context, Kubeconfig};
use kube::config::{NamedAuthInfo, NamedCluster};
use std::fmt;

/// kubectl's connection flags. Each one set replaces what the kubeconfig says.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `-s/--server`: the API server's URL.
    pub server: Option<String>,
    /// `--token`: a bearer token; replaces the user's credentials (token file,
    /// credential plugin, auth provider, basic auth).
    pub token: Option<String>,
    /// `--user`: the kubeconfig user to use, by name.
    pub user: Option<String>,
    /// `--cluster`: the kubeconfig cluster to use, by name.
    pub cluster: Option<String>,
    pub certificate_authority: Option<String>,
    pub client_certificate: Option<String>,
    pub client_key: Option<String>,
    pub insecure_skip_tls_verify: bool,
    pub tls_server_name: Option<String>,
    /// `--as`: the user to impersonate.
    pub impersonate: Option<String>,
    /// `--as-group`, repeatable.
    pub impersonate_groups: Vec<String>,
    /// `--as-uid`.
    pub impersonate_uid: Option<String>,
}

/// Never prints the token.
impl fmt::Debug for Overrides {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Overrides")
            .field("server", &self.server)
            .field("token", &self.token.as_ref().map(|_| "(hidden)"))
            .field("user", &self.user)
            .field("cluster", &self.cluster)
            .field("certificate_authority", &self.certificate_authority)
            .field("client_certificate", &self.client_certificate)
            .field("client_key", &self.client_key)
            .field("insecure_skip_tls_verify", &self.insecure_skip_tls_verify)
            .field("tls_server_name", &self.tls_server_name)
            .field("impersonate", &self.impersonate)
            .field("impersonate_groups", &self.impersonate_groups)
            .field("impersonate_uid", &self.impersonate_uid)
            .finish()
    }
}

/// The cluster, user and namespace to connect with, once the flags are applied.
#[derive(Clone, Debug)]
pub(crate) struct Chosen {
    pub(crate) cluster: Cluster,
    pub(crate) user: AuthInfo,
    pub(crate) namespace: String,
    /// Where it came from, for messages.
    pub(crate) origin: ConfigOrigin,
}

impl Chosen {
    /// The same as a kubeconfig of one context, for kube to load (CA bundles, client
    /// certificates, proxy-url and an exec plugin's cluster information as it always does).
    pub(crate) fn kubeconfig(&self) -> Kubeconfig {
        let name = "kubectl-policies".to_string();
        Kubeconfig {
            clusters: vec![NamedCluster {
                name: name.clone(),
                cluster: Some(self.cluster.clone()),
                ..NamedCluster::default()
            }],
            auth_infos: vec![NamedAuthInfo {
                name: name.clone(),
                auth_info: Some(self.user.clone()),
                ..NamedAuthInfo::default()
            }],
            contexts: vec![NamedContext {
                name: name.clone(),
                context: Some(Context {
                    cluster: name.clone(),
                    user: Some(name.clone()),
                    namespace: Some(self.namespace.clone()),
                    ..Context::default()
                }),
                ..NamedContext::default()
            }],
            current_context: Some(name),
            ..Kubeconfig::default()
        }
    }
}

/// `text` with the user information of every URL in it (`https://user:password@host`)
/// replaced by `***`: it may be a password or a token.
pub(crate) fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (before, after) = rest.split_at(i + 3);
        out.push_str(before);
        let authority_end = after
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '"' | '\'' | '<' | '>') || c.is_whitespace()
            })
            .unwrap_or(after.len());
        let at = after
            .get(..authority_end)
            .and_then(|authority| authority.rfind('@'));
        match at.and_then(|at| after.split_at_checked(at)) {
            Some((_, from_at)) => {
                out.push_str("***");
                rest = from_at;
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// Checks the flags on their own: what kubectl refuses before reading anything, and
/// files named by flags that cannot be read (named, rather than failing later inside
/// the TLS setup).
pub(crate) fn check_flags(flags: &Overrides) -> Result<(), ConfigError> {
    if flags.insecure_skip_tls_verify && flags.certificate_authority.is_some() {
        return Err(ConfigError::InsecureFlagWithCertificateAuthority);
    }
    for (flag, path) in [
        ("--certificate-authority", &flags.certificate_authority),
        ("--client-certificate", &flags.client_certificate),
        ("--client-key", &flags.client_key),
    ] {
        if let Some(path) = path {
            std::fs::metadata(path).map_err(|error| ConfigError::FlagFile {
                flag,
                path: path.clone(),
                error,
            })?;
        }
    }
    if flags.server.as_deref().is_some_and(|s| s.trim().is_empty()) {
        return Err(ConfigError::EmptyServerFlag);
    }
    Ok(())
}

/// kubectl's `--server` may leave out the scheme: https when anything about TLS is set,
/// else http (client-go's `DefaultServerURL`).
fn server_url(server: &str, tls: bool) -> String {
    if server.contains("://") {
        server.to_string()
    } else if tls {
        format!("https://{server}")
    } else {
        format!("http://{server}")
    }
}

/// The cluster, user and namespace of `context` (else the current context) in
/// `loaded`, with the flags applied. `None` for `loaded` means there is no kubeconfig:
/// the flags alone when they name a server, else the in-cluster service account.
pub(crate) fn choose(
    loaded: Option<&KubeconfigFile>,
    context: Option<&str>,
    flags: &Overrides,
    in_cluster: impl FnOnce() -> Result<Chosen, InClusterError>,
) -> Result<Chosen, ConfigError> {
    let mut chosen = match loaded {
        Some(file) => from_kubeconfig(file, context, flags)?,
        None => without_kubeconfig(context, flags, in_cluster)?,
    };
    apply(flags, &mut chosen.cluster, &mut chosen.user);
    check_chosen(&chosen)?;
    Ok(chosen)
}

/// With no kubeconfig: the flags alone when they name a server, else the in-cluster
/// service account; a flag that names a kubeconfig entry is refused.
fn without_kubeconfig(
    context: Option<&str>,
    flags: &Overrides,
    in_cluster: impl FnOnce() -> Result<Chosen, InClusterError>,
) -> Result<Chosen, ConfigError> {
    let named = [
        ("--context", context.map(str::to_string)),
        ("--cluster", flags.cluster.clone()),
        ("--user", flags.user.clone()),
    ];
    if let Some((flag, Some(name))) = named.into_iter().find(|(_, name)| name.is_some()) {
        return Err(ConfigError::NoKubeconfigFor { flag, name });
    }
    if flags.server.is_some() {
        return Ok(Chosen {
            cluster: Cluster::default(),
            user: AuthInfo::default(),
            namespace: "default".into(),
            origin: ConfigOrigin::Flags,
        });
    }
    in_cluster().map_err(|why| ConfigError::NothingToConnectWith { why })
}

fn from_kubeconfig(
    file: &KubeconfigFile,
    context: Option<&str>,
    flags: &Overrides,
) -> Result<Chosen, ConfigError> {
    let kubeconfig = &file.kubeconfig;
    let location = || file.location.clone();
    let context_name = context
        .map(str::to_string)
        .or_else(|| kubeconfig.current_context.clone().filter(|c| !c.is_empty()));
    let chosen_context: Context = match &context_name {
        Some(name) => kubeconfig
            .contexts
            .iter()
            .find(|c| &c.name == name)
            .map(|c| c.context.clone().unwrap_or_default())
            .ok_or_else(|| match context {
                Some(_) => ConfigError::NoSuchEntry {
                    flag: "--context",
                    entry: "context",
                    name: name.clone(),
                    kubeconfig: location(),
                },
                None => ConfigError::CurrentContextMissing {
                    kubeconfig: location(),
                    context: name.clone(),
                },
            })?,
        // No context at all: the flags must say which cluster (or server) and user.
        None => Context::default(),
    };
    let cluster = match (&flags.cluster, chosen_context.cluster.as_str()) {
        (Some(name), _) => {
            find_cluster(kubeconfig, name).ok_or_else(|| ConfigError::NoSuchEntry {
                flag: "--cluster",
                entry: "cluster",
                name: name.clone(),
                kubeconfig: location(),
            })?
        }
        (None, "") if flags.server.is_some() => Cluster::default(),
        (None, "") => {
            return Err(match context_name {
                Some(context) => ConfigError::ContextWithoutCluster {
                    kubeconfig: location(),
                    context,
                },
                None => ConfigError::NoCurrentContext {
                    kubeconfig: location(),
                },
            })
        }
        (None, name) => match find_cluster(kubeconfig, name) {
            Some(cluster) => cluster,
            None if flags.server.is_some() => Cluster::default(),
            None => {
                return Err(ConfigError::ClusterMissing {
                    kubeconfig: location(),
                    context: context_name.unwrap_or_default(),
                    cluster: name.to_string(),
                })
            }
        },
    };
    let user = match (&flags.user, chosen_context.user.as_deref()) {
        (Some(name), _) => find_user(kubeconfig, name).ok_or_else(|| ConfigError::NoSuchEntry {
            flag: "--user",
            entry: "user",
            name: name.clone(),
            kubeconfig: location(),
        })?,
        // client-go does not fail on a context whose user is missing; neither does kube.
        (None, Some(name)) => find_user(kubeconfig, name).unwrap_or_default(),
        (None, None) => AuthInfo::default(),
    };
    Ok(Chosen {
        cluster,
        user,
        namespace: chosen_context
            .namespace
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".into()),
        origin: ConfigOrigin::Kubeconfig(location()),
    })
}

fn find_cluster(kc: &Kubeconfig, name: &str) -> Option<Cluster> {
    kc.clusters
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.cluster.clone().unwrap_or_default())
}

fn find_user(kc: &Kubeconfig, name: &str) -> Option<AuthInfo> {
    kc.auth_infos
        .iter()
        .find(|u| u.name == name)
        .map(|u| u.auth_info.clone().unwrap_or_default())
}

/// Lays the flags over the chosen cluster and user, as client-go does.
pub(crate) fn apply(flags: &Overrides, cluster: &mut Cluster, user: &mut AuthInfo) {
    // An explicit CA or --insecure-skip-tls-verify replaces both the kubeconfig's CA and
    // its insecure setting (otherwise a kubeconfig CA and the flag would conflict).
    if flags.insecure_skip_tls_verify || flags.certificate_authority.is_some() {
        cluster.insecure_skip_tls_verify = Some(flags.insecure_skip_tls_verify);
        cluster.certificate_authority = flags.certificate_authority.clone();
        cluster.certificate_authority_data = None;
    }
    // A new --server makes the kubeconfig's tls-server-name (meant for its server) moot.
    if flags.tls_server_name.is_some() || flags.server.is_some() {
        cluster.tls_server_name = flags.tls_server_name.clone();
    }
    if let Some(token) = &flags.token {
        user.token = Some(token.clone().into());
        user.token_file = None;
        user.exec = None;
        user.auth_provider = None;
        user.username = None;
        user.password = None;
    }
    if let Some(cert) = &flags.client_certificate {
        user.client_certificate = Some(cert.clone());
        user.client_certificate_data = None;
    }
    if let Some(key) = &flags.client_key {
        user.client_key = Some(key.clone());
        user.client_key_data = None;
    }
    if let Some(who) = &flags.impersonate {
        user.impersonate = Some(who.clone());
    }
    if !flags.impersonate_groups.is_empty() {
        user.impersonate_groups = Some(flags.impersonate_groups.clone());
    }
    if let Some(uid) = &flags.impersonate_uid {
        user.impersonate_uid = Some(uid.clone());
    }
    // Last: a URL without a scheme is https when anything about TLS is configured.
    if let Some(server) = &flags.server {
        let tls = cluster.insecure_skip_tls_verify == Some(true)
            || cluster.certificate_authority.is_some()
            || cluster.certificate_authority_data.is_some()
            || cluster.tls_server_name.is_some()
            || user.client_certificate.is_some()
            || user.client_certificate_data.is_some();
        cluster.server = Some(server_url(server.trim(), tls));
    }
}

/// What kubectl refuses once the kubeconfig and the flags are merged.
fn check_chosen(chosen: &Chosen) -> Result<(), ConfigError> {
    let origin = || chosen.origin.clone();
    let cluster = &chosen.cluster;
    if cluster
        .server
        .as_deref()
        .is_none_or(|s| s.trim().is_empty())
    {
        return Err(ConfigError::NoServer { origin: origin() });
    }
    let has_ca =
        cluster.certificate_authority.is_some() || cluster.certificate_authority_data.is_some();
    if cluster.insecure_skip_tls_verify == Some(true) && has_ca {
        return Err(ConfigError::InsecureWithCertificateAuthority { origin: origin() });
    }
    let user = &chosen.user;
    let has_cert = user.client_certificate.is_some() || user.client_certificate_data.is_some();
    let has_key = user.client_key.is_some() || user.client_key_data.is_some();
    if has_cert && !has_key {
        return Err(ConfigError::CertificateWithoutKey { origin: origin() });
    }
    if has_key && !has_cert {
        return Err(ConfigError::KeyWithoutCertificate { origin: origin() });
    }
    if user.impersonate.is_none()
        && (user.impersonate_groups.is_some() || user.impersonate_uid.is_some())
    {
        return Err(ConfigError::ImpersonationWithoutUser);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::live::config::error::KubeconfigLocation;

    fn kubeconfig() -> KubeconfigFile {
        let yaml = r#"
apiVersion: v1
kind: Config
current-context: a
clusters:
- name: a
  cluster: {server: 'https://a.example:6443', certificate-authority-data: Q0E=, tls-server-name: a.internal}
- name: b
  cluster: {server: 'https://b.example:6443', insecure-skip-tls-verify: true}
contexts:
- name: a
  context: {cluster: a, user: alice, namespace: shop}
- name: b
  context: {cluster: b, user: bob}
users:
- name: alice
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: get-token}
- name: bob
  user: {token: bobs-token}
"#;
        KubeconfigFile {
            kubeconfig: Kubeconfig::from_yaml(yaml).unwrap(),
            location: KubeconfigLocation::File("kc".into()),
        }
    }

    fn no_pod() -> Result<Chosen, InClusterError> {
        Err(InClusterError::NotInAPod)
    }

    fn choose_with(context: Option<&str>, flags: &Overrides) -> Result<Chosen, ConfigError> {
        choose(Some(&kubeconfig()), context, flags, no_pod)
    }

    #[test]
    fn the_current_context_without_flags() {
        let chosen = choose_with(None, &Overrides::default()).unwrap();
        assert_eq!(
            chosen.cluster.server.as_deref(),
            Some("https://a.example:6443")
        );
        assert_eq!(chosen.namespace, "shop");
        assert!(chosen.user.exec.is_some());
    }

    #[test]
    fn cluster_and_user_flags_pick_entries_by_name() {
        let flags = Overrides {
            cluster: Some("b".into()),
            user: Some("bob".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert_eq!(
            chosen.cluster.server.as_deref(),
            Some("https://b.example:6443")
        );
        assert!(chosen.user.exec.is_none());
        // The namespace is still the context's.
        assert_eq!(chosen.namespace, "shop");
        let flags = Overrides {
            user: Some("carol".into()),
            ..Overrides::default()
        };
        let e = choose_with(None, &flags).unwrap_err();
        assert!(
            matches!(&e, ConfigError::NoSuchEntry { flag: "--user", entry: "user", name, kubeconfig: KubeconfigLocation::File(path) } if name == "carol" && path.as_os_str() == "kc"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "--user carol: no user \"carol\" in kubeconfig kc"
        );
        let flags = Overrides {
            cluster: Some("c".into()),
            ..Overrides::default()
        };
        let e = choose_with(None, &flags).unwrap_err().to_string();
        assert_eq!(e, "--cluster c: no cluster \"c\" in kubeconfig kc");
        let e = choose_with(Some("z"), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "--context z: no context \"z\" in kubeconfig kc");
    }

    #[test]
    fn token_replaces_the_users_credentials() {
        let flags = Overrides {
            token: Some("t".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert!(chosen.user.exec.is_none());
        assert!(chosen.user.token.is_some());
    }

    #[test]
    fn server_replaces_the_url_and_the_kubeconfigs_tls_server_name() {
        let flags = Overrides {
            server: Some("https://other:443".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert_eq!(chosen.cluster.server.as_deref(), Some("https://other:443"));
        assert_eq!(chosen.cluster.tls_server_name, None);
        // The CA stays: it may well be the same cluster behind another address.
        assert!(chosen.cluster.certificate_authority_data.is_some());
        let flags = Overrides {
            tls_server_name: Some("api.internal".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert_eq!(
            chosen.cluster.tls_server_name.as_deref(),
            Some("api.internal")
        );
    }

    #[test]
    fn a_server_without_scheme_is_https_when_tls_is_configured() {
        assert_eq!(server_url("h:6443", true), "https://h:6443");
        assert_eq!(server_url("h:8080", false), "http://h:8080");
        assert_eq!(server_url("http://h", true), "http://h");
        // The kubeconfig's CA counts too, as in client-go.
        let flags = Overrides {
            server: Some("h:6443".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert_eq!(chosen.cluster.server.as_deref(), Some("https://h:6443"));
        let chosen = choose(None, None, &flags, no_pod).unwrap();
        assert_eq!(chosen.cluster.server.as_deref(), Some("http://h:6443"));
    }

    #[test]
    fn insecure_and_ca_flags_replace_each_other_and_together_are_refused() {
        let flags = Overrides {
            insecure_skip_tls_verify: true,
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert_eq!(chosen.cluster.insecure_skip_tls_verify, Some(true));
        assert!(chosen.cluster.certificate_authority_data.is_none());
        let flags = Overrides {
            certificate_authority: Some("/ca.pem".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(Some("b"), &flags).unwrap();
        assert_eq!(chosen.cluster.insecure_skip_tls_verify, Some(false));
        assert_eq!(
            chosen.cluster.certificate_authority.as_deref(),
            Some("/ca.pem")
        );
        let both = Overrides {
            certificate_authority: Some("/ca.pem".into()),
            insecure_skip_tls_verify: true,
            ..Overrides::default()
        };
        let e = check_flags(&both).unwrap_err().to_string();
        assert!(
            e.contains("specifying a root certificates file with the insecure flag is not allowed"),
            "{e}"
        );
    }

    #[test]
    fn impersonation_needs_a_user() {
        let flags = Overrides {
            impersonate: Some("bob".into()),
            impersonate_groups: vec!["g1".into(), "g2".into()],
            impersonate_uid: Some("42".into()),
            ..Overrides::default()
        };
        let chosen = choose_with(None, &flags).unwrap();
        assert_eq!(chosen.user.impersonate.as_deref(), Some("bob"));
        assert_eq!(
            chosen.user.impersonate_groups,
            Some(vec!["g1".to_string(), "g2".to_string()])
        );
        assert_eq!(chosen.user.impersonate_uid.as_deref(), Some("42"));
        let flags = Overrides {
            impersonate_groups: vec!["g1".into()],
            ..Overrides::default()
        };
        let e = choose_with(None, &flags).unwrap_err().to_string();
        assert!(e.contains("need --as USER"), "{e}");
    }

    #[test]
    fn flags_alone_make_a_config_without_a_kubeconfig() {
        let flags = Overrides {
            server: Some("https://api:6443".into()),
            token: Some("t".into()),
            ..Overrides::default()
        };
        let chosen = choose(None, None, &flags, no_pod).unwrap();
        assert_eq!(chosen.cluster.server.as_deref(), Some("https://api:6443"));
        assert_eq!(chosen.namespace, "default");
        let e = choose(None, None, &Overrides::default(), no_pod)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no kubeconfig found") && e.contains("KUBERNETES_SERVICE_HOST"),
            "{e}"
        );
        let flags = Overrides {
            user: Some("u".into()),
            server: Some("https://api:6443".into()),
            ..Overrides::default()
        };
        assert!(choose(None, None, &flags, no_pod)
            .unwrap_err()
            .to_string()
            .starts_with("--user u: no kubeconfig found"));
    }

    #[test]
    fn a_kubeconfig_without_current_context_works_with_server_flag() {
        let mut file = kubeconfig();
        file.kubeconfig.current_context = None;
        let e = choose(Some(&file), None, &Overrides::default(), no_pod)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no current-context"), "{e}");
        let flags = Overrides {
            server: Some("https://api:6443".into()),
            ..Overrides::default()
        };
        let chosen = choose(Some(&file), None, &flags, no_pod).unwrap();
        assert_eq!(chosen.cluster.server.as_deref(), Some("https://api:6443"));
        assert_eq!(chosen.namespace, "default");
    }

    #[test]
    fn the_chosen_config_is_a_kubeconfig_of_one_context() {
        let chosen = choose_with(None, &Overrides::default()).unwrap();
        let kc = chosen.kubeconfig();
        assert_eq!(kc.contexts.len(), 1);
        let NamedContext { context, .. } = &kc.contexts[0];
        assert_eq!(context.as_ref().unwrap().namespace.as_deref(), Some("shop"));
    }

    #[test]
    fn user_information_in_urls_is_redacted() {
        assert_eq!(
            redact_userinfo("cannot reach https://admin:s3cr3t@10.0.0.1:6443/api: refused"),
            "cannot reach https://***@10.0.0.1:6443/api: refused"
        );
        assert_eq!(
            redact_userinfo("http://tok@h and socks5://u:p@proxy:1080 and https://h/a@b"),
            "http://***@h and socks5://***@proxy:1080 and https://h/a@b"
        );
        assert_eq!(redact_userinfo("https://h:6443"), "https://h:6443");
        assert_eq!(redact_userinfo("no url: a@b"), "no url: a@b");
    }

    #[test]
    fn debug_hides_the_token() {
        let flags = Overrides {
            token: Some("s3cr3t".into()),
            ..Overrides::default()
        };
        assert!(!format!("{flags:?}").contains("s3cr3t"));
    }
}
