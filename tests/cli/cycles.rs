//! References that lead round in a cycle, and policies that target policies, as a user
//! meets them: every command answers (exit 0, or 1 where `check` finds an error),
//! never a crash, and `check` and `describe` name the cycle. (The stages on the same
//! shapes: `scenarios/cycles.rs`.)

use crate::command::kp;
use std::time::Duration;

const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}, {name: tcp, port: 9000, protocol: TCP}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: default}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1alpha3
kind: BackendTLSPolicy
metadata: {name: tls, namespace: default}
spec:
  targetRefs: [{group: "", kind: Service, name: svc}]
  validation: {hostname: svc.example, wellKnownCACertificates: System}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: timeouts, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeout: {http: {requestTimeout: 5s}}
"#;

const SELF_BACKEND: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: loop, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: GRPCRoute, name: loop}]
"#;

const MUTUAL_PARENTS: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: a, namespace: default}
spec:
  parentRefs: [{name: gw}, {group: gateway.networking.k8s.io, kind: TCPRoute, name: b}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: b, namespace: default}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: a}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
"#;

const DELEGATION: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: b}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b, namespace: default}
spec:
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}, {name: svc, port: 80}]
"#;

const LONGER_CYCLE: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: ra, namespace: default}
spec:
  parentRefs: [{name: gw, sectionName: tcp}, {group: gateway.networking.k8s.io, kind: TCPRoute, name: rc}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: rb, namespace: default}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: ra}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: rc, namespace: default}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: rb}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
"#;

const POLICY_ON_POLICY: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha3
kind: BackendTLSPolicy
metadata: {name: on-tls, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: BackendTLSPolicy, name: tls}]
  validation: {hostname: svc.example, wellKnownCACertificates: System}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: me, namespace: default}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: BackendTrafficPolicy, name: me}]
  timeout: {http: {requestTimeout: 1s}}
"#;

/// Runs `args` on `yaml`: exit 0 or 1, no crash; stdout and stderr.
fn run(dir: &std::path::Path, yaml: &str, args: &[&str]) -> (i32, String) {
    let file = dir.join("input.yaml");
    std::fs::write(&file, yaml).unwrap();
    let out = kp()
        .arg("-f")
        .arg(&file)
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let code = out.status.code();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        code == Some(0) || code == Some(1),
        "{args:?} exited {code:?}: {err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("overflow"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &err;
    (code.unwrap_or_default(), text)
}

/// Every command of the tool on `yaml`; `objects` are `kind/name` in namespace
/// default, each described and asked for its effective policies.
fn every_command(yaml: &str, objects: &[&str], policies: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.yaml");
    let input = input.to_str().unwrap();
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["dump", "-A", "-o", "yaml"],
        vec!["blast-radius", "--apply", input],
        vec!["get", "-A"],
        vec!["get", "-A", "-o", "json"],
        vec!["get", "kinds", "-o", "json"],
        vec!["check", "-A"],
        vec!["check", "-A", "-o", "json"],
        vec!["tree", "-A"],
        vec!["tree", "-A", "-o", "json"],
        vec!["graph"],
        vec!["graph", "-o", "mermaid"],
    ];
    for o in objects.iter().chain(policies) {
        commands.push(vec!["describe", o, "-n", "default"]);
        commands.push(vec!["describe", o, "-n", "default", "-o", "json"]);
        commands.push(vec!["describe", o, "-n", "default", "-o", "tree"]);
        commands.push(vec!["graph", o, "-n", "default"]);
    }
    for o in objects {
        commands.push(vec!["effective", o, "-n", "default"]);
        commands.push(vec!["tree", o, "-n", "default"]);
    }
    for p in policies {
        commands.push(vec!["blast-radius", p, "-n", "default"]);
        commands.push(vec!["blast-radius", p, "-n", "default", "-o", "json"]);
    }
    for args in commands {
        run(dir.path(), yaml, &args);
    }
    dir
}

const POLICIES: &[&str] = &["backendtlspolicy/tls", "backendtrafficpolicy/timeouts"];

/// `check` exits 1 and lists `code` with `says`; `describe` of each of `on` says it too.
fn told(yaml: &str, code: &str, says: &str, on: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let (exit, out) = run(dir.path(), yaml, &["check", "-A"]);
    assert_eq!(exit, 1, "{out}");
    assert!(out.contains(code) && out.contains(says), "{out}");
    for o in on {
        let (_, out) = run(dir.path(), yaml, &["describe", o, "-n", "default"]);
        // The page wraps findings at a word (100 columns): read it as one line.
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        let says = says.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(code) && flat.contains(&says), "{o}: {out}");
    }
}

#[test]
fn a_grpcroute_whose_backend_is_itself_crashes_no_command() {
    let yaml = [GATEWAY, SELF_BACKEND].concat();
    every_command(&yaml, &["grpcroute/loop", "service/svc"], POLICIES);
    told(
        &yaml,
        "Cycle",
        "GRPCRoute default/loop → GRPCRoute default/loop#rule-1 → GRPCRoute default/loop",
        &["grpcroute/loop"],
    );
}

#[test]
fn tcproutes_that_name_each_other_as_parents_crash_no_command() {
    let yaml = [GATEWAY, MUTUAL_PARENTS].concat();
    every_command(
        &yaml,
        &["tcproute/a", "tcproute/b", "service/svc"],
        POLICIES,
    );
    told(
        &yaml,
        "Cycle",
        "TCPRoute default/a → TCPRoute default/b → TCPRoute default/a",
        &["tcproute/a", "tcproute/b"],
    );
}

#[test]
fn a_longer_cycle_of_tcproutes_crashes_no_command_and_is_named_in_order() {
    let yaml = [GATEWAY, LONGER_CYCLE].concat();
    let objects = ["tcproute/ra", "tcproute/rb", "tcproute/rc", "service/svc"];
    every_command(&yaml, &objects, POLICIES);
    told(
        &yaml,
        "Cycle",
        "TCPRoute default/ra → TCPRoute default/rb → TCPRoute default/rc → TCPRoute default/ra",
        &objects[..3],
    );
}

#[test]
fn an_httproute_delegation_cycle_crashes_no_command_and_is_named() {
    let yaml = [GATEWAY, DELEGATION].concat();
    every_command(
        &yaml,
        &["httproute/a", "httproute/b", "service/svc"],
        POLICIES,
    );
    told(
        &yaml,
        "Cycle",
        "delegating to HTTPRoute default/a would close a cycle (HTTPRoute default/a → \
         HTTPRoute default/a#rule-1 → HTTPRoute default/b → HTTPRoute default/b#rule-1 → \
         HTTPRoute default/a)",
        &["httproute/b"],
    );
}

#[test]
fn a_policy_that_targets_a_policy_is_told_by_check_and_describe() {
    let yaml = [GATEWAY, POLICY_ON_POLICY].concat();
    let mut policies = POLICIES.to_vec();
    policies.extend(["backendtlspolicy/on-tls", "backendtrafficpolicy/me"]);
    every_command(&yaml, &["service/svc"], &policies);
    told(
        &yaml,
        "TargetIsPolicy",
        "its target is BackendTLSPolicy default/tls, a policy",
        &["backendtlspolicy/on-tls"],
    );
    told(
        &yaml,
        "TargetIsPolicy",
        "its target is the policy itself",
        &["backendtrafficpolicy/me"],
    );
}
