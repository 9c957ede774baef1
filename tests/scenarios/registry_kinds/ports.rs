//! Targets narrowed to ports by number (issue 28, item 3): `targetRefs[].ports` (Azure
//! BackendLoadBalancingPolicy) and a spec's `ports[].port` (Flomesh HealthCheckPolicy,
//! Azure BackendTLSPolicy's `default.ports`) name Service ports, `targetRefs[].port` (agentgateway) a Gateway's listeners on that
//! port. A policy reaches only those; a port there is not is a SectionNotFound finding.

use super::{s, statuses};
use crate::common::*;
use kubectl_policies::effective::PolicyStatus::{
    self, Enforced, Invalid, PartiallyEnforced, SectionNotFound,
};
use kubectl_policies::topology::{Code, PolicyId, Resolution};

/// A Service with a named port, another named one and an unnamed one, behind a route.
const SERVICE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
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
spec: {ports: [{name: http, port: 80}, {name: admin, port: 9090}, {port: 8443}]}
"#;

/// The nodes each target of policy `name` resolved to (section names), or `!` for one
/// that did not resolve.
fn reached(w: &kubectl_policies::query::World, name: &str) -> Vec<String> {
    let p = PolicyId::all(w.topology.policies().len())
        .find(|&p| w.topology.policy(p).obj_ref.name == name)
        .expect("policy");
    w.topology
        .targets_of(p)
        .iter()
        .map(|t| match &t.resolution {
            Resolution::Node(n) => {
                let node = w.topology.node(*n);
                node.obj_ref
                    .section
                    .as_deref()
                    .unwrap_or("(whole)")
                    .to_string()
            }
            _ => format!("!{}", t.target.section.as_deref().unwrap_or_default()),
        })
        .collect()
}

#[test]
fn a_ports_list_on_a_target_ref_reaches_just_those_ports() {
    let policy = "---\napiVersion: alb.networking.azure.io/v1\nkind: BackendLoadBalancingPolicy\nmetadata: {name: lb, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc, ports: [{port: 9090}, {port: 8443}]}]\n  loadBalancing: {strategy: RoundRobin}\n";
    let w = world(&[SERVICE, policy].concat());
    // By number: 9090 is the port named admin, 8443 the unnamed one.
    assert_eq!(reached(&w, "lb"), ["admin", "8443"]);
    assert_eq!(statuses(&w), [s("app/lb", Enforced)]);
    let kind = gk("alb.networking.azure.io", "BackendLoadBalancingPolicy");
    let http = node(&w, "Service", Some("app"), "svc", Some("http"));
    let admin = node(&w, "Service", Some("app"), "svc", Some("admin"));
    assert!(effective(&w, &kind, http).is_empty());
    assert_eq!(effective(&w, &kind, admin).len(), 1);
    // The Service as a whole is not its target.
    let whole = node(&w, "Service", Some("app"), "svc", None);
    assert!(w.topology.attached_to(whole).is_empty());
}

#[test]
fn a_port_the_service_does_not_have_is_a_finding() {
    let policy = "---\napiVersion: alb.networking.azure.io/v1\nkind: BackendLoadBalancingPolicy\nmetadata: {name: lb, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc, ports: [{port: 80}, {port: 7000}]}]\n  loadBalancing: {strategy: RoundRobin}\n";
    let w = world(&[SERVICE, policy].concat());
    assert_eq!(reached(&w, "lb"), ["http", "!7000"]);
    let finding = w
        .topology
        .findings()
        .iter()
        .find(|f| f.code == Code::SectionNotFound)
        .expect("a SectionNotFound finding");
    assert!(
        finding.message.contains("Service app/svc has no port 7000"),
        "{}",
        finding.message
    );
    // Only missing ports: the policy is SectionNotFound, as with a missing sectionName.
    let only_missing = policy.replace("[{port: 80}, {port: 7000}]", "[{port: 7000}]");
    let w = world(&[SERVICE, &only_missing].concat());
    assert_eq!(statuses(&w), [s("app/lb", SectionNotFound)]);
}

