//! A kubeconfig's credential plugin (`users[].user.exec`), run as client-go runs it, but
//! bounded: it must answer within the request timeout or it is killed. kube would run it
//! itself while building the client, with no bound (and twice); here it is run once,
//! before, and its token or client certificate handed to kube instead.
//!
//! A plugin that cannot be interactive runs in a process group of its own, and one
//! that times out is ended with that whole group: whatever it started (a helper, a
//! browser launcher) ends with it. One that may be interactive stays in the terminal's
//! foreground group, where it can read a prompt's answer (a background group reading
//! the terminal is stopped), and only it is ended.
//!
//! Messages name the plugin's command (not its arguments: they may hold a client
//! secret) and show the end of what it wrote on stderr. Its stdout (where credentials
//! go) and its environment are never shown.

use super::api::flag_duration;
use kube::config::{ExecConfig, ExecInteractiveMode};
use serde::Deserialize;
use std::io::{IsTerminal, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a plugin gave.
pub(crate) enum Credential {
    Token(String),
    /// PEM, as the plugin printed them.
    Certificate {
        certificate: String,
        key: String,
    },
}

#[derive(Deserialize)]
struct ExecCredential {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    status: Option<Status>,
}

#[derive(Deserialize)]
struct Status {
    token: Option<String>,
    #[serde(rename = "clientCertificateData")]
    client_certificate_data: Option<String>,
    #[serde(rename = "clientKeyData")]
    client_key_data: Option<String>,
}

/// Why a credential plugin gave no credential. Each names the plugin by its command
/// only (`plugin`), and carries the end of what it wrote on stderr where there is one;
/// never its arguments, environment or stdout.
#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("credential plugin {plugin:?}: the kubeconfig's exec has no command")]
    NoCommand { plugin: String },
    #[error("credential plugin {plugin:?}: its interactiveMode is Always but standard input is not a terminal")]
    NoTerminal { plugin: String },
    #[error("credential plugin {plugin:?}: cannot run it: {error}{}", hint.as_deref().map(|h| format!("; {h}")).unwrap_or_default())]
    CannotRun {
        plugin: String,
        error: std::io::Error,
        /// The kubeconfig's `installHint`, on one line.
        hint: Option<String>,
    },
    #[error("credential plugin {plugin:?}: waiting for it: {error}")]
    CannotWait {
        plugin: String,
        error: std::io::Error,
    },
    #[error("credential plugin {plugin:?} gave no credentials within {} (--request-timeout){stderr}", flag_duration(*timeout))]
    TimedOut {
        plugin: String,
        timeout: Duration,
        stderr: PluginStderr,
    },
    #[error("credential plugin {plugin:?} failed with {}{stderr}", exit_code.map(|c| format!("exit status {c}")).unwrap_or_else(|| "a signal".into()))]
    Failed {
        plugin: String,
        /// None: ended by a signal.
        exit_code: Option<i32>,
        stderr: PluginStderr,
    },
    #[error("credential plugin {plugin:?} did not finish writing its answer within {} (--request-timeout){stderr}", flag_duration(*timeout))]
    Unfinished {
        plugin: String,
        timeout: Duration,
        stderr: PluginStderr,
    },
    #[error("credential plugin {plugin:?}: {problem}{stderr}")]
    BadAnswer {
        plugin: String,
        problem: AnswerProblem,
        stderr: PluginStderr,
    },
}

/// What is wrong with a plugin's answer, without what it holds.
#[derive(Debug, thiserror::Error)]
pub enum AnswerProblem {
    /// Said by `json_problem`: a position, never the text there.
    #[error("its output is not an ExecCredential (JSON: {})", json_problem(error))]
    NotAnExecCredential { error: serde_json::Error },
    #[error("it answered with apiVersion {got}, the kubeconfig asks for {wanted}")]
    OtherApiVersion { got: String, wanted: String },
    #[error("its ExecCredential has no status (no token, no client certificate)")]
    NoStatus,
    #[error("its ExecCredential has neither a token nor a client certificate and key")]
    NoCredential,
}

