//! The service account a pod runs as, when there is no kubeconfig.

use super::error::InClusterError;
use super::{Chosen, ConfigOrigin};
use kube::config::{AuthInfo, Cluster};
use std::path::Path;

/// The service account a pod runs as, as client-go's in-cluster config reads it:
/// `KUBERNETES_SERVICE_HOST` and `_PORT`, and the token, CA and namespace files.
pub(crate) fn in_cluster(
    env: impl Fn(&str) -> Option<String>,
    dir: &Path,
) -> Result<Chosen, InClusterError> {
    let host = env("KUBERNETES_SERVICE_HOST").filter(|h| !h.is_empty());
    let port = env("KUBERNETES_SERVICE_PORT").filter(|p| !p.is_empty());
    let (Some(host), Some(port)) = (host, port) else {
        return Err(InClusterError::NotInAPod);
    };
    let token = dir.join("token");
    if !token.exists() {
        return Err(InClusterError::NoToken { token });
    }
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host
    };
    let ca = dir.join("ca.crt");
    let namespace = std::fs::read_to_string(dir.join("namespace"))
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default".into());
    Ok(Chosen {
        cluster: Cluster {
            server: Some(format!("https://{host}:{port}")),
            certificate_authority: ca.exists().then(|| ca.display().to_string()),
            ..Cluster::default()
        },
        user: AuthInfo {
            token_file: Some(token.display().to_string()),
            ..AuthInfo::default()
        },
        namespace,
        origin: ConfigOrigin::InCluster,
    })
}

/// Where a pod's service account credentials are mounted.
pub(crate) const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

#[cfg(test)]
mod tests {
    use super::super::{choose, Overrides};
    use super::*;

    #[test]
    fn the_in_cluster_service_account_and_flags_over_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("token"), "sa-token").unwrap();
        std::fs::write(dir.path().join("ca.crt"), "ca").unwrap();
        std::fs::write(dir.path().join("namespace"), "team-a\n").unwrap();
        let env = |k: &str| match k {
            "KUBERNETES_SERVICE_HOST" => Some("fd00::1".to_string()),
            "KUBERNETES_SERVICE_PORT" => Some("443".to_string()),
            _ => None,
        };
        let flags = Overrides {
            impersonate: Some("bob".into()),
            ..Overrides::default()
        };
        let chosen = choose(None, None, &flags, || in_cluster(env, dir.path())).unwrap();
        assert_eq!(
            chosen.cluster.server.as_deref(),
            Some("https://[fd00::1]:443")
        );
        assert_eq!(chosen.namespace, "team-a");
        assert!(chosen.user.token_file.is_some());
        assert_eq!(chosen.user.impersonate.as_deref(), Some("bob"));
        assert!(in_cluster(|_| None, dir.path()).is_err());
    }
}
