//! Releases: the krew manifest template (krew-manifest.yaml, krew-release-bot's syntax), the
//! script that renders it, the packaging script and the release workflow.

use crate::command::{hermetic, on_path, repo};
use serde_json::Value;
use std::collections::BTreeSet;

const HOMEPAGE: &str = "https://github.com/kubectl-policies/kubectl-policies";

/// Every platform a release builds: krew's (os, arch), the Rust target, the binary.
const PLATFORMS: &[(&str, &str, &str, &str)] = &[
    (
        "linux",
        "amd64",
        "x86_64-unknown-linux-musl",
        "kubectl-policies",
    ),
    (
        "linux",
        "arm64",
        "aarch64-unknown-linux-musl",
        "kubectl-policies",
    ),
    ("darwin", "amd64", "x86_64-apple-darwin", "kubectl-policies"),
    (
        "darwin",
        "arm64",
        "aarch64-apple-darwin",
        "kubectl-policies",
    ),
    (
        "windows",
        "amd64",
        "x86_64-pc-windows-msvc",
        "kubectl-policies.exe",
    ),
    (
        "windows",
        "arm64",
        "aarch64-pc-windows-msvc",
        "kubectl-policies.exe",
    ),
];

fn text<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{pointer} must be a string in {v}"))
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

fn archive(tag: &str, os: &str, arch: &str) -> String {
    format!("kubectl-policies_{tag}_{os}_{arch}.tar.gz")
}

