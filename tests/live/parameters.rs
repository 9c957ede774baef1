//! The GatewayClass parameters a verdict turns on (Envoy Gateway's EnvoyProxy with
//! `mergeGateways`) read live, where a GatewayClass or a Gateway names them only; a
//! 403 on them a blind spot that leaves the verdict as computed.

use super::{only_gets, User};
use crate::fake_apiserver::{Access, FakeApi};

/// A GatewayClass whose parameters (envoy-gateway-system/merged) merge its Gateways, a
/// Gateway naming its own EnvoyProxy (app/own), an EnvoyPatchPolicy aimed at that
/// Gateway (refused while the class merges), and an EnvoyProxy nobody names in `other`.
const CLUSTER: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: merged, namespace: envoy-gateway-system}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  infrastructure: {parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: own}}
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: merged, namespace: envoy-gateway-system}
spec: {mergeGateways: true}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: own, namespace: app}
spec: {}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: unrelated, namespace: other}
spec: {mergeGateways: true}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyPatchPolicy
metadata: {name: patch, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  type: JSONPatch
  jsonPatches:
  - {type: "type.googleapis.com/envoy.config.listener.v3.Listener", name: x, operation: {op: add, path: /a, value: b}}
"#;

/// The STATUS of the policy row `patch` in `get`'s table.
fn status(table: &str) -> String {
    let line = table
        .lines()
        .find(|l| l.starts_with("patch "))
        .unwrap_or_else(|| panic!("no row: {table}"));
    line.split_whitespace().nth(4).unwrap().to_string()
}

#[test]
fn the_envoy_proxy_a_class_names_is_read_live_and_decides_as_from_files() {
    let server = FakeApi::from_yaml(CLUSTER).start();
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    let live = user.ok(&["get"]);
    assert_eq!(status(&live), "Invalid", "{live}");
    let path = user.home.path().join("cluster.yaml");
    std::fs::write(&path, CLUSTER).unwrap();
    let offline = user.ok(&["-f", path.to_str().unwrap(), "get", "-n", "app"]);
    assert_eq!(live, offline);
    // (The loopback server names the plural `envoyproxys`.)
    let targets = server.targets();
    for wanted in [
        "/apis/gateway.envoyproxy.io/v1alpha1/namespaces/envoy-gateway-system/envoyprox",
        "/apis/gateway.envoyproxy.io/v1alpha1/namespaces/app/envoyprox",
    ] {
        assert!(
            targets.iter().any(|t| t.starts_with(wanted)),
            "{wanted}: {targets:#?}"
        );
    }
    // Scoped: no list of every EnvoyProxy, none where nothing names one.
    assert!(
        !targets.iter().any(
            |t| t.starts_with("/apis/gateway.envoyproxy.io/v1alpha1/envoyprox")
                || t.contains("/namespaces/other/envoyprox")
        ),
        "{targets:#?}"
    );
    // Cluster-wide too, the EnvoyProxies are read where they are named only.
    let all = user.ok(&["get", "-A"]);
    let row = all
        .lines()
        .find(|l| l.starts_with("app "))
        .unwrap_or_default();
    assert_eq!(row.split_whitespace().nth(5), Some("Invalid"), "{all}");
    only_gets(&server);
}

#[test]
fn a_403_on_envoy_proxies_is_a_blind_spot_and_the_verdict_stands() {
    let server = FakeApi::from_yaml(CLUSTER)
        .permit(|a: &Access| !a.resource.starts_with("envoyprox"))
        .start();
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    let (code, out, err) = user.run(&["get"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(status(&out), "Enforced", "{out}");
    assert!(err.contains("envoyprox"), "{err}");
    only_gets(&server);
}
