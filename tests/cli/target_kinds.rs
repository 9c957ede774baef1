//! A target of a kind its policy kind may not target, as `check` and `describe` say it.

use crate::command::kp;

const INPUT: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: ctp, namespace: app}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}
  timeout: {http: {idleTimeout: 5s}}
";

/// (exit code, stdout) of a run on `INPUT`.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, INPUT).unwrap();
    let out = kp()
        .args(["--color", "never", "-f"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn check_fails_on_a_target_kind_the_crd_refuses_and_every_command_calls_the_policy_invalid() {
    let (code, out) = run(&["check", "-A"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "spec.targetRefs[1].kind: names HTTPRoute, a kind it cannot target (its CRD allows \
             Gateway, ListenerSet): the API server refuses the policy whole (kubectl apply fails)"
        ),
        "{out}"
    );
    let (code, out) = run(&["describe", "ctp/ctp", "-n", "app"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("HTTPRoute app/web   Invalid"), "{out}");
    // The API server would not store it: in effect nowhere, the Gateway included.
    assert!(out.contains("Status:       Invalid"), "{out}");
    assert!(out.contains("Affects:      nothing"), "{out}");
    let (code, out) = run(&["get", "-A"]);
    assert_eq!(code, Some(0), "{out}");
    let row = out
        .lines()
        .find(|l| l.contains(" ctp "))
        .unwrap_or_default();
    assert!(row.contains("Invalid"), "{out}");
    assert!(row.split_whitespace().nth(6) == Some("0"), "{out}");
}

#[test]
fn tree_says_no_service_names_a_kong_upstream_policy_rather_than_workloads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(
        &path,
        "apiVersion: configuration.konghq.com/v1beta1
kind: KongUpstreamPolicy
metadata: {name: orphan, namespace: app}
spec: {algorithm: round-robin}
",
    )
    .unwrap();
    let out = kp()
        .args(["--color", "never", "-f"])
        .arg(&path)
        .args(["tree", "-A"])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    // It is attached from a Service's side: none names it (no workloads involved).
    assert!(
        out.starts_with(
            "Service app/(no konghq.com/upstream-policy annotation names it)  TargetNotFound\n"
        ),
        "{out}"
    );
}
