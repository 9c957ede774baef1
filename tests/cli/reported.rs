//! The controller's word as a user sees it: STATUS `Invalid (reported)`, the REPORTED
//! column, the controller's message in `describe` (escaped, on one line), both verdicts
//! in JSON, and `check`'s error.

use crate::command::kp;

/// A policy refused by its controller for its current generation (the message holds an
/// escape sequence and a line feed), one refused for an older generation, one accepted.
const INPUT: &str = "apiVersion: v1
kind: Service
metadata: {name: svc-a, namespace: app}
spec: {ports: [{port: 443}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc-b, namespace: app}
spec: {ports: [{port: 443}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc-c, namespace: app}
spec: {ports: [{port: 443}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: refused, namespace: app, generation: 2}
spec:
  targetRefs: [{group: '', kind: Service, name: svc-a}]
  validation: {hostname: svc.example.com, wellKnownCACertificates: System}
status:
  ancestors:
  - ancestorRef: {name: gw}
    controllerName: example.com/gateway
    conditions:
    - {type: Accepted, status: 'False', reason: Invalid, observedGeneration: 2,
       message: \"CA ConfigMap missing\\e[2J\\nFAKE: line\"}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: stale, namespace: app, generation: 5}
spec:
  targetRefs: [{group: '', kind: Service, name: svc-b}]
  validation: {hostname: svc.example.com, wellKnownCACertificates: System}
status:
  ancestors:
  - ancestorRef: {name: gw}
    controllerName: example.com/gateway
    conditions:
    - {type: Accepted, status: 'False', reason: Invalid, observedGeneration: 4}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: welcome, namespace: app, generation: 1}
spec:
  targetRefs: [{group: '', kind: Service, name: svc-c}]
  validation: {hostname: svc.example.com, wellKnownCACertificates: System}
status:
  ancestors:
  - ancestorRef: {name: gw}
    controllerName: example.com/gateway
    conditions:
    - {type: Accepted, status: 'True', reason: Accepted, observedGeneration: 1}
";

fn run(args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, INPUT).unwrap();
    let out = kp()
        .args(["--color", "never", "-n", "app", "-f"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn get_shows_a_current_refusal_as_status() {
    let (code, out) = run(&["get"]);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn get_wide_shows_what_controllers_report() {
    let (_, out) = run(&["get", "-o", "wide"]);
    insta::assert_snapshot!(out);
}

#[test]
fn get_json_keeps_the_computed_and_the_reported_verdict() {
    let (_, out) = run(&["get", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let items = v["items"].as_array().unwrap();
    let pick = |name: &str| {
        let i = items
            .iter()
            .find(|i| i["metadata"]["name"] == name)
            .unwrap();
        (
            i["computed"]["status"].clone(),
            i["computed"]["reported"].clone(),
        )
    };
    assert_eq!(pick("refused"), ("Enforced".into(), "Invalid".into()));
    // Every report of an older generation: no word of the current one.
    assert_eq!(pick("stale"), ("Enforced".into(), serde_json::Value::Null));
    assert_eq!(pick("welcome"), ("Enforced".into(), "Accepted".into()));
}

#[test]
fn describe_prints_the_controllers_message_escaped_on_one_line() {
    let (_, out) = run(&["describe", "backendtlspolicy/refused"]);
    assert!(!out.contains('\u{1b}'), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("FAKE")), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn describe_json_says_what_status_shows() {
    let (_, out) = run(&["describe", "backendtlspolicy/refused", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"]["computed"], "Enforced");
    assert_eq!(v["status"]["shown"], "Invalid (reported)");
    assert_eq!(v["status"]["reported"][0]["observedGeneration"], 2);
    let (_, out) = run(&["describe", "backendtlspolicy/stale", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"]["reported"][0]["stale"], true);
    assert!(v["status"].get("shown").is_none(), "{v}");
}

#[test]
fn check_calls_a_current_refusal_an_error_and_leaves_a_stale_one_out() {
    let (code, out) = run(&["check"]);
    assert_eq!(code, Some(1), "{out}");
    let refused: Vec<&str> = out.lines().filter(|l| l.contains("Refused")).collect();
    assert_eq!(refused.len(), 1, "{out}");
    assert!(refused[0].contains("refused"), "{out}");
    assert!(!out.contains("stale"), "{out}");
}

#[test]
fn tree_shows_the_word_get_shows() {
    let (code, out) = run(&["tree"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("refused  Invalid (reported)"), "{out}");
    assert!(out.contains("stale  Enforced"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn describe_of_a_target_shows_the_word_get_shows() {
    let (_, out) = run(&["describe", "service/svc-a"]);
    assert!(out.contains("Invalid (reported)"), "{out}");
    insta::assert_snapshot!(out);
    let (_, out) = run(&["describe", "service/svc-b"]);
    assert!(
        !out.contains("(reported)"),
        "a stale refusal changes nothing: {out}"
    );
}

#[test]
fn describe_of_a_policy_as_a_tree_shows_the_word_get_shows() {
    let (_, out) = run(&["describe", "backendtlspolicy/refused", "-o", "tree"]);
    insta::assert_snapshot!(out);
    assert!(
        out.lines().next().unwrap().ends_with("Invalid (reported)"),
        "{out}"
    );
}

#[test]
fn target_json_keeps_the_computed_and_the_reported_verdict() {
    let (_, out) = run(&["describe", "service/svc-a", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["policies"][0]["status"], "Enforced");
    assert_eq!(v["policies"][0]["reported"], "Invalid");
    let (_, out) = run(&["tree", "-o", "json"]);
    assert!(out.contains("\"reported\": \"Invalid\""), "{out}");
    let (_, out) = run(&["describe", "service/svc-b", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["policies"][0].get("reported").is_none(), "{v}");
}
