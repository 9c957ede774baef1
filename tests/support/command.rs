//! The binary as a user runs it: a hermetic command and its output.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A hermetic command: no colour variables, a fixed "now" so AGE is stable.
pub fn kp() -> Command {
    let mut c = Command::cargo_bin("kubectl-policies").unwrap();
    c.env_remove("NO_COLOR")
        .env_remove("KUBECONFIG")
        .env_remove("CLICOLOR_FORCE")
        // No kubeconfig of the machine's: HOME is an empty folder of the test build.
        .env("HOME", env!("CARGO_TARGET_TMPDIR"))
        .env("KUBECTL_POLICIES_NOW", "2026-11-22T00:00:00Z");
    c
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
    assert_cmd::cargo::cargo_bin("kubectl-policies")
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
pub fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}