/// A Gateway with two listeners on port 80 and one on 443.
const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, port: 80, protocol: HTTP}
  - {name: http-alt, port: 80, protocol: HTTP, hostname: alt.example}
  - {name: https, port: 443, protocol: HTTPS}
"#;

fn agentgateway(target: &str) -> String {
    format!("---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: agw, namespace: app}}\nspec:\n  targetRefs: [{target}]\n  frontend: {{tcp: {{keepalive: {{retries: 3}}}}}}\n")
}

#[test]
fn an_agentgateway_port_scopes_a_gateway_policy_to_the_listeners_on_it() {
    // agentgateway: `port` "scopes the policy to a single listener port on the Gateway".
    let policy =
        agentgateway("{group: gateway.networking.k8s.io, kind: Gateway, name: gw, port: 80}");
    let w = world(&[GATEWAY, &policy].concat());
    assert_eq!(reached(&w, "agw"), ["http", "http-alt"]);
    assert_eq!(statuses(&w), [s("app/agw", Enforced)]);
    let kind = gk("agentgateway.dev", "AgentgatewayPolicy");
    let https = node(&w, "Gateway", Some("app"), "gw", Some("https"));
    assert!(effective(&w, &kind, https).is_empty());
    // A port no listener is on is a finding.
    let w = world(&[GATEWAY, &policy.replace("port: 80}", "port: 81}")].concat());
    assert_eq!(reached(&w, "agw"), ["!81"]);
    assert_eq!(statuses(&w), [s("app/agw", SectionNotFound)]);
    assert!(w.topology.findings().iter().any(|f| f
        .message
        .contains("Gateway app/gw has no listener on port 81")));
}

#[test]
fn an_agentgateway_port_on_a_service_makes_the_policy_invalid_whole() {
    // Its CRD: "Only valid on frontend policies targeting a Gateway".
    let policy = "---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {name: agw, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc, port: 9090}]\n  backend: {tcp: {connectTimeout: 5s}}\n";
    let w = world(&[SERVICE, policy].concat());
    let invalid = &w.topology.policy(PolicyId::at(0)).invalid;
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0].field, "spec.targetRefs[0].port");
    // The CRD refuses the object: the API server stores nothing, so it is Invalid whole
    // and attached nowhere (not to the Service the reference names).
    assert_eq!(statuses(&w), [s("app/agw", Invalid)]);
    assert!((0..w.topology.nodes().len()).all(|i| w
        .topology
        .attached_to(kubectl_policies::topology::NodeId(i as u32))
        .is_empty()));
    // A sectionName names a Service's port by its name, as before.
    let by_name = policy.replace("port: 9090", "sectionName: http");
    let w = world(&[SERVICE, &by_name].concat());
    assert_eq!(reached(&w, "agw"), ["http"]);
}

#[test]
fn a_ports_list_in_the_spec_reaches_those_ports_of_every_target() {
    // Flomesh HealthCheckPolicy: ports[].port; healthCheck covers every port.
    let policy = "---\napiVersion: gateway.flomesh.io/v1alpha2\nkind: HealthCheckPolicy\nmetadata: {name: hc, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc}]\n  ports: [{port: 80, healthCheck: {interval: 5s, maxFails: 3}}]\n";
    let w = world(&[SERVICE, policy].concat());
    assert_eq!(reached(&w, "hc"), ["http"]);
    let with_default = policy.replace(
        "  ports:",
        "  healthCheck: {interval: 10s, maxFails: 5}\n  ports:",
    );
    assert_ne!(with_default, policy);
    let w = world(&[SERVICE, &with_default].concat());
    assert_eq!(reached(&w, "hc"), ["http", "(whole)"]);
}