/// What is wrong with a plugin's JSON, without the text: serde_json's syntax errors
/// give a position only, but a value of the wrong type is quoted (`invalid type:
/// string "…"`), and that value may be the token.
fn json_problem(error: &serde_json::Error) -> String {
    match error.classify() {
        serde_json::error::Category::Data => format!(
            "a value of the wrong type or a missing one at line {} column {}",
            error.line(),
            error.column()
        ),
        serde_json::error::Category::Io
        | serde_json::error::Category::Syntax
        | serde_json::error::Category::Eof => error.to_string(),
    }
}

/// The end of what a plugin wrote on stderr, on one line ([`trimmed`]); shown as
/// `: <text>`, or as a note that it wrote nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginStderr(pub String);

impl std::fmt::Display for PluginStderr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            f.write_str(" (it wrote nothing on stderr)")
        } else {
            write!(f, ": {}", self.0)
        }
    }
}

impl PluginStderr {
    fn of(bytes: &[u8]) -> PluginStderr {
        PluginStderr(trimmed(bytes))
    }
}

/// More than any plugin's answer; what it writes beyond this is dropped.
const MAX_OUTPUT: usize = 1 << 20;

/// The plugin's command, as a message names it; not its arguments, which may hold a
/// secret (`--oidc-client-secret=…`).
pub(crate) fn describe(exec: &ExecConfig) -> String {
    exec.command.clone().unwrap_or_default()
}

/// Runs the plugin; it must have answered within `timeout`.
pub(crate) fn run(exec: &ExecConfig, timeout: Duration) -> Result<Credential, CredentialError> {
    let deadline = Instant::now() + timeout;
    let plugin = describe(exec);
    let Some(command) = exec.command.as_deref().filter(|c| !c.is_empty()) else {
        return Err(CredentialError::NoCommand { plugin });
    };
    let Some(interactive) = interactive(exec) else {
        return Err(CredentialError::NoTerminal { plugin });
    };
    let mut cmd = command_for(exec, command, interactive);
    // Not interactive: in a process group of its own, ended whole on a timeout.
    let group = !interactive;
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(error) => {
            let hint = exec.install_hint.as_deref().map(one_line);
            return Err(CredentialError::CannotRun {
                plugin,
                error,
                hint,
            });
        }
    };
    // A person at a terminal sees what the plugin says (a login URL, a prompt) as it
    // says it, as with kubectl.
    let (stdout, stdout_done) = collect(child.stdout.take(), false);
    let (stderr, stderr_done) = collect(child.stderr.take(), interactive);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(error) => return Err(CredentialError::CannotWait { plugin, error }),
        }
        if Instant::now() >= deadline {
            end(&mut child, group);
            // What it wrote so far; a child of the plugin may still hold the pipe.
            let _ = stderr_done.recv_timeout(Duration::from_millis(50));
            return Err(CredentialError::TimedOut {
                plugin,
                timeout,
                stderr: PluginStderr::of(&taken(&stderr)),
            });
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let left = deadline.saturating_duration_since(Instant::now());
    let complete = stdout_done.recv_timeout(left).is_ok();
    if !complete {
        // What it started still holds its stdout: end them.
        end(&mut child, group);
    }
    let _ = stderr_done.recv_timeout(Duration::from_millis(50));
    let stderr = PluginStderr::of(&taken(&stderr));
    if !status.success() {
        return Err(CredentialError::Failed {
            plugin,
            exit_code: status.code(),
            stderr,
        });
    }
    if !complete {
        return Err(CredentialError::Unfinished {
            plugin,
            timeout,
            stderr,
        });
    }
    parse(&taken(&stdout), exec.api_version.as_deref()).map_err(|problem| {
        CredentialError::BadAnswer {
            plugin,
            problem,
            stderr,
        }
    })
}

