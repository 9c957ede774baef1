//! A Conflicted policy, as `check` and `describe` say it: the reason is its kind's rule
//! for several on one target, not GEP-713's "the oldest wins" whatever the kind.

use crate::command::kp;

const GATEWAY: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
";

/// NGINX Gateway Fabric's ClientSettingsPolicy: a newer one setting a field an older one
/// sets loses.
const DISJOINT: &str = "---
apiVersion: gateway.nginx.org/v1alpha1
kind: ClientSettingsPolicy
metadata: {name: old, namespace: app, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  body: {maxSize: 10m}
---
apiVersion: gateway.nginx.org/v1alpha1
kind: ClientSettingsPolicy
metadata: {name: new, namespace: app, creationTimestamp: '2024-02-01T00:00:00Z'}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  body: {maxSize: 20m}
";

/// APISIX's HTTPRoutePolicy: priorities that differ make every one Conflicted.
const MISMATCH: &str = "---
apiVersion: apisix.apache.org/v1alpha1
kind: HTTPRoutePolicy
metadata: {name: first, namespace: app, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
  priority: 10
---
apiVersion: apisix.apache.org/v1alpha1
kind: HTTPRoutePolicy
metadata: {name: second, namespace: app, creationTimestamp: '2024-02-01T00:00:00Z'}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
  priority: 20
";

/// (exit code, stdout) of a run on `input`.
fn run(input: &str, args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, input).unwrap();
    let out = kp()
        .args(["--color", "never", "-f"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn a_policy_that_loses_by_its_kinds_rule_is_not_said_to_lose_to_the_oldest() {
    let input = [GATEWAY, DISJOINT].concat();
    let (code, out) = run(&input, &["check", "-A"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "loses to ClientSettingsPolicy app/old on Gateway app/gw: a later one setting a \
             field an older one sets is Conflicted"
        ),
        "{out}"
    );
    assert!(!out.contains("oldest"), "{out}");
    let (_, out) = run(
        &input,
        &["describe", "clientsettingspolicy/new", "-n", "app"],
    );
    assert!(out.contains("Status:       Conflicted (computed)"), "{out}");
    assert!(
        out.contains("              loses to ClientSettingsPolicy app/old\n"),
        "{out}"
    );
    assert!(
        out.contains("(a later one setting a field an older one sets is Conflicted)"),
        "{out}"
    );
    assert!(!out.contains("oldest"), "{out}");
}

#[test]
fn policies_that_disagree_are_said_to_conflict_with_each_other() {
    let input = [GATEWAY, MISMATCH].concat();
    let (code, out) = run(&input, &["check", "-A"]);
    assert_eq!(code, Some(1), "{out}");
    for (one, other) in [("first", "second"), ("second", "first")] {
        let object = format!("HTTPRoutePolicy/app/{one} ");
        let message = format!(
            "conflicts with HTTPRoutePolicy app/{other} on HTTPRoute app/web: they must \
             agree on a field and differ: all are Conflicted"
        );
        assert!(
            out.lines()
                .any(|l| l.contains(&object) && l.ends_with(&message)),
            "{out}"
        );
    }
    assert!(!out.contains("oldest"), "{out}");
}