/// The template rendered as krew-release-bot renders it: the tag for `{{ .TagName }}`,
/// and for `{{addURIAndSha "URL" .TagName }}` the uri and the archive's sha256 (here
/// `sha_of(file name)`).
fn render(template: &str, tag: &str, sha_of: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    for line in template.lines() {
        let line = line.replace("{{ .TagName }}", tag);
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("{{addURIAndSha \"") {
            let indent = &line[..line.len() - trimmed.len()];
            let (url, tail) = rest.split_once('"').expect("a quoted URL");
            assert_eq!(tail, " .TagName }}", "{line}");
            let file = url.rsplit('/').next().unwrap();
            out.push_str(&format!(
                "{indent}uri: {url}\n{indent}sha256: {}\n",
                sha_of(file)
            ));
        } else {
            assert!(
                !line.contains("{{"),
                "an action the bot may not know: {line}"
            );
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn template() -> String {
    std::fs::read_to_string(repo("krew-manifest.yaml")).unwrap()
}

/// A rendered manifest is what krew reads: every platform a release builds, Windows
/// with its .exe, each with its archive's uri and sha256 and the files it installs.
#[test]
fn krew_template_renders_to_a_complete_manifest() {
    let t = template();
    assert!(
        t.contains("\n  version: {{ .TagName }}\n"),
        "spec.version is the tag"
    );
    // The bot runs template actions wherever they are, comments included.
    for line in t.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(!line.contains("{{"), "{line}");
    }
    let tag = "v1.2.3";
    let rendered = render(&t, tag, |file| {
        let i = PLATFORMS
            .iter()
            .position(|(os, arch, _, _)| archive(tag, os, arch) == file)
            .unwrap_or_else(|| panic!("{file} is not an archive a release builds"));
        // A letter: 64 digits alone would read as a YAML number.
        format!("{:x}", i + 10).repeat(64)
    });
    let m: Value = serde_saphyr::from_str(&rendered).unwrap();
    assert_eq!(
        text(&m, "/apiVersion"),
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(text(&m, "/kind"), "Plugin");
    assert_eq!(text(&m, "/metadata/name"), "policies");
    assert_eq!(text(&m, "/spec/version"), tag);
    assert_eq!(text(&m, "/spec/homepage"), HOMEPAGE);
    let short = text(&m, "/spec/shortDescription");
    assert!(!short.is_empty() && short.len() <= 50, "{short:?}");
    assert!(text(&m, "/spec/description").len() > short.len());
    assert!(text(&m, "/spec/caveats").contains(&format!("store/policies/{tag}/")));

    let platforms = m["spec"]["platforms"].as_array().expect("spec.platforms");
    let mut seen = BTreeSet::new();
    for p in platforms {
        let os = text(p, "/selector/matchLabels/os");
        let arch = text(p, "/selector/matchLabels/arch");
        assert!(seen.insert((os, arch)), "{os}/{arch} twice");
        let &(_, _, _, bin) = PLATFORMS
            .iter()
            .find(|(o, a, _, _)| *o == os && *a == arch)
            .unwrap_or_else(|| panic!("{os}/{arch} is not built by a release"));
        assert_eq!(
            text(p, "/uri"),
            format!(
                "{HOMEPAGE}/releases/download/{tag}/{}",
                archive(tag, os, arch)
            )
        );
        assert!(is_sha256(text(p, "/sha256")));
        assert_eq!(text(p, "/bin"), bin);
        let complete = if os == "windows" {
            "kubectl_complete-policies.cmd"
        } else {
            "kubectl_complete-policies"
        };
        let files: BTreeSet<(&str, &str)> = p["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| (text(f, "/from"), text(f, "/to")))
            .collect();
        assert_eq!(
            files,
            [(bin, "."), (complete, "."), ("LICENSE", ".")].into(),
            "{os}/{arch}"
        );
    }
    assert_eq!(seen.len(), PLATFORMS.len());
}

/// scripts/krew-manifest.sh renders the template as the bot would (the same bytes as
/// the renderer above, less the template's own comments), and leaves out platforms
/// whose archive it has no checksum for.
#[test]
fn the_render_script_fills_in_what_the_bot_would() {
    if let Some(missing) = ["bash", "awk"].into_iter().find(|p| on_path(p).is_none()) {
        eprintln!("note: `{missing}` is not on PATH; not running scripts/krew-manifest.sh");
        return;
    }
    let tag = "v9.8.7";
    let dir = tempfile::tempdir().unwrap();
    let sums = dir.path().join("checksums.txt");
    let mut listing = String::new();
    for (i, (os, arch, _, _)) in PLATFORMS.iter().enumerate() {
        listing.push_str(&format!(
            "{}  {}\n",
            format!("{i:x}").repeat(64),
            archive(tag, os, arch)
        ));
    }
    std::fs::write(&sums, &listing).unwrap();
    let run = |sums: &std::path::Path| {
        hermetic(repo("scripts/krew-manifest.sh"))
            .arg(tag)
            .arg(sums)
            .output()
            .unwrap()
    };
    let out = run(&sums);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rendered = String::from_utf8(out.stdout).unwrap();
    let want = render(&template(), tag, |file| {
        listing
            .lines()
            .find(|l| l.ends_with(file))
            .map(|l| l[..64].to_string())
            .unwrap()
    });
    let want: String = want
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let body: String = rendered
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(body, want);

    // One archive listed (as sha256sum writes a path in binary mode): one platform.
    std::fs::write(
        &sums,
        format!(
            "{} *dist/{}\n",
            "f".repeat(64),
            archive(tag, "windows", "arm64")
        ),
    )
    .unwrap();
    let out = run(&sums);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: Value = serde_saphyr::from_slice(&out.stdout).unwrap();
    let platforms = m["spec"]["platforms"].as_array().unwrap();
    assert_eq!(platforms.len(), 1);
    assert_eq!(text(&platforms[0], "/bin"), "kubectl-policies.exe");
    assert_eq!(text(&platforms[0], "/sha256"), "f".repeat(64));
    // None: an error, not an empty manifest.
    std::fs::write(&sums, "").unwrap();
    assert!(!run(&sums).status.success());
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

/// The packaging script on a stand-in binary, for this machine and for a Windows
/// target: the archives' contents, their sha256, and a manifest that installs them.
#[test]
fn package_script_builds_archives_and_a_manifest_for_them() {
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
    let dist = dir.path().join("dist");
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    let package = |target: Option<&str>| {
        let mut c = hermetic(repo("scripts/package.sh"));
        c.arg(&dist).env("KUBECTL_POLICIES_BIN", &bin);
        if let Some(t) = target {
            c.env("TARGET", t);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{target:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let here = match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => Some(("linux", "amd64")),
        ("linux", "aarch64") => Some(("linux", "arm64")),
        ("macos", "x86_64") => Some(("darwin", "amd64")),
        ("macos", "aarch64") => Some(("darwin", "arm64")),
        _ => None,
    };
    let mut built = Vec::new();
    if let Some((os, arch)) = here {
        let printed = package(None);
        built.push((os, arch, printed));
    }
    let printed = package(Some("aarch64-pc-windows-msvc"));
    built.push(("windows", "arm64", printed));

    for (os, arch, printed) in &built {
        let file = dist.join(archive(&version, os, arch));
        let listing = hermetic("tar").arg("-tzf").arg(&file).output().unwrap();
        let mut names: Vec<String> = String::from_utf8(listing.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        names.sort();
        let want = if *os == "windows" {
            [
                "LICENSE",
                "kubectl-policies.exe",
                "kubectl_complete-policies.cmd",
            ]
        } else {
            ["LICENSE", "kubectl-policies", "kubectl_complete-policies"]
        };
        assert_eq!(names, want);
        let sums = std::fs::read_to_string(format!("{}.sha256", file.display())).unwrap();
        let (sha, name) = sums.trim_end().split_once("  ").unwrap();
        assert!(is_sha256(sha), "{sums}");
        assert_eq!(name, archive(&version, os, arch));
        assert!(printed.contains(sha), "{printed}");
        if let Some(sha256sum) = on_path("sha256sum") {
            let sum = hermetic(sha256sum).arg(&file).output().unwrap();
            assert!(String::from_utf8(sum.stdout).unwrap().starts_with(sha));
        }
    }
    // The manifest installs every archive in dist/, and only those.
    let m: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(dist.join("krew-manifest.yaml")).unwrap())
            .unwrap();
    assert_eq!(text(&m, "/spec/version"), version);
    let platforms = m["spec"]["platforms"].as_array().unwrap();
    assert_eq!(platforms.len(), built.len());
    for p in platforms {
        let os = text(p, "/selector/matchLabels/os");
        let arch = text(p, "/selector/matchLabels/arch");
        let file = dist.join(archive(&version, os, arch));
        let sums = std::fs::read_to_string(format!("{}.sha256", file.display())).unwrap();
        assert_eq!(text(p, "/sha256"), &sums[..64], "{os}/{arch}");
    }
    // A target no release builds is refused.
    let out = hermetic(repo("scripts/package.sh"))
        .arg(&dist)
        .env("KUBECTL_POLICIES_BIN", &bin)
        .env("TARGET", "riscv64gc-unknown-linux-gnu")
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// The release workflow builds every platform of the template, on a `v*` tag, with
/// the packaging script, and publishes checksums and the rendered manifest.
#[test]
fn the_release_workflow_builds_every_platform_of_the_template() {
    let text_of = std::fs::read_to_string(repo(".github/workflows/release.yml")).unwrap();
    let wf: Value = serde_saphyr::from_str(&text_of).unwrap();
    assert_eq!(wf["on"]["push"]["tags"], serde_json::json!(["v*"]));
    let targets: BTreeSet<&str> = wf["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("a build matrix")
        .iter()
        .map(|e| text(e, "/target"))
        .collect();
    let want: BTreeSet<&str> = PLATFORMS.iter().map(|p| p.2).collect();
    assert_eq!(targets, want);
    for needle in [
        "scripts/package.sh",
        "scripts/krew-manifest.sh",
        "checksums.txt",
        "krew-manifest.yaml",
        "krew-release-bot",
        "Cargo.toml",
    ] {
        assert!(
            text_of.contains(needle),
            "release.yml does not use {needle}"
        );
    }
}

/// The release as the user asked for it: the template at the top level under the name
/// the bot is told (`krew_template_file`), static and stripped Linux binaries, checked
/// before they are packaged, and `cargo install --locked` in the README and the install guide.
#[test]
fn the_release_names_its_template_builds_static_stripped_linux_binaries_and_installs_locked() {
    assert!(
        !repo(".krew.yaml").exists(),
        "the template moved to krew-manifest.yaml"
    );
    let text_of = std::fs::read_to_string(repo(".github/workflows/release.yml")).unwrap();
    let wf: Value = serde_saphyr::from_str(&text_of).unwrap();
    let publish = wf["jobs"]["publish"]["steps"].as_array().unwrap();
    let bot = publish
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.contains("krew-release-bot"))
        })
        .expect("the krew-release-bot step");
    assert_eq!(bot["with"]["krew_template_file"], "krew-manifest.yaml");
    let build = wf["jobs"]["build"]["steps"].as_array().unwrap();
    let run_of = |name: &str| -> String {
        build
            .iter()
            .find(|s| s["name"].as_str().is_some_and(|n| n.contains(name)))
            .and_then(|s| s["run"].as_str())
            .unwrap_or_else(|| panic!("no build step named {name:?}"))
            .to_string()
    };
    let flags = run_of("static and stripped");
    assert!(
        flags.contains("CARGO_PROFILE_RELEASE_STRIP=symbols"),
        "{flags}"
    );
    assert!(flags.contains("+crt-static"), "{flags}");
    let check = run_of("Check that the Linux binary");
    assert!(
        check.contains("(NEEDED)") && check.contains(".symtab"),
        "{check}"
    );
    // The check comes after the build, and only Linux targets are musl ones.
    let at = |name: &str| {
        build
            .iter()
            .position(|s| s["name"].as_str().is_some_and(|n| n.contains(name)))
            .unwrap()
    };
    assert!(at("Build and package") < at("Check that the Linux binary"));
    assert!(at("static and stripped") < at("Build and package"));
    for (os, _, target, _) in PLATFORMS {
        assert_eq!(*os == "linux", target.ends_with("-linux-musl"), "{target}");
    }
    // Packaging into the repository itself would overwrite the template: refused.
    let before = template();
    let out = hermetic(repo("scripts/package.sh"))
        .arg(repo(""))
        .env("KUBECTL_POLICIES_BIN", repo("no-such-binary"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the template"));
    assert_eq!(template(), before);
    for page in ["README.md", "docs/install.md"] {
        let text = std::fs::read_to_string(repo(page)).unwrap();
        let commands: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("cargo install"))
            .collect();
        assert!(!commands.is_empty(), "{page} shows a cargo install command");
        for line in commands {
            assert!(line.contains("--locked"), "{page}: {line}");
        }
    }
}
