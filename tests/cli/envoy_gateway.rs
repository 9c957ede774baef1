//! Envoy Gateway's precedence as `describe` says it: a policy replaced whole by a more
//! specific one, and ClientTrafficPolicy's merge line.

use crate::command::kp;

const INPUT: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: gateway-wide, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: route-a, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}]
  retry: {numRetries: 3}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: clients, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeout: {http: {idleTimeout: 5s}}
";

/// stdout of a successful run on `INPUT`, without colours.
fn describe(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, INPUT).unwrap();
    let out = kp()
        .args(["--color", "never", "describe", "-n", "app", "-f"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn describe_says_a_policy_that_sets_nothing_is_replaced_whole_on_a_route() {
    let page = describe(&["backendtrafficpolicy/gateway-wide"]);
    assert!(
        page.contains("Status:       PartiallyEnforced (computed)"),
        "{page}"
    );
    assert!(
        page.contains("  (the whole policy)  loses to BackendTrafficPolicy app/route-a\n    at HTTPRoute app/a, rule main of HTTPRoute app/a\n"),
        "{page}"
    );
    let json: serde_json::Value = serde_json::from_str(&describe(&[
        "backendtrafficpolicy/gateway-wide",
        "-o",
        "json",
    ]))
    .unwrap();
    let on_route_a = json["affects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["target"]["name"] == "a" && a["target"]["sectionName"].is_null())
        .unwrap();
    assert_eq!(on_route_a["status"], "Overridden");
    assert_eq!(on_route_a["overridden"][0]["path"], "");
    assert_eq!(on_route_a["overridden"][0]["by"]["name"], "route-a");
}

#[test]
fn describe_of_a_client_traffic_policy_names_no_merge_type() {
    let page = describe(&["clienttrafficpolicy/clients"]);
    let line = page
        .lines()
        .find(|l| l.starts_with("Kind merges:"))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(line.contains("most specific policy wins whole"), "{line}");
    assert!(!page.contains("mergeType"), "{page}");
}

/// stdout of `effective ARGS` on `INPUT`, without colours.
fn effective(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, INPUT).unwrap();
    let out = kp()
        .args(["--color", "never", "effective", "-n", "app", "-f"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn effective_names_the_policy_that_sets_nothing_where_it_is_all_there_is() {
    // On route b only the empty Gateway-wide policy applies: the page says whose the
    // empty spec is rather than an unexplained `{}`.
    let page = effective(&["httproute/b"]);
    assert!(
        page.contains("      {}  # gateway-wide, from Gateway/gw\n"),
        "{page}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&effective(&["httproute/b", "-o", "json"])).unwrap();
    let traffic = json["effective"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["policyKind"]["kind"] == "BackendTrafficPolicy")
        .unwrap();
    assert_eq!(traffic["sources"][0]["path"], "");
    assert_eq!(traffic["sources"][0]["policy"]["name"], "gateway-wide");
}

/// A TCP listener and a TCPRoute on it; the Gateway's SecurityPolicy sets basicAuth,
/// the route's asks to be merged into it and sets authorization only.
const MERGED_TCP: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: eg, listeners: [{name: tcp, port: 9000, protocol: TCP}]}
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: db, namespace: app}
spec: {parentRefs: [{name: gw, sectionName: tcp}], rules: [{backendRefs: [{name: db, port: 5432}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: app}
spec: {ports: [{port: 5432}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: gateway-basic, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  basicAuth: {users: {name: htpasswd}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: route-allowlist, namespace: app}
spec:
  mergeType: StrategicMerge
  targetRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: db}]
  authorization: {defaultAction: Deny, rules: [{action: Allow, principal: {clientCIDRs: [10.0.0.0/8]}}]}
";

#[test]
fn blast_radius_of_a_parent_that_refuses_a_merged_tcp_route_policy_shows_it_restored() {
    // Merged with the Gateway's basicAuth, the route's policy fails Envoy Gateway's
    // TCP check: deleting the Gateway's policy lets the route's authorization apply.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, MERGED_TCP).unwrap();
    let out = kp()
        .args(["blast-radius", "-n", "app", "-o", "json", "-f"])
        .arg(&path)
        .arg("securitypolicy/gateway-basic")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let at_db = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["name"] == "db" && c["target"]["sectionName"].is_null())
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(at_db["after"]["authorization"]["defaultAction"], "Deny");
}