#[test]
fn azures_backend_tls_policy_reaches_the_ports_its_default_lists() {
    // Azure's BackendTLSPolicy: `default.ports: [{port: 443}]`, a single targetRef.
    let policy = "---\napiVersion: alb.networking.azure.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: tls, namespace: app}\nspec:\n  targetRef: {group: \"\", kind: Service, name: svc, namespace: app}\n  default: {sni: backend.example, ports: [{port: 8443}, {port: 7000}]}\n";
    let w = world(&[SERVICE, policy].concat());
    assert_eq!(reached(&w, "tls"), ["8443", "!7000"]);
    // No ports listed: the whole Service.
    let whole = policy.replace(", ports: [{port: 8443}, {port: 7000}]", "");
    assert_ne!(whole, policy);
    let w = world(&[SERVICE, &whole].concat());
    assert_eq!(reached(&w, "tls"), ["(whole)"]);
}

#[test]
fn a_bad_port_number_is_invalid_and_named_by_its_field() {
    let policy = "---\napiVersion: alb.networking.azure.io/v1\nkind: BackendLoadBalancingPolicy\nmetadata: {name: lb, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc, ports: [{port: 80}, {port: http}, {port: 70000}, 443]}]\n";
    let w = world(&[SERVICE, policy].concat());
    assert_eq!(reached(&w, "lb"), ["http"]);
    let invalid: Vec<&str> = w
        .topology
        .policy(PolicyId::at(0))
        .invalid
        .iter()
        .map(|error| error.field.as_str())
        .collect();
    assert_eq!(
        invalid,
        [
            "spec.targetRefs[0].ports[1].port",
            "spec.targetRefs[0].ports[2].port",
            "spec.targetRefs[0].ports[3].port"
        ]
    );
}

/// An AgentgatewayPolicy named `name`, created on day `day`, on `target`, setting
/// `frontend.accessLog.filter` to `response.code == {code}` (accessLog, one of the
/// frontend fields its CRD lets name a listener).
fn agentgateway_at(name: &str, day: u32, target: &str, code: u32) -> String {
    format!("---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{target}]\n  frontend: {{accessLog: {{filter: \"response.code == {code}\"}}}}\n")
}

#[test]
fn an_agentgateway_listener_policy_wins_over_a_port_policy_which_wins_over_the_gateway() {
    // agentgateway's frontend precedence: Gateway < Port < Listener (PR #2363; the
    // website's target-merge page). Oldest first here, so age alone would decide the
    // other way round.
    let gateway = agentgateway_at(
        "on-gateway",
        1,
        "{group: gateway.networking.k8s.io, kind: Gateway, name: gw}",
        1,
    );
    let port = agentgateway_at(
        "on-port",
        2,
        "{group: gateway.networking.k8s.io, kind: Gateway, name: gw, port: 80}",
        2,
    );
    let listener = agentgateway_at(
        "on-listener",
        3,
        "{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}",
        3,
    );
    let kind = gk("agentgateway.dev", "AgentgatewayPolicy");
    let code = |w: &kubectl_policies::query::World, listener: &str| {
        let at = node(w, "Gateway", Some("app"), "gw", Some(listener));
        let eff = effective(w, &kind, at);
        assert_eq!(eff.len(), 1, "{eff:?}");
        let filter = eff[0].1["frontend"]["accessLog"]["filter"].clone();
        let filter = filter.as_str().unwrap_or_default().to_string();
        filter.trim_start_matches("response.code == ").to_string()
    };
    let w = world(&[GATEWAY, &gateway, &port, &listener].concat());
    // The listener's own policy, then the port's, then the Gateway's.
    assert_eq!(code(&w, "http"), "3");
    assert_eq!(code(&w, "http-alt"), "2");
    assert_eq!(code(&w, "https"), "1");
    assert_eq!(
        statuses(&w),
        [
            s("app/on-gateway", PartiallyEnforced),
            s("app/on-listener", Enforced),
            s("app/on-port", PartiallyEnforced),
        ]
    );
    // Without the listener's, the port's holds on both listeners of port 80.
    let w = world(&[GATEWAY, &gateway, &port].concat());
    assert_eq!(code(&w, "http"), "2");
    assert_eq!(statuses(&w)[1], s("app/on-port", Enforced));
    // A policy that names a listener and reaches it by its port too is the listener's.
    let both = agentgateway_at(
        "both",
        2,
        "{group: gateway.networking.k8s.io, kind: Gateway, name: gw, port: 80}, {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}",
        4,
    );
    let w = world(&[GATEWAY, &both, &listener].concat());
    // Both on the listener's level there: the oldest wins the field.
    assert_eq!(code(&w, "http"), "4");
    assert_eq!(code(&w, "http-alt"), "4");
}

