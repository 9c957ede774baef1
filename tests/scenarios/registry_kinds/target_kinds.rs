//! A reference to a kind its kind may not target (issue 28): where the vendor's CRD
//! refuses it (the registry's `other_target_kinds`), that target is Invalid with a
//! finding naming the field, the kind and the kinds allowed, and so is the policy
//! whole: a CRD's validation rule fails the API request, so the object is never
//! stored and none of its targets stands. Where the vendor accepts other kinds,
//! nothing is refused.

use super::{s, statuses};
use crate::common::*;
use kubectl_policies::effective::PolicyStatus::{Enforced, Invalid};
use kubectl_policies::topology::{Code, Finding, PolicyId, Resolution};

const GATEWAY_AND_ROUTE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app, labels: {team: web}}
spec: {parentRefs: [{name: gw}], rules: [{name: main, backendRefs: [{name: svc, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app, labels: {team: web}}
spec: {ports: [{name: http, port: 80}]}
"#;

fn invalid_findings(w: &kubectl_policies::query::World) -> Vec<&Finding> {
    w.topology
        .findings()
        .iter()
        .filter(|f| f.code == Code::Invalid)
        .collect()
}

/// How each target of policy `name` resolved: the target's kind, `!` before it when it
/// did not resolve, with the code.
fn resolutions(w: &kubectl_policies::query::World, name: &str) -> Vec<String> {
    let p = PolicyId::all(w.topology.policies().len())
        .find(|&p| w.topology.policy(p).obj_ref.name == name)
        .expect("policy");
    w.topology
        .targets_of(p)
        .iter()
        .map(|t| match &t.resolution {
            Resolution::NotFound(code) => format!("!{} {code:?}", t.target.kind),
            Resolution::Node(_) | Resolution::Namespace(_) => t.target.kind.to_string(),
        })
        .collect()
}

#[test]
fn a_target_of_a_kind_the_crd_refuses_makes_the_whole_policy_invalid() {
    // Envoy Gateway's ClientTrafficPolicy: CEL allows Gateway (and ListenerSet) only.
    let policy = r#"---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: ctp, namespace: app}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}
  timeout: {http: {idleTimeout: 5s}}
"#;
    let w = world(&[GATEWAY_AND_ROUTE, policy].concat());
    assert_eq!(resolutions(&w, "ctp"), ["Gateway", "!HTTPRoute Invalid"]);
    // The API server would refuse the object (its CEL rule fails the request): not in
    // effect on the Gateway either.
    assert_eq!(statuses(&w), [s("app/ctp", Invalid)]);
    let kind = gk("gateway.envoyproxy.io", "ClientTrafficPolicy");
    let gateway = node(&w, "Gateway", Some("app"), "gw", None);
    assert!(effective(&w, &kind, gateway).is_empty());
    for attached_to in [gateway, node(&w, "HTTPRoute", Some("app"), "web", None)] {
        assert!(!w.topology.attached_to(attached_to).iter().any(|&p| w
            .topology
            .policy(p)
            .obj_ref
            .name
            == "ctp"));
    }
    let findings = invalid_findings(&w);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(
        findings[0].message,
        "spec.targetRefs[1].kind: names HTTPRoute, a kind it cannot target (its CRD allows \
         Gateway, ListenerSet): the API server refuses the policy whole (kubectl apply fails)"
    );
    assert_eq!(findings[0].object.name, "ctp");
}

#[test]
fn a_policy_whose_only_target_is_refused_is_invalid() {
    // Kuadrant's TelemetryPolicy: CEL `self.kind == 'Gateway'` on its one targetRef.
    let policy = r#"---
apiVersion: extensions.kuadrant.io/v1alpha1
kind: TelemetryPolicy
metadata: {name: telemetry, namespace: app}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}
  metrics: {default: {labels: {user: auth.identity.userid}}}
"#;
    let w = world(&[GATEWAY_AND_ROUTE, policy].concat());
    assert_eq!(resolutions(&w, "telemetry"), ["!HTTPRoute Invalid"]);
    assert_eq!(statuses(&w), [s("app/telemetry", Invalid)]);
    let findings = invalid_findings(&w);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0]
            .message
            .starts_with("spec.targetRef.kind: names HTTPRoute, a kind it cannot target (its CRD allows Gateway)"),
        "{}",
        findings[0].message
    );
}

#[test]
fn a_selector_of_a_refused_kind_selects_nothing_and_the_policy_is_refused() {
    // kgateway's TrafficPolicy: the same CEL on targetRefs and targetSelectors.
    let policy = r#"---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: app}
spec:
  targetSelectors:
  - {group: "", kind: Service, matchLabels: {team: web}}
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, matchLabels: {team: web}}
  timeouts: {request: 10s}
"#;
    let w = world(&[GATEWAY_AND_ROUTE, policy].concat());
    assert_eq!(resolutions(&w, "tp"), ["HTTPRoute"]);
    // Refused whole, as a targetRef of that kind is.
    assert_eq!(statuses(&w), [s("app/tp", Invalid)]);
    let findings = invalid_findings(&w);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0]
        .message
        .starts_with("spec.targetSelectors[0].kind: names Service, a kind it cannot target (its CRD allows Gateway, HTTPRoute, GRPCRoute, ListenerSet)"));
    // Nothing says the Service selector matched nothing: it was refused, not empty.
    assert!(!w
        .topology
        .findings()
        .iter()
        .any(|f| f.code == Code::SelectorMatchesNothing));
}

