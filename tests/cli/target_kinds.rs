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
fn check_fails_on_a_target_kind_the_crd_refuses_and_describe_marks_that_target() {
    let (code, out) = run(&["check", "-A"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "spec.targetRefs[1].kind: names HTTPRoute, a kind it cannot target (its CRD allows \
             Gateway, ListenerSet): that target is refused, the policy's others stand"
        ),
        "{out}"
    );
    let (code, out) = run(&["describe", "ctp/ctp", "-n", "app"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Gateway app/gw   resolved"), "{out}");
    assert!(out.contains("HTTPRoute app/web   Invalid"), "{out}");
    // Still in effect on the Gateway it may target.
    assert!(out.contains("Status:       Enforced"), "{out}");
}