/// Whether the plugin may talk with the person at the terminal (client-go's
/// `interactiveMode`: standard input passed only when it may and is a terminal).
/// None: it must, and standard input is not a terminal.
fn interactive(exec: &ExecConfig) -> Option<bool> {
    let stdin_terminal = std::io::stdin().is_terminal();
    match exec.interactive_mode {
        Some(ExecInteractiveMode::Never) => Some(false),
        Some(ExecInteractiveMode::Always) => stdin_terminal.then_some(true),
        Some(ExecInteractiveMode::IfAvailable) | None => Some(stdin_terminal),
    }
}

/// The plugin's command as client-go starts it: its args and env, `KUBERNETES_EXEC_INFO`
/// (with the cluster when `provideClusterInfo`), standard input only when interactive,
/// and, when not, a process group of its own.
fn command_for(exec: &ExecConfig, command: &str, interactive: bool) -> Command {
    let mut cmd = Command::new(command);
    cmd.args(exec.args.iter().flatten());
    for pair in exec.env.iter().flatten() {
        if let (Some(name), Some(value)) = (pair.get("name"), pair.get("value")) {
            cmd.env(name, value);
        }
    }
    for name in exec.drop_env.iter().flatten() {
        cmd.env_remove(name);
    }
    let mut spec = serde_json::json!({ "interactive": interactive });
    if exec.provide_cluster_info {
        if let Some(cluster) = &exec.cluster {
            spec["cluster"] = serde_json::to_value(cluster).unwrap_or_default();
        }
    }
    let info = serde_json::json!({
        "apiVersion": exec.api_version,
        "kind": "ExecCredential",
        "spec": spec,
    });
    cmd.env("KUBERNETES_EXEC_INFO", info.to_string());
    cmd.stdin(if interactive {
        Stdio::inherit()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    #[cfg(unix)]
    if !interactive {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    cmd
}

/// Ends the plugin, and with `group` every process of its process group (it leads it;
/// not yet reaped when timed out, so the group's id is still its own).
fn end(child: &mut std::process::Child, group: bool) {
    #[cfg(unix)]
    if group {
        use rustix::process::{kill_process_group, Pid, Signal};
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = group;
    let _ = child.kill();
    let _ = child.wait();
}

/// The credential in a plugin's stdout. Never echoes the output: it holds secrets.
fn parse(stdout: &[u8], api_version: Option<&str>) -> Result<Credential, AnswerProblem> {
    // client-go reads the answer with a YAML-tolerant decoder; JSON is what plugins
    // print. Its error is said by its position (json_problem), never the text.
    let credential: ExecCredential = match serde_json::from_slice(stdout) {
        Ok(credential) => credential,
        Err(error) => serde_saphyr::from_slice(stdout)
            .map_err(|_| AnswerProblem::NotAnExecCredential { error })?,
    };
    if let (Some(wanted), Some(got)) = (api_version, credential.api_version.as_deref()) {
        if wanted != got {
            return Err(AnswerProblem::OtherApiVersion {
                got: got.to_string(),
                wanted: wanted.to_string(),
            });
        }
    }
    match credential.status.ok_or(AnswerProblem::NoStatus)? {
        Status {
            client_certificate_data: Some(certificate),
            client_key_data: Some(key),
            ..
        } => Ok(Credential::Certificate { certificate, key }),
        Status {
            token: Some(token), ..
        } if !token.is_empty() => Ok(Credential::Token(token)),
        _ => Err(AnswerProblem::NoCredential),
    }
}

/// Reads a pipe to its end on a thread of its own, keeping at most `MAX_OUTPUT` bytes
/// (and copying them to stderr when `tee`); the receiver hears when it is done.
fn collect(
    pipe: Option<impl Read + Send + 'static>,
    tee: bool,
) -> (Arc<Mutex<Vec<u8>>>, mpsc::Receiver<()>) {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let (done, heard) = mpsc::channel();
    let Some(mut pipe) = pipe else {
        let _ = done.send(());
        return (buf, heard);
    };
    let shared = buf.clone();
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        loop {
            match pipe.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tee {
                        let _ = std::io::stderr().write_all(&chunk[..n]);
                    }
                    if let Ok(mut b) = shared.lock() {
                        let room = MAX_OUTPUT.saturating_sub(b.len());
                        b.extend_from_slice(&chunk[..n.min(room)]);
                    }
                }
            }
        }
        let _ = done.send(());
    });
    (buf, heard)
}

