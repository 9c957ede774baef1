//! Every process a test starts, hermetic: the binary, kubectl, `script`, the
//! repository's scripts. `hermetic` clears the environment (as bat's and ripgrep's tests
//! do) and sets only what every run needs, so no variable of the machine's (NO_COLOR,
//! KUBECONFIG, TAG...) decides a test. A test that needs one sets it on the command.
#![allow(dead_code)] // each test binary uses its own part

use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The "now" of every run, so ages in tables and snapshots are stable.
const NOW: &str = "2026-11-22T00:00:00Z";

/// `program` with an environment of its own: nothing of the machine's but PATH (tests
/// find kubectl, `script` and the scripts' tools on it), HOME an empty folder of the
/// test build (no ~/.kube of the machine's), and the fixed `NOW`.
pub fn hermetic(program: impl AsRef<OsStr>) -> std::process::Command {
    let mut c = std::process::Command::new(program);
    c.env_clear()
        .env("HOME", home())
        .env("KUBECTL_POLICIES_NOW", NOW);
    if let Some(path) = std::env::var_os("PATH") {
        c.env("PATH", path);
    }
    c
}

/// The binary, hermetic, as assert_cmd's command (`assert()`, `timeout()`,
/// `write_stdin()`).
pub fn kp() -> assert_cmd::Command {
    assert_cmd::Command::from_std(hermetic(binary()))
}

/// Stdout of a run that must succeed.
pub fn stdout(args: &[&str]) -> String {
    let out = kp().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

/// The built binary.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_kubectl-policies"))
}

/// The HOME of every run: an empty folder of the test build.
fn home() -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("home");
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// A file in the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Where `program` is on PATH, if it is (tests that need kubectl, dot or script skip,
/// saying so, where it is not: CI machines have only the Rust toolchain).
pub fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// PATH with `dir` in front.
pub fn path_with(dir: &Path) -> OsString {
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}
