//! The krew manifest and the packaging script that fills in its sha256.

mod cmd;

use cmd::{on_path, repo};
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

/// What an unreleased platform's sha256 says until scripts/package.sh or a release
/// writes the archive's.
const PLACEHOLDER: &str = "PLACEHOLDER-set-by-scripts/package.sh";

fn manifest(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

fn text<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("krew-manifest.yaml: {pointer} must be a string"))
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

#[test]
fn krew_manifest_is_complete() {
    let m = manifest(&repo("krew-manifest.yaml"));
    assert_eq!(
        text(&m, "/apiVersion"),
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(text(&m, "/kind"), "Plugin");
    assert_eq!(text(&m, "/metadata/name"), "policies");
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    assert_eq!(
        text(&m, "/spec/version"),
        version,
        "spec.version follows Cargo.toml"
    );
    let homepage = text(&m, "/spec/homepage");
    assert!(homepage.starts_with("https://"), "{homepage}");
    let short = text(&m, "/spec/shortDescription");
    assert!(!short.is_empty() && short.len() <= 50, "{short:?}");
    assert!(text(&m, "/spec/description").len() > short.len());

    let platforms = m["spec"]["platforms"].as_array().expect("spec.platforms");
    let mut seen = BTreeSet::new();
    for p in platforms {
        let os = text(p, "/selector/matchLabels/os");
        let arch = text(p, "/selector/matchLabels/arch");
        assert!(seen.insert((os, arch)), "{os}/{arch} twice");
        let uri = text(p, "/uri");
        assert_eq!(
            uri,
            format!("{homepage}/releases/download/{version}/kubectl-policies_{version}_{os}_{arch}.tar.gz")
        );
        let sha = text(p, "/sha256");
        assert!(
            is_sha256(sha) || sha == PLACEHOLDER,
            "{os}/{arch}: sha256 is neither 64 hex digits nor {PLACEHOLDER:?}: {sha:?}"
        );
        assert_eq!(text(p, "/bin"), "kubectl-policies");
        let files: BTreeSet<(&str, &str)> = p["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| (text(f, "/from"), text(f, "/to")))
            .collect();
        for from in ["kubectl-policies", "kubectl_complete-policies", "LICENSE"] {
            assert!(
                files.contains(&(from, ".")),
                "{os}/{arch}: {from} not in files"
            );
        }
    }
    let want: BTreeSet<(&str, &str)> = [
        ("darwin", "amd64"),
        ("darwin", "arm64"),
        ("linux", "amd64"),
        ("linux", "arm64"),
    ]
    .into();
    assert_eq!(seen, want);
}

#[test]
fn license_is_apache_2() {
    let license = std::fs::read_to_string(repo("LICENSE")).unwrap();
    assert!(
        license.contains("Apache License\n                           Version 2.0, January 2004")
    );
    assert!(license.contains("END OF TERMS AND CONDITIONS"));
    assert_eq!(env!("CARGO_PKG_LICENSE"), "Apache-2.0");
}

/// The packaging script on a stand-in binary: the archive's contents, and its sha256
/// written into this machine's platform of a copy of the manifest, nowhere else.
#[test]
fn package_script_writes_the_archive_sha256_into_the_matching_platform() {
    let (os, arch) = match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => ("linux", "amd64"),
        ("linux", "aarch64") => ("linux", "arm64"),
        ("macos", "x86_64") => ("darwin", "amd64"),
        ("macos", "aarch64") => ("darwin", "arm64"),
        other => {
            eprintln!("note: the manifest has no platform for {other:?}; not packaging");
            return;
        }
    };
    if let Some(missing) = ["bash", "tar", "gzip", "awk"]
        .into_iter()
        .find(|p| on_path(p).is_none())
    {
        eprintln!("note: `{missing}` is not on PATH; not running scripts/package.sh");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("stand-in");
    std::fs::write(&bin, "#!/bin/sh\necho stand-in\n").unwrap();
    let copy = dir.path().join("krew-manifest.yaml");
    std::fs::copy(repo("krew-manifest.yaml"), &copy).unwrap();
    let out = Command::new(repo("scripts/package.sh"))
        .arg(dir.path().join("dist"))
        .env("KUBECTL_POLICIES_BIN", &bin)
        .env("MANIFEST", &copy)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    let archive = dir.path().join(format!(
        "dist/kubectl-policies_{version}_{os}_{arch}.tar.gz"
    ));
    let listing = Command::new("tar")
        .arg("-tzf")
        .arg(&archive)
        .output()
        .unwrap();
    let mut names: Vec<String> = String::from_utf8(listing.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["LICENSE", "kubectl-policies", "kubectl_complete-policies"]
    );

    let before = manifest(&repo("krew-manifest.yaml"));
    let after = manifest(&copy);
    for (i, p) in after["spec"]["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let sha = text(p, "/sha256");
        if text(p, "/selector/matchLabels/os") == os
            && text(p, "/selector/matchLabels/arch") == arch
        {
            assert!(is_sha256(sha), "{sha}");
            let printed = String::from_utf8(out.stdout.clone()).unwrap();
            assert!(printed.contains(sha), "{printed}");
            if let Some(sha256sum) = on_path("sha256sum") {
                let sum = Command::new(sha256sum).arg(&archive).output().unwrap();
                assert!(String::from_utf8(sum.stdout).unwrap().starts_with(sha));
            }
        } else {
            assert_eq!(sha, text(&before["spec"]["platforms"][i], "/sha256"));
        }
    }
    // Everything else is as it was.
    let mut a = after.clone();
    let mut b = before.clone();
    for v in [&mut a, &mut b] {
        for p in v["spec"]["platforms"].as_array_mut().unwrap() {
            p["sha256"] = Value::Null;
        }
    }
    assert_eq!(a, b);
}
