//! The kubeconfig files: `--kubeconfig`, else `KUBECONFIG` (a colon list, merged),
//! else `~/.kube/config`; read without ever showing the text of one that cannot be read
//! (it holds credentials).

use super::error::{KubeconfigLocation, KubeconfigPath, YamlProblem};
use super::{redact_userinfo, ConfigError, ConfigOrigin};
use kube::config::{Kubeconfig, KubeconfigError};
use std::path::{Path, PathBuf};

/// A kubeconfig, and where it was read.
pub(crate) struct KubeconfigFile {
    pub(crate) kubeconfig: Kubeconfig,
    pub(crate) location: KubeconfigLocation,
}

/// `--kubeconfig`, else `KUBECONFIG` (a colon list, merged: the first file to set a value
/// wins; files that do not exist are skipped), else `~/.kube/config`. None when there is
/// none of them.
pub(crate) fn load_kubeconfig(flag: Option<&Path>) -> Result<Option<KubeconfigFile>, ConfigError> {
    if let Some(path) = flag {
        return Ok(Some(KubeconfigFile {
            kubeconfig: read_file(path, false)?,
            location: KubeconfigLocation::File(path.to_path_buf()),
        }));
    }
    if let Some(found) = kubeconfig_from_env()? {
        return Ok(Some(found));
    }
    if let Some(path) = home_kubeconfig() {
        return Ok(Some(KubeconfigFile {
            kubeconfig: read_file(&path, false)?,
            location: KubeconfigLocation::File(path),
        }));
    }
    Ok(None)
}

/// One kubeconfig file (`from_env`: listed by `KUBECONFIG`). An error names the file
/// and, for YAML that cannot be read, the line and column only: never the text there or
/// around it, which may be a token.
fn read_file(path: &Path, from_env: bool) -> Result<Kubeconfig, ConfigError> {
    Kubeconfig::read_from(path).map_err(|error| {
        let file = KubeconfigPath {
            path: path.to_path_buf(),
            from_env,
        };
        match error {
            KubeconfigError::Parse(error) => ConfigError::InvalidYaml {
                file,
                problem: yaml_problem(&error),
            },
            other => ConfigError::Unreadable {
                file,
                message: redact_userinfo(&other.to_string()),
            },
        }
    })
}

/// What a YAML error says, without the text it points at: the position, and the
/// reason when it quotes nothing from the file (`expected string scalar`; not
/// `invalid type: string "…"`, which would).
fn yaml_problem(error: &serde_saphyr::Error) -> YamlProblem {
    let first = error.to_string();
    let first = first.lines().next().unwrap_or_default();
    // "error: line 14 column 15: expected string scalar"
    let reason = first
        .split_once(": line ")
        .and_then(|(_, rest)| rest.split_once(": "))
        // The YAML reader's advice to its own callers is no use to the user.
        .map(|(_, reason)| {
            reason
                .split(", set DuplicateKeyPolicy")
                .next()
                .unwrap_or(reason)
                .trim()
        })
        .filter(|r| !r.is_empty())
        .filter(|r| !r.contains(['"', '\'', '`']) && !r.chars().any(char::is_control));
    let location = error.location();
    YamlProblem {
        line: location.map(|l| l.line()),
        column: location.map(|l| l.column()),
        reason: reason.map(str::to_string),
    }
}

/// A kubeconfig that kube cannot turn into a client configuration, said without the
/// data it holds (a decoding error would show a byte of a key).
pub(crate) fn config_error(origin: &ConfigOrigin, error: KubeconfigError) -> ConfigError {
    use kube::config::LoadDataError;
    let origin = origin.clone();
    let data = |origin, what: &'static str, error: LoadDataError| match error {
        LoadDataError::DecodeBase64(_) => ConfigError::DataNotBase64 { origin, what },
        LoadDataError::ReadFile(error, path) => ConfigError::DataFileUnreadable {
            origin,
            what,
            path,
            error,
        },
        LoadDataError::NoBase64DataOrFile => ConfigError::DataEmpty { origin, what },
    };
    match error {
        KubeconfigError::LoadCertificateAuthority(error) => {
            data(origin, "the cluster's certificate-authority", error)
        }
        KubeconfigError::LoadClientCertificate(error) => {
            data(origin, "the user's client-certificate", error)
        }
        KubeconfigError::LoadClientKey(error) => data(origin, "the user's client-key", error),
        KubeconfigError::ParseCertificates(_) => ConfigError::NotPem { origin },
        KubeconfigError::Parse(error) => ConfigError::Invalid {
            origin,
            problem: yaml_problem(&error),
        },
        other => ConfigError::Unusable {
            origin,
            message: redact_userinfo(&other.to_string()),
        },
    }
}

fn home_kubeconfig() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    let path = PathBuf::from(home).join(".kube").join("config");
    path.exists().then_some(path)
}

fn kubeconfig_from_env() -> Result<Option<KubeconfigFile>, ConfigError> {
    let Some(value) = std::env::var_os("KUBECONFIG") else {
        return Ok(None);
    };
    let mut merged: Option<Kubeconfig> = None;
    let mut read = Vec::new();
    for path in std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty()) {
        if !path.exists() {
            continue;
        }
        let kubeconfig = read_file(&path, true)?;
        merged = Some(match merged {
            None => kubeconfig,
            Some(so_far) => so_far
                .merge(kubeconfig)
                .map_err(|error| ConfigError::Unmergeable {
                    file: KubeconfigPath {
                        path: path.clone(),
                        from_env: true,
                    },
                    message: redact_userinfo(&error.to_string()),
                })?,
        });
        read.push(path);
    }
    Ok(merged.map(|kubeconfig| KubeconfigFile {
        kubeconfig,
        location: KubeconfigLocation::Env(read),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_error_shows_the_position_never_the_text() {
        let e = Kubeconfig::from_yaml(
            "users:\n- name: u\n  user:\n    token: S3CR3T\n    password: [unclosed\n",
        );
        let Err(KubeconfigError::Parse(e)) = e else {
            panic!("{e:?}")
        };
        let m = yaml_problem(&e).to_string();
        assert!(
            m.starts_with("not a valid kubeconfig at line 5 column"),
            "{m}"
        );
        assert!(!m.contains("S3CR3T") && !m.contains("unclosed"), "{m}");
        let e = Kubeconfig::from_yaml("users:\n- name: u\n  user: {token: {S3CR3T: 1}}\n");
        let Err(KubeconfigError::Parse(e)) = e else {
            panic!("{e:?}")
        };
        let m = yaml_problem(&e).to_string();
        assert!(!m.contains("S3CR3T"), "{m}");
    }

    #[test]
    fn a_kubeconfig_that_cannot_be_read_is_named_by_its_path_and_position_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config");
        std::fs::write(
            &path,
            "users:\n- name: u\n  user:\n    token: S3CR3T\n    password: [unclosed\n",
        )
        .unwrap();
        let error = read_file(&path, true).unwrap_err();
        let ConfigError::InvalidYaml { file, problem } = &error else {
            panic!("{error:?}")
        };
        assert_eq!(file.path, path);
        assert!(file.from_env);
        assert_eq!(problem.line, Some(5));
        let text = error.to_string();
        assert!(
            text.starts_with(&format!(
                "kubeconfig {} (from KUBECONFIG): not a valid kubeconfig at line 5",
                path.display()
            )),
            "{text}"
        );
        // Neither the message nor the error's data hold the file's text.
        let debug = format!("{error:?}");
        for said in [&text, &debug] {
            assert!(
                !said.contains("S3CR3T") && !said.contains("unclosed"),
                "{said}"
            );
        }
    }
}
