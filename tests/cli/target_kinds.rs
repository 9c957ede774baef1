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

/// (exit code, stdout) of a run on `input`.
fn run_on(input: &str, args: &[&str]) -> (Option<i32>, String) {
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

/// The STATUS and AFFECTS of `get -A`'s row for policy `name`.
fn status_and_affects(input: &str, name: &str) -> (String, String) {
    let (code, out) = run_on(input, &["get", "-A"]);
    assert_eq!(code, Some(0), "{out}");
    let row: Vec<&str> = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(row.len(), 8, "{out}");
    (row[5].to_string(), row[6].to_string())
}

const KONG: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: kong, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: v1
kind: Service
metadata: {name: a, namespace: app, annotations: {konghq.com/upstream-policy: sticky}}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: b, namespace: app}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: c, namespace: app, annotations: {konghq.com/upstream-policy: sticky}}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: configuration.konghq.com/v1beta1
kind: KongUpstreamPolicy
metadata: {name: sticky, namespace: app}
spec: {algorithm: sticky-sessions}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec:
  parentRefs: [{name: gw}]
  rules:
  - {name: split, backendRefs: [{name: a, port: 80}, {name: b, port: 80}]}
  - {name: solo, backendRefs: [{name: c, port: 80}]}
";

#[test]
fn a_kong_upstream_policy_refused_on_one_service_holds_on_the_others() {
    // Rule split sends to a (names sticky) and b (names none): Kong sets sticky
    // Conflicted on a; c, alone in its rule, takes it.
    assert_eq!(
        status_and_affects(KONG, "sticky"),
        ("PartiallyEnforced".to_string(), "1".to_string())
    );
    let (code, out) = run_on(
        KONG,
        &["describe", "kongupstreampolicy/sticky", "-n", "app"],
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("Targets:\n  Service app/a   Conflicted\n  Service app/c   resolved\n"),
        "{out}"
    );
    assert!(
        out.contains("Status:       PartiallyEnforced (computed)"),
        "{out}"
    );
    assert!(out.contains("Affects 1 object (2 with sections):"), "{out}");
    assert!(
        out.contains("  Service   app/c   -         Enforced"),
        "{out}"
    );
    assert!(!out.contains("  Service   app/a   "), "{out}");
    // Once c is sent to with b as well, it is refused everywhere: Conflicted.
    let everywhere = KONG.replace(
        "{name: solo, backendRefs: [{name: c, port: 80}]}",
        "{name: solo, backendRefs: [{name: c, port: 80}, {name: b, port: 80}]}",
    );
    assert_eq!(
        status_and_affects(&everywhere, "sticky"),
        ("Conflicted".to_string(), "0".to_string())
    );
}

const SECURITY: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners:
  - {name: http, port: 80, protocol: HTTP}
  - {name: tcp, port: 9000, protocol: TCP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec: {parentRefs: [{name: gw, sectionName: http}], rules: [{name: main}]}
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: db, namespace: app}
spec: {parentRefs: [{name: gw, sectionName: tcp}], rules: [{name: main}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: auth, namespace: app}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}
  - {group: gateway.networking.k8s.io, kind: TCPRoute, name: db}
  jwt: {providers: [{name: idp, remoteJWKS: {uri: \"https://idp.example/jwks\"}}]}
";

#[test]
fn a_security_policy_with_jwt_is_refused_on_its_tcp_route_and_holds_on_its_http_route() {
    assert_eq!(
        status_and_affects(SECURITY, "auth"),
        ("PartiallyEnforced".to_string(), "1".to_string())
    );
    let (code, out) = run_on(SECURITY, &["describe", "securitypolicy/auth", "-n", "app"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("Targets:\n  HTTPRoute app/web   resolved\n  TCPRoute app/db   Invalid\n"),
        "{out}"
    );
    assert!(
        out.contains("Status:       PartiallyEnforced (computed)"),
        "{out}"
    );
    assert!(
        out.contains("  HTTPRoute   app/web   -         Enforced"),
        "{out}"
    );
    assert!(!out.contains("TCPRoute    app/db"), "{out}");
    let (code, out) = run_on(SECURITY, &["check", "-A"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "spec.jwt: is set and the policy targets TCPRoute app/db: its controller accepts no \
             jwt on a TCPRoute: the policy is refused on that TCPRoute and stands on its other \
             targets"
        ),
        "{out}"
    );
    // Authorization alone is what a TCPRoute takes: Enforced on both.
    let authz = SECURITY.replace(
        "jwt: {providers: [{name: idp, remoteJWKS: {uri: \"https://idp.example/jwks\"}}]}",
        "authorization: {defaultAction: Deny}",
    );
    assert_eq!(
        status_and_affects(&authz, "auth"),
        ("Enforced".to_string(), "2".to_string())
    );
}
