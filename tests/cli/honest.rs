//! Honest answers (docs/reference.md#blind-spots, Terminal safety): nothing read is dropped in
//! silence, input that yields nothing is no answer, nothing raw reaches a terminal.

use crate::command::kp;
use serde_json::Value;
use std::path::Path;

const GATEWAY: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: shop}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
";

const ROUTE: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: shop}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: web, port: 80}]}]
";

const POLICY: &str = "\
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: retries, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  retry: {numRetries: 3}
";

/// A route whose name is a number: YAML reads 7, not "7"; not a valid object.
const BAD_NAME: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: 7, namespace: shop}
spec: {parentRefs: [{name: gw}]}
";

fn write(dir: &Path, name: &str, docs: &[&str]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, docs.join("---\n")).unwrap();
    path.display().to_string()
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = kp().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every command says, once, on stderr, which document was not read, where and why;
/// the answer is still given from the rest.
#[test]
fn every_command_names_the_document_it_could_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "b.yaml", &[GATEWAY, ROUTE, POLICY, BAD_NAME]);
    let said = "b.yaml document 4 (HTTPRoute): metadata.name: must be a non-empty string; this object is not shown";
    let commands: [&[&str]; 9] = [
        &["get", "-A"],
        &["get", "-A", "-o", "name"],
        &["get", "kinds"],
        &["describe", "httproute/web", "-n", "shop"],
        &["effective", "httproute/web", "-n", "shop"],
        &["tree", "-A"],
        &["graph", "-A"],
        &["blast-radius", "backendtrafficpolicy/retries", "-n", "shop"],
        &["check", "-A"],
    ];
    for args in commands {
        let mut all = vec!["-f", f.as_str()];
        all.extend_from_slice(args);
        let (code, _, err) = run(&all);
        assert_eq!(err.matches(said).count(), 1, "{args:?}: {err}");
        let expected = if args[0] == "check" { 1 } else { 0 };
        assert_eq!(code, Some(expected), "{args:?}: {err}");
    }
}

/// Every machine-readable answer carries it, with the file and the document.
#[test]
fn json_answers_carry_the_blind_spot_with_file_and_document() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "b.yaml", &[GATEWAY, ROUTE, POLICY, BAD_NAME]);
    let answers: [&[&str]; 6] = [
        &["get", "-A", "-o", "json"],
        &["get", "kinds", "-o", "json"],
        &["describe", "httproute/web", "-n", "shop", "-o", "json"],
        &["effective", "httproute/web", "-n", "shop", "-o", "json"],
        &[
            "blast-radius",
            "backendtrafficpolicy/retries",
            "-n",
            "shop",
            "-o",
            "json",
        ],
        &["check", "-A", "-o", "json"],
    ];
    for args in answers {
        let mut all = vec!["-f", f.as_str()];
        all.extend_from_slice(args);
        let (_, out, _) = run(&all);
        let v: Value = serde_json::from_str(&out).unwrap();
        let spots = v["blindSpots"]
            .as_array()
            .unwrap_or_else(|| panic!("{args:?}: {out}"));
        assert_eq!(spots.len(), 1, "{args:?}");
        let s = &spots[0];
        assert_eq!(s["reason"], "Invalid");
        assert_eq!(s["kind"], "HTTPRoute");
        assert_eq!(s["group"], "gateway.networking.k8s.io");
        assert_eq!(s["document"], 4);
        assert!(s["file"].as_str().unwrap().ends_with("b.yaml"));
    }
    // YAML too, beside the items.
    let (_, out, _) = run(&["-f", &f, "get", "-A", "-o", "yaml"]);
    assert!(
        out.contains("\nblindSpots:\n- group: gateway.networking.k8s.io"),
        "{out}"
    );
}