#[test]
fn a_spec_ports_list_shows_at_each_port_only_that_ports_entry() {
    // Flomesh HealthCheckPolicy: `ports[]` per port, `healthCheck` for every port
    // (the registry's SpecPorts { lists: ["/ports"], whole: "/healthCheck" }).
    let policy = "---\napiVersion: gateway.flomesh.io/v1alpha2\nkind: HealthCheckPolicy\nmetadata: {name: hc, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc}]\n  healthCheck: {interval: 10s, maxFails: 5}\n  ports: [{port: 80, healthCheck: {interval: 1s, maxFails: 1}}, {port: 9090, healthCheck: {interval: 2s, maxFails: 2}}]\n";
    let w = world(&[SERVICE, policy].concat());
    let kind = gk("gateway.flomesh.io", "HealthCheckPolicy");
    let at = |section: Option<&str>| {
        let eff = effective(&w, &kind, node(&w, "Service", Some("app"), "svc", section));
        assert_eq!(eff.len(), 1, "{section:?}: {eff:?}");
        eff[0].1.clone()
    };
    let http = at(Some("http"));
    assert_eq!(http["ports"].as_array().map(Vec::len), Some(1), "{http}");
    assert_eq!(http["ports"][0]["port"], 80);
    assert_eq!(http["ports"][0]["healthCheck"]["interval"], "1s");
    // The settings for every port stay beside the port's own.
    assert_eq!(http["healthCheck"]["interval"], "10s");
    let admin = at(Some("admin"));
    assert_eq!(admin["ports"].as_array().map(Vec::len), Some(1), "{admin}");
    assert_eq!(admin["ports"][0]["port"], 9090);
    // The Service whole: the settings for every port, no port's entry.
    let whole = at(None);
    assert!(whole.get("ports").is_none(), "{whole}");
    assert_eq!(whole["healthCheck"]["interval"], "10s");
    // What it sets at each place is all there: Enforced everywhere, not partly
    // (its whole spec's count is not what a port or the Service can hold).
    let p = PolicyId::at(0);
    let affects: Vec<(Option<String>, PolicyStatus)> =
        kubectl_policies::query::describe_policy(&w, p)
            .affects
            .iter()
            .map(|a| (a.target.section.as_deref().map(str::to_string), a.status))
            .collect();
    assert_eq!(
        affects,
        [
            (None, Enforced),
            (Some("8443".to_string()), Enforced),
            (Some("admin".to_string()), Enforced),
            (Some("http".to_string()), Enforced),
        ]
    );
}

#[test]
fn azures_default_ports_show_at_each_port_only_that_ports_entry() {
    // Azure BackendTLSPolicy: `default.ports` in its default stanza, no setting for
    // every port (`whole: None`); the stanza's other settings apply at each port listed.
    let policy = "---\napiVersion: alb.networking.azure.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: tls, namespace: app}\nspec:\n  targetRef: {group: \"\", kind: Service, name: svc, namespace: app}\n  default: {sni: backend.example, ports: [{port: 8443}, {port: 9090}]}\n";
    let w = world(&[SERVICE, policy].concat());
    let kind = gk("alb.networking.azure.io", "BackendTLSPolicy");
    let at = |section: &str| {
        let eff = effective(
            &w,
            &kind,
            node(&w, "Service", Some("app"), "svc", Some(section)),
        );
        assert_eq!(eff.len(), 1, "{section}: {eff:?}");
        eff[0].1.clone()
    };
    let admin = at("admin");
    assert_eq!(admin["default"]["sni"], "backend.example", "{admin}");
    assert_eq!(
        admin["default"]["ports"],
        serde_json::json!([{"port": 9090}])
    );
    let unnamed = at("8443");
    assert_eq!(
        unnamed["default"]["ports"],
        serde_json::json!([{"port": 8443}])
    );
}
