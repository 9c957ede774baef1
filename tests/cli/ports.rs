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
fn describe_says_which_pods_a_gke_selector_picks_and_that_none_was_read() {
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
        flat.contains("spec.targetRefs[0].selector (Pods labelled app=payments; no Pod of namespace app is in the input)"),
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

#[test]
fn describe_of_a_gke_pod_selector_lists_the_pods_it_picks_below_their_service() {
    let dir = tempfile::tempdir().unwrap();
    let service = "apiVersion: v1
kind: Service
metadata: {name: payments, namespace: app}
spec: {selector: {app: payments}, ports: [{name: http, port: 80}]}
";
    let pod = |name: &str, app: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: app, labels: {{app: {app}}}, annotations: {{note: big}}}}\nspec: {{containers: [{{name: c, image: {app}}}]}}\n"
        )
    };
    let policy = "apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: pods, namespace: app}
spec:
  targetRefs: [{kind: Pod, selector: {matchLabels: {app: payments}}}]
  mtlsMode: Strict
";
    let (pay_1, pay_2, batch) = (
        pod("pay-1", "payments"),
        pod("pay-2", "payments"),
        pod("batch-1", "batch"),
    );
    let file = write(dir.path(), &[service, &pay_1, &pay_2, &batch, policy]);
    let describe = |what: &str| run(&["-f", &file, "describe", what, "-n", "app"]).1;
    let out = describe("gcpservertlspolicy/pods");
    assert!(out.contains("Pod app/pay-1   resolved"), "{out}");
    assert!(out.contains("Pod app/pay-2   resolved"), "{out}");
    assert!(!out.contains("batch-1"), "{out}");
    assert!(out.contains("Enforced (computed)"), "{out}");
    assert!(out.contains("Affects 2 objects"), "{out}");
    // The Service's page says which of its Pods a policy picks.
    let out = describe("service/payments");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Children: Pod app/pay-1 (picked by GCPServerTLSPolicy app/pods), Pod app/pay-2 (picked by GCPServerTLSPolicy app/pods)"),
        "{out}"
    );
    let (_, out) = run(&["-f", &file, "get", "gcpservertlspolicy", "-n", "app"]);
    let row = out
        .lines()
        .find(|l| l.starts_with("pods"))
        .expect("its row");
    assert!(row.contains("Pod/pay-1,Pod/pay-2"), "{out}");
    assert!(row.contains("Enforced   2"), "{out}");
    let (_, out) = run(&[
        "-f",
        &file,
        "blast-radius",
        "gcpservertlspolicy/pods",
        "-n",
        "app",
    ]);
    assert!(out.contains("2 Pods in 1 namespace (app)"), "{out}");
    // Kept as name, namespace and labels: a dump writes no spec or annotation of them.
    let (_, out) = run(&["-f", &file, "dump"]);
    assert!(
        out.contains("pay-1") && !out.contains("note") && !out.contains("containers"),
        "{out}"
    );
}

/// `describe pod/NAME` and `tree pod/NAME` (`po`, `pods`): a Pod a policy picks is a node
/// like any other (its Service above it, the policies reaching it); one no policy picks
/// is said not to be part of the hierarchy, and one not in the input not found.
#[test]
fn describe_and_tree_of_a_pod_a_gke_selector_picks_or_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let pods = "apiVersion: v1
kind: Service
metadata: {name: svc-pods, namespace: app}
spec: {selector: {app: payments}, ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pay-1, namespace: app, labels: {app: payments}}
---
apiVersion: v1
kind: Pod
metadata: {name: batch-1, namespace: app, labels: {app: batch}}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: pods, namespace: app}
spec:
  targetRefs: [{kind: Pod, selector: {matchLabels: {app: payments}}}]
  mtlsMode: Strict
