//! Policies narrowed to ports by number (`targetRefs[].ports`; agentgateway's `port`, a
//! Gateway's listeners on it), and the GKE selectors inside targetRefs, as `describe` and `check` say them.

use crate::command::kp;
use std::path::Path;

const SERVICE: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main, backendRefs: [{name: svc, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app}
spec: {ports: [{name: http, port: 80}, {name: admin, port: 9090}]}
";

fn write(dir: &Path, docs: &[&str]) -> String {
    let path = dir.join("input.yaml");
    std::fs::write(&path, docs.join("---\n")).unwrap();
    path.display().to_string()
}

/// (exit code, stdout) of a run.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = kp().args(["--color", "never"]).args(args).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn describe_says_which_ports_a_ports_list_reaches_and_check_the_missing_one() {
    let dir = tempfile::tempdir().unwrap();
    let policy = "apiVersion: alb.networking.azure.io/v1
kind: BackendLoadBalancingPolicy
metadata: {name: lb, namespace: app}
spec:
  targetRefs: [{group: \"\", kind: Service, name: svc, ports: [{port: 9090}, {port: 7000}]}]
  loadBalancing: {strategy: RoundRobin}
";
    let file = write(dir.path(), &[SERVICE, policy]);
    let (_, out) = run(&[
        "-f",
        &file,
        "describe",
        "backendloadbalancingpolicy/lb",
        "-n",
        "app",
    ]);
    assert!(
        out.contains("port 9090 of Service app/svc   resolved"),
        "{out}"
    );
    assert!(
        out.contains("port 7000 of Service app/svc   SectionNotFound"),
        "{out}"
    );
    // It affects the port named admin (9090), not the Service's other port.
    let affects = &out[out.find("Affects").expect("an Affects list")..];
    assert!(affects.contains("admin"), "{out}");
    assert!(!affects.contains(" http "), "{out}");
    let (code, out) = run(&["-f", &file, "check", "-A"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("Service app/svc has no port 7000"), "{out}");
}

#[test]
fn describe_says_which_listeners_an_agentgateway_port_reaches() {
    let dir = tempfile::tempdir().unwrap();
    let gateway = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, port: 80, protocol: HTTP}
  - {name: https, port: 443, protocol: HTTPS}
";
    let policy = "apiVersion: agentgateway.dev/v1alpha1
kind: AgentgatewayPolicy
metadata: {name: agw, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, port: 443}]
  frontend: {tcp: {keepalive: {retries: 3}}}
";
    let file = write(dir.path(), &[gateway, policy]);
    let (_, out) = run(&[
        "-f",
        &file,
        "describe",
        "agentgatewaypolicy/agw",
        "-n",
        "app",
    ]);
    assert!(
        out.contains("listener https of Gateway app/gw   resolved"),
        "{out}"
    );
    let affects = &out[out.find("Affects").expect("an Affects list")..];
    assert!(affects.contains("https"), "{out}");
    assert!(!affects.contains(" http "), "{out}");
}

#[test]
fn effective_says_each_port_a_policy_on_several_ports_is_on() {
    let dir = tempfile::tempdir().unwrap();
    let policy = "apiVersion: alb.networking.azure.io/v1
kind: BackendLoadBalancingPolicy
metadata: {name: lb, namespace: app}
spec:
  targetRefs: [{group: \"\", kind: Service, name: svc, ports: [{port: 80}, {port: 9090}]}]
  loadBalancing: {strategy: RoundRobin}
";
    let file = write(dir.path(), &[SERVICE, policy]);
    let (_, out) = run(&["-f", &file, "effective", "service/svc", "-n", "app"]);
    // One block per port, each setting beside the port it is on there.
    for port in ["http", "admin"] {
        let block = &out[out
            .find(&format!("at port {port} of Service app/svc"))
            .unwrap_or_else(|| panic!("a block for port {port}: {out}"))..];
        let setting = block.lines().find(|l| l.contains("strategy:")).unwrap();
        assert!(
            setting.ends_with(&format!("# lb, on port {port}")),
            "{port}: {out}"
        );
    }
    // describe's table says both.
    let (_, out) = run(&["-f", &file, "describe", "service/svc", "-n", "app"]);
    let row = out.lines().find(|l| l.contains(" lb ")).unwrap_or_default();
    assert!(row.contains("on ports http, admin"), "{out}");
}

#[test]
fn tree_names_the_gateway_that_has_no_listener_on_a_port() {
    let dir = tempfile::tempdir().unwrap();
    let policy = "apiVersion: agentgateway.dev/v1alpha1
kind: AgentgatewayPolicy
metadata: {name: agw, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, port: 9}]
  frontend: {tcp: {keepalive: {retries: 3}}}
";
    let file = write(dir.path(), &[SERVICE, policy]);
    let (_, out) = run(&["-f", &file, "tree", "-A"]);
    // Drawn apart, at the top: the line names the Gateway, not a bare `listener 9`.
    assert!(
        out.lines()
            .any(|l| l == "listener 9 of Gateway app/gw  SectionNotFound"),
        "{out}"
    );
}

#[test]
fn describe_says_which_pods_a_gke_selector_picks_and_that_they_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let pods = "apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: pods, namespace: app}
spec:
  targetRefs: [{kind: Pod, selector: {matchLabels: {app: payments}}}]
  mtlsMode: Strict
";
    let namespace = "apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: whole, namespace: app}
spec:
  targetRefs: [{kind: Namespace, selector: {}}]
  mtlsMode: Permissive
";
    let file = write(dir.path(), &[SERVICE, pods, namespace]);
    let (_, out) = run(&[
        "-f",
        &file,
        "describe",
        "gcpservertlspolicy/pods",
        "-n",
        "app",
    ]);
    assert!(out.contains("SelectorBound (computed)"), "{out}");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("spec.targetRefs[0].selector (Pods labelled app=payments; this tool does not read Pods)"),
        "{out}"
    );
    let (_, out) = run(&[
        "-f",
        &file,
        "describe",
        "gcpservertlspolicy/whole",
        "-n",
        "app",
    ]);
    assert!(out.contains("Namespace app   resolved"), "{out}");
    assert!(out.contains("Enforced (computed)"), "{out}");
}