#[test]
fn the_experimental_listener_set_counts_as_a_listener_set() {
    let listener_set = r#"---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: extra, namespace: app}
spec: {parentRef: {name: gw}, listeners: [{name: extra, port: 8080, protocol: HTTP}]}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.x-k8s.io, kind: XListenerSet, name: extra}]
  timeouts: {request: 10s}
"#;
    let w = world(&[GATEWAY_AND_ROUTE, listener_set].concat());
    assert!(
        invalid_findings(&w).is_empty(),
        "{:?}",
        invalid_findings(&w)
    );
    assert_eq!(resolutions(&w, "tp"), ["XListenerSet"]);
}

#[test]
fn a_kind_whose_vendor_accepts_other_targets_refuses_none() {
    // Gateway API's BackendTLSPolicy: Service is core, other kinds are
    // implementation-specific, so a reference to another kind is not refused here.
    let policy = r#"---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
  validation: {hostname: svc.example, wellKnownCACertificates: System}
"#;
    let w = world(&[GATEWAY_AND_ROUTE, policy].concat());
    assert!(
        invalid_findings(&w).is_empty(),
        "{:?}",
        invalid_findings(&w)
    );
    assert_eq!(resolutions(&w, "tls"), ["HTTPRoute"]);
}

#[test]
fn agentgateway_refuses_a_section_on_a_kind_its_crd_does_not_allow_it_on() {
    // Its CRD's CEL: `frontend` targets a Gateway only, `traffic` no Service; `backend`
    // may target a Service. The API server refuses the object whole.
    let policy = |name: &str, target: &str, section: &str| {
        format!("---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{target}]\n  {section}\n")
    };
    let route = "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}";
    let service = "{group: \"\", kind: Service, name: svc}";
    let yaml = [
        GATEWAY_AND_ROUTE.to_string(),
        policy(
            "frontend-route",
            route,
            "frontend: {http: {maxBufferSize: 100}}",
        ),
        policy("traffic-route", route, "traffic: {timeouts: {request: 5s}}"),
        policy(
            "traffic-service",
            service,
            "traffic: {timeouts: {request: 5s}}",
        ),
        policy(
            "backend-service",
            service,
            "backend: {tcp: {connectTimeout: 5s}}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(
        statuses(&w),
        [
            s("app/backend-service", Enforced),
            s("app/frontend-route", Invalid),
            s("app/traffic-route", Enforced),
            s("app/traffic-service", Invalid),
        ]
    );
    let findings = invalid_findings(&w);
    assert_eq!(findings.len(), 2, "{findings:?}");
    assert!(findings[0]
        .message
        .starts_with("spec.frontend: is set and the policy targets"));
    assert!(findings[1]
        .message
        .starts_with("spec.traffic: is set and the policy targets"));
    assert!(
        findings[0].message.ends_with(
            "its CRD accepts no frontend on a HTTPRoute: the API server refuses the policy \
             whole (kubectl apply fails)"
        ),
        "{findings:?}"
    );
    // Beside a Gateway it may take: still refused whole (its CRD, not its controller),
    // the Gateway included.
    let gateway = "{group: gateway.networking.k8s.io, kind: Gateway, name: gw}";
    let both = policy(
        "frontend-both",
        &format!("{gateway}, {route}"),
        "frontend: {http: {maxBufferSize: 100}}",
    );
    let w = world(&[GATEWAY_AND_ROUTE, &both].concat());
    assert_eq!(statuses(&w), [s("app/frontend-both", Invalid)]);
    assert!(w
        .topology
        .policy(kubectl_policies::topology::PolicyId(0))
        .rejected
        .is_some());
    let policy = w.topology.policy(kubectl_policies::topology::PolicyId(0));
    assert!(policy
        .rare
        .as_ref()
        .is_none_or(|rare| rare.refused_targets.is_empty()));
}

#[test]
fn agentgateway_refuses_a_port_without_frontend_and_a_listener_for_whole_gateway_frontend_fields() {
    // Its CRD (v1.4.1): `port` only on a frontend policy; a `sectionName` with frontend
    // tcp/tls/http/... refused, with accessLog/metrics/tracing accepted. The API server
    // refuses the object whole.
    let policy = |name: &str, target: &str, section: &str| {
        format!("---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{target}]\n  {section}\n")
    };
    let gateway = "{group: gateway.networking.k8s.io, kind: Gateway, name: gw";
    let yaml = [
        GATEWAY_AND_ROUTE.to_string(),
        policy(
            "port-frontend",
            &format!("{gateway}, port: 80}}"),
            "frontend: {tcp: {keepalive: {time: 10s}}}",
        ),
        policy(
            "port-traffic",
            &format!("{gateway}, port: 80}}"),
            "traffic: {timeouts: {request: 5s}}",
        ),
        policy(
            "listener-access-log",
            &format!("{gateway}, sectionName: http}}"),
            "frontend: {accessLog: {filter: 'true'}}",
        ),
        policy(
            "listener-tcp",
            &format!("{gateway}, sectionName: http}}"),
            "frontend: {accessLog: {filter: 'true'}, tcp: {keepalive: {time: 10s}}}",
        ),
        policy(
            "listener-traffic",
            &format!("{gateway}, sectionName: http}}"),
            "traffic: {timeouts: {request: 5s}}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(
        statuses(&w),
        [
            s("app/listener-access-log", Enforced),
            s("app/listener-tcp", Invalid),
            s("app/listener-traffic", Enforced),
            s("app/port-frontend", Enforced),
            s("app/port-traffic", Invalid),
        ]
    );
    let messages: Vec<&str> = invalid_findings(&w)
        .iter()
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages.iter().any(|m| m.starts_with(
            "spec.targetRefs[0].sectionName: is set and the policy sets spec.frontend.tcp:"
        )),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m
            .starts_with("spec.targetRefs[0].port: is set but the policy sets no spec.frontend:")),
        "{messages:?}"
    );
}

#[test]
fn kgateways_transitional_agentgateway_policy_refuses_any_frontend_with_a_listener() {
    // kgateway 2.1's CRD (gateway.kgateway.dev): its CEL takes `frontend` on a Gateway
    // with no sectionName, whatever frontend field is set (agentgateway's v1.4.1 lets
    // accessLog name a listener).
    let policy = |group: &str| {
        format!("---\napiVersion: {group}/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: {group}, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}}]\n  frontend: {{accessLog: {{filter: 'true'}}}}\n")
    };
    let yaml = [
        GATEWAY_AND_ROUTE.to_string(),
        policy("agentgateway.dev"),
        policy("gateway.kgateway.dev"),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(
        statuses(&w),
        [
            s("app/agentgateway.dev", Enforced),
            s("app/gateway.kgateway.dev", Invalid),
        ]
    );
    let findings = invalid_findings(&w);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0]
        .message
        .starts_with("spec.targetRefs[0].sectionName: is set and the policy sets spec.frontend:"));
}