fn taken(buf: &Arc<Mutex<Vec<u8>>>) -> Vec<u8> {
    buf.lock().map(|b| b.clone()).unwrap_or_default()
}

/// The last lines of `bytes`, on one line: control characters dropped, blank lines
/// skipped, lines joined by ` | `, at most 300 characters (the end kept: that is where
/// programs say what went wrong).
pub(crate) fn trimmed(bytes: &[u8]) -> String {
    const MAX: usize = 300;
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<String> = text
        .lines()
        .map(one_line)
        .filter(|l| !l.is_empty())
        .collect();
    let joined = lines[lines.len().saturating_sub(5)..].join(" | ");
    let count = joined.chars().count();
    if count <= MAX {
        return joined;
    }
    let tail: String = joined.chars().skip(count - (MAX - 1)).collect();
    format!("…{tail}")
}

fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_keeps_the_last_lines_on_one_line() {
        assert_eq!(trimmed(b"\n  error: no session \n\n"), "error: no session");
        assert_eq!(trimmed(b"a\nb\nc\nd\ne\nf\ng\n"), "c | d | e | f | g");
        assert_eq!(trimmed(b"\x1b[31mred\x1b[0m"), "[31mred[0m");
        let long = "x".repeat(1000) + "END";
        let t = trimmed(long.as_bytes());
        assert_eq!(t.chars().count(), 300);
        assert!(t.starts_with('…') && t.ends_with("END"), "{t}");
    }

    #[test]
    fn a_token_or_a_certificate_is_read_and_never_echoed() {
        let token = br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"abc"}}"#;
        assert!(matches!(
            parse(token, Some("client.authentication.k8s.io/v1")),
            Ok(Credential::Token(t)) if t == "abc"
        ));
        let cert = b"apiVersion: client.authentication.k8s.io/v1\nstatus: {clientCertificateData: C, clientKeyData: K}\n";
        assert!(matches!(
            parse(cert, None),
            Ok(Credential::Certificate { .. })
        ));
        let e = parse(b"token SECRET-OUTPUT", None)
            .err()
            .unwrap()
            .to_string();
        assert!(!e.contains("SECRET"), "{e}");
        // A value of the wrong type: serde_json would quote it ("invalid type: string
        // \"…\""), and here it is the token.
        for wrong in [
            br#"{"status":"SECRET-TOKEN"}"#.as_slice(),
            br#"{"status":{"token":["x"],"clientKeyData":"SECRET-KEY"},"apiVersion":"SECRET-A"}"#,
            br#"{"apiVersion":{"SECRET-KEY":1}}"#,
        ] {
            let e = parse(wrong, None).err().unwrap().to_string();
            assert!(!e.contains("SECRET"), "{e}");
            assert!(e.contains("at line 1 column"), "{e}");
        }
        let e = parse(token, Some("client.authentication.k8s.io/v1beta1"))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("apiVersion"), "{e}");
        assert!(matches!(
            parse(token, Some("v9")),
            Err(AnswerProblem::OtherApiVersion { got, wanted })
                if got == "client.authentication.k8s.io/v1" && wanted == "v9"
        ));
        let e = parse(br#"{"status":{}}"#, None).err().unwrap().to_string();
        assert!(e.contains("neither a token"), "{e}");
    }
}
