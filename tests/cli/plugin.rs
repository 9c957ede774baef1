//! As a kubectl plugin: found by kubectl on PATH, quiet on a closed pipe, coloured on
//! a terminal only.

use crate::command::{binary, hermetic, kp, on_path, path_with, stdout};
use std::io::{BufRead, BufReader};
use std::process::Stdio;

#[test]
fn kubectl_runs_it_as_kubectl_policies() {
    let Some(kubectl) = on_path("kubectl") else {
        eprintln!("note: kubectl is not on PATH; not checking `kubectl policies`");
        return;
    };
    let bin_dir = binary().parent().unwrap().to_path_buf();
    let out = hermetic(kubectl)
        .args(["policies", "--demo", "get", "-A"])
        .env("PATH", path_with(&bin_dir))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        stdout(&["--demo", "get", "-A"])
    );
}

/// Input with enough policies that the output outgrows a pipe's buffer.
fn many_policies() -> tempfile::NamedTempFile {
    let mut yaml = String::new();
    for i in 0..2000 {
        yaml.push_str(&format!(
            "---\napiVersion: example.io/v1\nkind: ColorPolicy\nmetadata: {{name: color-{i:04}, namespace: default}}\nspec: {{targetRef: {{group: \"\", kind: Service, name: web-{i:04}}}, color: red}}\n"
        ));
    }
    let f = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(f.path(), yaml).unwrap();
    f
}

#[test]
fn a_reader_that_closes_early_gets_exit_0_and_no_error() {
    let input = many_policies();
    for format in ["table", "json", "yaml", "name"] {
        let mut child = hermetic(binary())
            .args(["-f", input.path().to_str().unwrap(), "get", "-o", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one line, as `| head -n 1` does, then close the pipe.
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{format}");
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{format}");
    }
    // The output really is bigger than a pipe holds, so the writes above did fail.
    let whole = kp()
        .args(["-f", input.path().to_str().unwrap(), "get"])
        .output()
        .unwrap();
    assert!(whole.stdout.len() > 1 << 17, "{}", whole.stdout.len());
}

#[test]
fn a_reader_that_closes_before_reading_gets_exit_0_and_no_error() {
    for args in [
        &["completion", "bash"][..],
        &["--demo", "graph", "-A"][..],
        &[
            "--demo",
            "describe",
            "httproute/baker",
            "-n",
            "baker",
            "-o",
            "tree",
        ][..],
        &["--demo", "__complete", "--", "describe", ""][..],
    ] {
        let mut child = hermetic(binary())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// On a terminal, `--color auto` colours unless NO_COLOR is set (util-linux `script`
/// gives the command a pseudo-terminal).
#[test]
fn colour_on_a_terminal_unless_no_color() {
    let Some(script) = on_path("script").filter(|_| cfg!(target_os = "linux")) else {
        eprintln!("note: util-linux `script` is not available; not checking colour on a terminal");
        return;
    };
    let run = |no_color: Option<&str>| {
        let line = format!("'{}' --demo get -n infra", binary().display());
        let mut c = hermetic(&script);
        c.args(["-qec", &line, "/dev/null"]);
        if let Some(v) = no_color {
            c.env("NO_COLOR", v);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(run(None).contains("\u{1b}[32mEnforced"));
    assert!(
        run(Some("")).contains("\u{1b}[32mEnforced"),
        "NO_COLOR empty counts as unset"
    );
    let plain = run(Some("1"));
    assert!(
        plain.contains("Enforced") && !plain.contains('\u{1b}'),
        "{plain}"
    );
}