/// `check` never says "No findings." and exits 0 when part of the input was not read.
#[test]
fn check_is_not_clean_when_something_was_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let service = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n";
    let clean = write(dir.path(), "clean.yaml", &[service]);
    let (code, out, _) = run(&["-f", &clean, "check", "-A"]);
    assert_eq!((code, out.as_str()), (Some(0), "No findings.\n"));
    let f = write(dir.path(), "b.yaml", &[ROUTE, BAD_NAME]);
    let (code, out, err) = run(&["-f", &f, "check", "-A"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(!out.contains("No findings."), "{out}");
    assert!(out.contains("Invalid"), "{out}");
}

/// An unparseable creationTimestamp (here with a non-ASCII character where a digit
/// belongs) makes the document invalid: said, never a panic.
#[test]
fn a_bad_creation_timestamp_is_an_invalid_document() {
    let dir = tempfile::tempdir().unwrap();
    let stamped = POLICY.replace(
        "namespace: shop}",
        "namespace: shop, creationTimestamp: \"2024-01-01T00:00:0é\"}",
    );
    let f = write(dir.path(), "t.yaml", &[GATEWAY, ROUTE, &stamped]);
    let (code, out, err) = run(&["-f", &f, "get", "-A"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("t.yaml document 3 (BackendTrafficPolicy): metadata.creationTimestamp: must be an RFC 3339 time"),
        "{err}"
    );
    assert!(!out.contains("retries"), "{out}");
}

/// Input that yields no object is an error that says what was found, not "No
/// resources found".
#[test]
fn input_that_yields_nothing_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.yaml", &["# only a comment\n"]);
    let (code, _, err) = run(&["-f", &empty, "get", "-A"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("empty.yaml: no Kubernetes object in 1 file (empty, or only comments)"),
        "{err}"
    );

    let nothing = dir.path().join("nothing");
    std::fs::create_dir(&nothing).unwrap();
    std::fs::write(nothing.join("notes.txt"), "not a manifest").unwrap();
    let (code, _, err) = run(&["-f", nothing.to_str().unwrap(), "check", "-A"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("no *.yaml, *.yml or *.json file in it"),
        "{err}"
    );

    let invalid = write(dir.path(), "invalid.yaml", &[BAD_NAME]);
    let (code, _, err) = run(&["-f", &invalid, "get", "-A"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("no valid Kubernetes object: 1 document could not be read"),
        "{err}"
    );
}

/// YAML allows CR alone as a line break: such a file reads as its LF twin, comment
/// first and several documents alike; lines are counted in its errors.
#[test]
fn cr_line_breaks_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let lf = format!("# old Mac file\n{GATEWAY}---\n{ROUTE}---\n{POLICY}");
    let cr = lf.replace('\n', "\r");
    let (lf_path, cr_path) = (dir.path().join("lf.yaml"), dir.path().join("cr.yaml"));
    std::fs::write(&lf_path, &lf).unwrap();
    std::fs::write(&cr_path, &cr).unwrap();
    let get = |p: &Path| run(&["-f", p.to_str().unwrap(), "get", "-A", "-o", "json"]);
    let (code, cr_out, err) = get(&cr_path);
    assert_eq!(code, Some(0), "{err}");
    assert!(cr_out.contains("retries"), "{cr_out}");
    assert_eq!(cr_out.replace("cr.yaml", "lf.yaml"), get(&lf_path).1);

    let broken = "apiVersion: v1\rkind: Service\rmetadata: {name: [a\r";
    std::fs::write(&cr_path, broken).unwrap();
    let (code, _, err) = run(&["-f", cr_path.to_str().unwrap(), "get"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("cr.yaml: document 1, line 3: invalid YAML"),
        "{err}"
    );
}

/// A dump of more objects than the YAML reader's default budgets allow reads back.
#[test]
fn a_large_yaml_dump_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 0..8000 {
        list.push_str(&format!(
            "- apiVersion: v1\n  kind: Service\n  metadata:\n    name: svc-{i}\n    namespace: shop\n    labels: {{app: a{i}, tier: web}}\n  spec:\n    ports:\n    - {{name: http, port: 80, targetPort: 8080, protocol: TCP}}\n"
        ));
    }
    let f = dir.path().join("big.yaml");
    std::fs::write(&f, list).unwrap();
    let (code, out, err) = run(&["-f", f.to_str().unwrap(), "dump", "-A"]);
    assert_eq!(code, Some(0), "{err}");
    let again = dir.path().join("again.yaml");
    std::fs::write(&again, out).unwrap();
    let (code, out, err) = run(&["-f", again.to_str().unwrap(), "dump", "-A", "-o", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["items"].as_array().unwrap().len(), 8000);
}

/// Alias bombs and absurd nesting are still refused at once, in words.
#[test]
fn alias_bombs_and_deep_nesting_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut bomb = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        bomb.push_str(&format!(
            "  a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let f = dir.path().join("bomb.yaml");
    std::fs::write(&f, bomb).unwrap();
    let (code, _, err) = run(&["-f", f.to_str().unwrap(), "get"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("bomb.yaml: document 1"), "{err}");
    assert!(!err.contains("budget breached"), "{err}");

    let deep = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: d}}\ndata: {}{}\n",
        "[".repeat(300),
        "]".repeat(300)
    );
    std::fs::write(&f, deep).unwrap();
    let (code, _, err) = run(&["-f", f.to_str().unwrap(), "get"]);
    assert_eq!(code, Some(1));
    assert!(!err.contains("Depth"), "{err}");
    assert!(err.contains("bomb.yaml: document 1"), "{err}");
}

/// A directory walk reads regular files only: a FIFO or a link to /dev/zero named
/// like a manifest would hang or fill memory. Each one skipped is said.
#[cfg(unix)]
#[test]
fn a_directory_walk_skips_what_is_not_a_regular_file_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "good.yaml", &[GATEWAY, ROUTE, POLICY]);
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.yaml")).unwrap();
    let fifo = dir.path().join("fifo.yaml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let out = kp()
        .args(["-f", dir.path().to_str().unwrap(), "get", "-A"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("retries"));
    assert!(
        err.contains("zero.yaml was not read: not a regular file"),
        "{err}"
    );
    if made.is_ok_and(|s| s.success()) {
        assert!(
            err.contains("fifo.yaml was not read: not a regular file"),
            "{err}"
        );
    }
}

/// `dump` never writes the last-applied-configuration annotation: it repeats the
/// object as applied, secrets included.
#[test]
fn dump_leaves_out_the_last_applied_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let applied = ROUTE.replace(
        "namespace: shop}",
        "namespace: shop, annotations: {kubectl.kubernetes.io/last-applied-configuration: '{\"token\":\"s3cr3t\"}', team: web}}",
    );
    let f = write(dir.path(), "a.yaml", &[GATEWAY, &applied]);
    let (code, out, _) = run(&["-f", &f, "dump", "-A"]);
    assert_eq!(code, Some(0));
    assert!(
        !out.contains("last-applied") && !out.contains("s3cr3t"),
        "{out}"
    );
    assert!(out.contains("team: web"), "{out}");
}

/// Names, labels and messages with escape sequences reach no terminal raw, in any
/// human output or on stderr, with colour on or off; JSON keeps them exact.
#[test]
fn control_characters_never_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let evil = POLICY
        .replace(
            "name: retries",
            "name: \"retries\\e[2J\\e]0;pwned\\a\\r\\e[8m\"",
        )
        .replace("name: gw}]", "name: \"gw\\e[2J\"}]");
    let f = write(dir.path(), "e.yaml", &[GATEWAY, ROUTE, &evil]);
    let commands: [&[&str]; 8] = [
        &["get", "-A"],
        &["get", "-A", "-o", "wide"],
        &["get", "-A", "-o", "name"],
        &["check", "-A"],
        &["tree", "-A"],
        &["graph", "-A"],
        &[
            "describe",
            "backendtrafficpolicy/retries\x1b[2J",
            "-n",
            "shop",
        ],
        &["describe", "httproute/web\x1b]0;t\x07", "-n", "shop"],
    ];
    for colour in ["always", "never"] {
        for args in commands {
            let mut all = vec!["-f", f.as_str(), "--color", colour];
            all.extend_from_slice(args);
            let out = kp().args(&all).output().unwrap();
            for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
                let text = String::from_utf8_lossy(bytes);
                // With colour, the only ESC are the renderers' own colours.
                let stripped = [
                    "\x1b[1m", "\x1b[2m", "\x1b[22m", "\x1b[31m", "\x1b[32m", "\x1b[33m",
                    "\x1b[39m", "\x1b[0m",
                ]
                .iter()
                .fold(text.to_string(), |t, c| t.replace(c, ""));
                assert!(
                    !stripped.contains('\x1b')
                        && !stripped.contains('\x07')
                        && !stripped.contains('\r'),
                    "{colour} {args:?} {stream}: {text:?}"
                );
            }
        }
    }
    let (_, out, _) = run(&["-f", &f, "get", "-A", "--color", "always"]);
    assert!(out.contains("retries^[[2J^[]0;pwned^G\\r^[[8m"), "{out:?}");
    // JSON: exact.
    let (_, out, _) = run(&["-f", &f, "get", "-A", "-o", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["items"][0]["metadata"]["name"],
        "retries\x1b[2J\x1b]0;pwned\x07\r\x1b[8m"
    );
}

mod field_mutated {
    use crate::command::kp;
    use crate::field_mutation::{field_mutated, field_mutation, written};
    use proptest::prelude::*;
    use std::time::Duration;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

        /// The binary on objects damaged field by field: exit 0 or 1, never a panic, and
        /// no control character but the line feed on either stream, colour on.
        #[test]
        fn the_binary_answers_or_refuses_and_prints_nothing_raw(
            ms in proptest::collection::vec(field_mutation(), 1..4),
            how in written(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("mutated.yaml");
            std::fs::write(&file, field_mutated(&ms, how)).unwrap();
            for args in [&["get", "-A"][..], &["describe", "httproute/baker", "-n", "baker"], &["tree", "-A"]] {
                let out = kp()
                    .arg("-f")
                    .arg(&file)
                    .args(args)
                    .args(["--color", "never"])
                    .timeout(Duration::from_secs(20))
                    .output()
                    .unwrap();
                let code = out.status.code();
                prop_assert!(code == Some(0) || code == Some(1), "{args:?} exited {code:?}");
                for bytes in [&out.stdout, &out.stderr] {
                    let text = String::from_utf8_lossy(bytes);
                    prop_assert!(!text.contains("panicked"), "{text}");
                    let raw = text.chars().find(|c| c.is_control() && *c != '\n');
                    prop_assert!(raw.is_none(), "{args:?}: {raw:?} in {text:?}");
                }
            }
        }
    }
}