";
    let file = write(dir.path(), &[SERVICE, pods]);
    let ask = |args: &[&str]| {
        let out = kp()
            .args(["--color", "never", "-f", &file, "-n", "app"])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for word in ["pod/pay-1", "po/pay-1", "pods/pay-1"] {
        let (code, out, err) = ask(&["describe", word]);
        assert_eq!(code, Some(0), "{word}: {err}");
        assert!(out.contains("Kind:         Pod (core)"), "{out}");
        assert!(out.contains("Parents:      Service app/svc-pods"), "{out}");
        assert!(
            out.contains("GCPServerTLSPolicy   pods     attached here   Enforced"),
            "{out}"
        );
    }
    let (code, out, err) = ask(&["tree", "pod/pay-1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("Pod app/pay-1\n"), "{out}");
    assert!(
        out.contains("GCPServerTLSPolicy app/pods  Enforced"),
        "{out}"
    );
    for command in ["describe", "tree"] {
        let (code, _, err) = ask(&[command, "pod/batch-1"]);
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains("pod \"batch-1\" in namespace app is not part of the policy hierarchy: no policy picks it by label"),
            "{err}"
        );
        assert!(!err.contains("unknown resource type"), "{err}");
    }
    let (code, _, err) = ask(&["describe", "pod/nope"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("pods \"nope\" not found in namespace app (Pods are read only where a policy picks Pods by label"),
        "{err}"
    );
}

#[test]
fn effective_at_a_port_shows_only_that_ports_entry_of_a_spec_ports_list() {
    let dir = tempfile::tempdir().unwrap();
    let policy = "apiVersion: gateway.flomesh.io/v1alpha2
kind: HealthCheckPolicy
metadata: {name: hc, namespace: app}
spec:
  targetRefs: [{group: \"\", kind: Service, name: svc}]
  healthCheck: {interval: 10s, maxFails: 5}
  ports: [{port: 80, healthCheck: {interval: 1s, maxFails: 1}}, {port: 9090, healthCheck: {interval: 2s, maxFails: 2}}]
";
    let file = write(dir.path(), &[SERVICE, policy]);
    let (code, out) = run(&["-f", &file, "effective", "service/svc", "-n", "app"]);
    assert_eq!(code, Some(0), "{out}");
    let at_http = out
        .split("at port http of Service app/svc")
        .nth(1)
        .and_then(|rest| rest.split("at port admin").next())
        .unwrap_or_else(|| panic!("no port http section: {out}"));
    assert!(
        at_http.contains("ports: [{port: 80, healthCheck: {interval: 1s, maxFails: 1}}]"),
        "{out}"
    );
    assert!(!at_http.contains("9090"), "{out}");
    let at_admin = out
        .split("at port admin of Service app/svc")
        .nth(1)
        .unwrap_or_else(|| panic!("no port admin section: {out}"));
    assert!(
        at_admin.contains("ports: [{port: 9090, healthCheck: {interval: 2s, maxFails: 2}}]"),
        "{out}"
    );
    assert!(!at_admin.contains("port: 80"), "{out}");
    // The Service whole: the setting for every port, no port's entry.
    let whole = out.split("at port http").next().unwrap_or_default();
    assert!(whole.contains("interval: 10s"), "{out}");
    assert!(!whole.contains("ports:"), "{out}");
    // As JSON, the sections' effective specs hold the same.
    let (_, json) = run(&[
        "-f",
        &file,
        "effective",
        "service/svc",
        "-n",
        "app",
        "-o",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sections = doc["sections"].as_array().expect("sections");
    let spec_at = |name: &str| {
        sections
            .iter()
            .find(|s| s["sectionName"] == name)
            .map(|s| s["effective"][0]["spec"].clone())
            .unwrap_or_else(|| panic!("no section {name}: {json}"))
    };
    assert_eq!(
        spec_at("admin")["ports"],
        serde_json::json!([{"port": 9090, "healthCheck": {"interval": "2s", "maxFails": 2}}])
    );
    assert_eq!(spec_at("http")["ports"][0]["port"], 80);
    assert!(doc["effective"][0]["spec"].get("ports").is_none(), "{json}");
}
