//! Envoy Gateway's translator rules that turn on more than the policy itself: listeners
//! sharing a port, a GatewayClass merging its Gateways, a route's own SecurityPolicy on
//! a TCPRoute, a BackendTLSPolicy on a port of a Backend. Each modelled on a case of its
//! translator tests (internal/gatewayapi/testdata), with the status it writes.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::query::World;
use serde_json::json;

/// What policy `name`'s spec errors say, joined.
fn invalid(w: &World, name: &str) -> String {
    w.topology
        .policies()
        .iter()
        .filter(|p| p.obj_ref.name == name)
        .flat_map(|p| p.invalid.iter().map(ToString::to_string))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why policy `name` is refused whole, if it is.
fn refusal(w: &World, name: &str) -> Option<String> {
    w.topology
        .policies()
        .iter()
        .find(|p| p.obj_ref.name == name)
        .and_then(|p| p.rejected.clone())
}

/// A ClientTrafficPolicy `name` in namespace app, made on day `day`, aimed at
/// `target` (a targetRefs entry).
fn ctp(name: &str, day: u32, target: &str) -> String {
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-02-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{target}]\n  timeout: {{http: {{idleTimeout: 5s}}}}\n")
}

/// A Gateway with a plain HTTP listener on 80 and an HTTPS one on 443; a ListenerSet
/// adding plain HTTP on 80 (the Gateway's port) and on 8081; another adding plain
/// HTTP on 8082 only.
const LISTENER_SETS: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: app}
spec:
  gatewayClassName: eg
  allowedListeners: {namespaces: {from: Same}}
  listeners:
  - {name: web, port: 80, protocol: HTTP}
  - {name: secure, port: 443, protocol: HTTPS, hostname: a.example}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team-a, namespace: app}
spec:
  parentRef: {name: edge, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: plain, port: 80, protocol: HTTP, hostname: team-a.example}
  - {name: own-port, port: 8081, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team-b, namespace: app}
spec:
  parentRef: {name: edge, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: alone, port: 8082, protocol: HTTP}
"#;

const GATEWAY_EDGE: &str = "{group: gateway.networking.k8s.io, kind: Gateway, name: edge}";
const SET_A: &str = "{group: gateway.networking.k8s.io, kind: ListenerSet, name: team-a}";
const SET_B: &str = "{group: gateway.networking.k8s.io, kind: ListenerSet, name: team-b}";

#[test]
fn a_client_traffic_policy_on_a_whole_listener_set_sharing_an_http_port_is_refused() {
    // validatePortOverlapForClientTrafficPolicy with attachedToGateway: the plain HTTP
    // listeners on the port that came from another Gateway or ListenerSet conflict;
    // the status is Accepted=False, Invalid, "ClientTrafficPolicy is being applied to
    // multiple http (non https) listeners (...) on the same port, which is not allowed".
    let yaml = [
        LISTENER_SETS,
        &ctp("on-team-a", 1, SET_A),
        &ctp("on-team-b", 2, SET_B),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "on-team-a"), PolicyStatus::Invalid);
    assert_eq!(
        refusal(&w, "on-team-a").as_deref(),
        Some(
            "is aimed at listenerset.gateway.networking.k8s.io/app/team-a, whose plain HTTP \
             listener plain of ListenerSet app/team-a shares its port with listener web of \
             Gateway app/edge: one Envoy listener, which the settings would reach too; its \
             controller refuses the policy"
        )
    );
    // team-b's only listener has its port alone.
    assert_eq!(status(&w, "on-team-b"), PolicyStatus::Enforced);
    // Refused, it sets nothing anywhere: team-a's own port takes none of it.
    let kind = gk("gateway.envoyproxy.io", "ClientTrafficPolicy");
    let own_port = node(&w, "ListenerSet", Some("app"), "team-a", Some("own-port"));
    assert!(effective(&w, &kind, own_port)
        .iter()
        .all(|(_, s)| *s == json!({})));
}

#[test]
fn a_client_traffic_policy_on_a_whole_gateway_sharing_an_http_port_with_its_listener_set_is_refused(
) {
    let yaml = [LISTENER_SETS, &ctp("on-edge", 1, GATEWAY_EDGE)].concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "on-edge"), PolicyStatus::Invalid);
    let why = refusal(&w, "on-edge").unwrap_or_default();
    assert!(
        why.contains("whose plain HTTP listener web of Gateway app/edge shares its port with listener plain of ListenerSet app/team-a"),
        "{why}"
    );
    // Without the ListenerSet's listener on 80, the Gateway's listeners share with
    // nothing of another object: accepted.
    let alone = LISTENER_SETS.replace(
        "  - {name: plain, port: 80, protocol: HTTP, hostname: team-a.example}\n",
        "",
    );
    let w = world(&[alone.as_str(), &ctp("on-edge", 1, GATEWAY_EDGE)].concat());
    assert_eq!(status(&w, "on-edge"), PolicyStatus::Enforced);
}

#[test]
fn a_listener_with_a_client_traffic_policy_of_its_own_is_left_to_it() {
    // ProcessClientTrafficPolicies skips, for a policy on the whole Gateway, the
    // sections a policy already targets: only the section policy is validated there.
    let web = "{group: gateway.networking.k8s.io, kind: Gateway, name: edge, sectionName: web}";
    let yaml = [
        LISTENER_SETS,
        &ctp("on-web", 1, web),
        &ctp("on-edge", 2, GATEWAY_EDGE),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "on-web"), PolicyStatus::Invalid);
    assert_ne!(status(&w, "on-edge"), PolicyStatus::Invalid);
}

/// A GatewayClass eg whose parameters are EnvoyProxy envoy-gateway-system/merged,
/// with `mergeGateways` as given (None: the EnvoyProxy is not in the input), and two
/// Gateways of the class in app, each with a plain HTTP listener on 80.
fn merged_class(merge: Option<bool>) -> String {
    let mut yaml = String::from(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: merged, namespace: envoy-gateway-system}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw-1, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP, hostname: one.example}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw-2, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP, hostname: two.example}]
"#,
    );
    if let Some(merge) = merge {
        yaml.push_str(&format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyProxy\nmetadata: {{name: merged, namespace: envoy-gateway-system}}\nspec: {{mergeGateways: {merge}}}\n"));
    }
    yaml
}

/// An EnvoyPatchPolicy `name` in app aimed at `kind`/`target`.
fn epp(name: &str, kind: &str, target: &str) -> String {
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyPatchPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: {kind}, name: {target}}}\n  type: JSONPatch\n  jsonPatches:\n  - {{type: \"type.googleapis.com/envoy.config.listener.v3.Listener\", name: x, operation: {{op: add, path: /a, value: b}}}}\n")
}

#[test]
fn an_envoy_patch_policy_on_a_gateway_of_a_merging_class_is_refused() {
    // ProcessEnvoyPatchPolicies with t.MergeGateways takes only a GatewayClass target:
    // on a Gateway, Accepted=False, Invalid ("only ... TargetRef.Kind:GatewayClass is
    // supported").
    let yaml = [
        merged_class(Some(true)).as_str(),
        &epp("on-gateway", "Gateway", "gw-1"),
        &epp("on-class", "GatewayClass", "eg"),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "on-gateway"), PolicyStatus::Invalid);
    assert_eq!(
        refusal(&w, "on-gateway").as_deref(),
        Some(
            "is aimed at gateway.gateway.networking.k8s.io/app/gw-1, whose GatewayClass eg \
             merges its Gateways into one proxy (EnvoyProxy envoy-gateway-system/merged sets \
             it): its controller then takes only a GatewayClass target and refuses the policy \
             (Invalid); aim it at GatewayClass eg"
        )
    );
    assert_eq!(status(&w, "on-class"), PolicyStatus::Enforced);
    // Not merged, or the parameters not in the input (not checked): it stands.
    for merge in [Some(false), None] {
        let yaml = [
            merged_class(merge).as_str(),
            &epp("on-gateway", "Gateway", "gw-1"),
        ]
        .concat();
        assert_eq!(
            status(&world(&yaml), "on-gateway"),
            PolicyStatus::Enforced,
            "{merge:?}"
        );
    }
}

#[test]
fn only_the_class_parameters_merge_gateways() {
    // IsMergeGatewaysEnabled reads the GatewayClass's EnvoyProxy alone: one a Gateway
    // names in spec.infrastructure.parametersRef merges nothing.
    let yaml = merged_class(Some(false)).replace(
        "metadata: {name: gw-1, namespace: app}\nspec:\n",
        "metadata: {name: gw-1, namespace: app}\nspec:\n  infrastructure: {parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: own}}\n",
    ) + "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyProxy\nmetadata: {name: own, namespace: app}\nspec: {mergeGateways: true}\n";
    let w = world(&[yaml.as_str(), &epp("on-gateway", "Gateway", "gw-1")].concat());
    assert_eq!(status(&w, "on-gateway"), PolicyStatus::Enforced);
}

#[test]
fn merged_gateways_share_their_plain_http_ports() {
    // Merged, the class's Gateways are one xDS config: listenersWithSameHTTPPort finds
    // the other Gateway's listener on 80, which came from another Gateway.
    let gw1 = "{group: gateway.networking.k8s.io, kind: Gateway, name: gw-1}";
    let merged = [merged_class(Some(true)).as_str(), &ctp("on-gw-1", 1, gw1)].concat();
    let w = world(&merged);
    assert_eq!(status(&w, "on-gw-1"), PolicyStatus::Invalid);
    let why = refusal(&w, "on-gw-1").unwrap_or_default();
    assert!(why.contains("listener http of Gateway app/gw-2"), "{why}");
    let apart = [merged_class(Some(false)).as_str(), &ctp("on-gw-1", 1, gw1)].concat();
    assert_eq!(status(&world(&apart), "on-gw-1"), PolicyStatus::Enforced);
}

/// A Gateway with a TCP listener, a TCPRoute on it, a Gateway SecurityPolicy that
/// authorizes, and the TCPRoute's own SecurityPolicy with `route_spec`.
fn tcp_with_route_policy(route_spec: &str) -> String {
    let allowlist = "  authorization: {defaultAction: Deny, rules: [{action: Allow, principal: {clientCIDRs: [10.0.0.0/8]}}]}";
    tcp_with_policies(allowlist, route_spec)
}

/// A Gateway with a TCP listener, a TCPRoute on it, a Gateway SecurityPolicy with
/// `gateway_spec`, and the TCPRoute's own SecurityPolicy with `route_spec`.
fn tcp_with_policies(gateway_spec: &str, route_spec: &str) -> String {
    format!(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: app}}
spec:
  gatewayClassName: eg
  listeners: [{{name: tcp, port: 9000, protocol: TCP}}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {{name: db, namespace: app}}
spec:
  parentRefs: [{{name: gw, sectionName: tcp}}]
  rules: [{{backendRefs: [{{name: db, port: 5432}}]}}]
---
apiVersion: v1
kind: Service
metadata: {{name: db, namespace: app}}
spec: {{ports: [{{port: 5432}}]}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {{name: gateway-allowlist, namespace: app, creationTimestamp: "2026-03-01T00:00:00Z"}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]
{gateway_spec}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {{name: route-own, namespace: app, creationTimestamp: "2026-03-02T00:00:00Z"}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: TCPRoute, name: db}}]
{route_spec}
"#
    )
}

#[test]
fn a_tcp_routes_own_security_policy_overrides_the_gateway_one_there() {
    // processSecurityPolicyForRoute records the TCPRoute under the Gateway's scope; the
    // Gateway policy's status: Overridden=True, "This policy is being overridden by
    // other securityPolicies for these routes: [...]". Its translator skips the
    // TCPRoute's routes whose authorization the route policy set.
    let yaml = tcp_with_route_policy("  authorization: {defaultAction: Allow}");
    let w = world(&yaml);
    assert_eq!(status(&w, "gateway-allowlist"), PolicyStatus::Overridden);
    assert_eq!(status(&w, "route-own"), PolicyStatus::Enforced);
    let kind = gk("gateway.envoyproxy.io", "SecurityPolicy");
    let db = node(&w, "TCPRoute", Some("app"), "db", None);
    assert_eq!(
        effective(&w, &kind, db)[0].1,
        json!({"authorization": {"defaultAction": "Allow"}})
    );
}

#[test]
fn a_tcp_routes_security_policy_refused_there_leaves_the_gateway_one_in_force() {
    // A route policy with an HTTP-only setting fails validateSecurityPolicyForTCP and is
    // never translated: the TCPRoute keeps the Gateway policy's authorization (the
    // Gateway translation fills each TCP route whose authorization is unset). Envoy
    // Gateway's status still says Overridden=True there (it records the route before
    // validating it); the tool says what the proxy does, and the controller's word is
    // shown as reported.
    let jwt = "  jwt: {providers: [{name: p, remoteJWKS: {uri: \"https://idp.example/jwks\"}}]}";
    let w = world(&tcp_with_route_policy(jwt));
    assert_eq!(status(&w, "route-own"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "gateway-allowlist"), PolicyStatus::Enforced);
}

#[test]
fn a_tcp_routes_security_policy_merged_with_an_http_only_parent_is_refused_there() {
    // With mergeType, processSecurityPolicyForRoute merges the route policy into the
    // closest parent policy (mergeSecurityPolicy) and validates the result again:
    // the Gateway policy's basicAuth fails validateSecurityPolicyForTCP, the route
    // policy reads Accepted=False there and is not translated.
    let basic = "  basicAuth: {users: {name: htpasswd}}";
    let merged = "  mergeType: StrategicMerge\n  authorization: {defaultAction: Deny, rules: [{action: Allow, principal: {clientCIDRs: [10.0.0.0/8]}}]}";
    let w = world(&tcp_with_policies(basic, merged));
    assert_eq!(status(&w, "route-own"), PolicyStatus::Invalid);
    // Refused, it replaces nothing (as without mergeType, above): the Gateway policy
    // keeps its reading. Envoy Gateway's status says Overridden=True there, for it
    // records the route under the Gateway's scope before validating.
    assert_eq!(status(&w, "gateway-allowlist"), PolicyStatus::Enforced);
    let why = invalid(&w, "route-own");
    assert!(
        why.contains("merged into SecurityPolicy app/gateway-allowlist, which sets basicAuth"),
        "{why}"
    );
    let kind = gk("gateway.envoyproxy.io", "SecurityPolicy");
    let db = node(&w, "TCPRoute", Some("app"), "db", None);
    let at_db = effective(&w, &kind, db);
    assert!(
        at_db
            .iter()
            .all(|(_, spec)| spec.get("authorization").is_none()),
        "{at_db:?}"
    );
    // The same route policy without mergeType stands alone: nothing of the parent's
    // is merged into it, and authorization alone passes the check.
    let alone = merged.replace("  mergeType: StrategicMerge\n", "");
    let w = world(&tcp_with_policies(basic, &alone));
    assert_eq!(status(&w, "route-own"), PolicyStatus::Enforced);
    // Merged into a parent that only authorizes, it passes too.
    let w = world(&tcp_with_policies(
        "  authorization: {defaultAction: Allow}",
        merged,
    ));
    assert_eq!(status(&w, "route-own"), PolicyStatus::Enforced);
}

/// A route in edge sending to two Envoy Gateway Backends in `default` by backendRefs
/// that name no port (a Backend needs none), and one that names port 8443 of a third;
/// a BackendTLSPolicy on the whole of the first, and on port 8443 of the second and
/// of the third.
const BACKENDS: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: edge}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: edge}
spec:
  parentRefs: [{name: gw, sectionName: http}]
  rules:
  - backendRefs:
    - {group: gateway.envoyproxy.io, kind: Backend, name: whole, namespace: default}
    - {group: gateway.envoyproxy.io, kind: Backend, name: unnamed-port, namespace: default}
    - {group: gateway.envoyproxy.io, kind: Backend, name: named-port, namespace: default, port: 8443}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: routes-from-edge, namespace: default}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: edge}]
  to: [{group: gateway.envoyproxy.io, kind: Backend}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: whole, namespace: default}
spec: {endpoints: [{ip: {address: 10.0.0.1, port: 8443}}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: unnamed-port, namespace: default}
spec: {endpoints: [{ip: {address: 10.0.0.2, port: 8443}}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: named-port, namespace: default}
spec: {endpoints: [{ip: {address: 10.0.0.3, port: 8443}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls-whole, namespace: default}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: whole}]
  validation: {hostname: whole.example, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls-unnamed-port, namespace: default}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: unnamed-port, sectionName: "8443"}]
  validation: {hostname: unnamed.example, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls-named-port, namespace: default}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: named-port, sectionName: "8443"}]
  validation: {hostname: named.example, wellKnownCACertificates: System}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: idp, namespace: default}
spec: {endpoints: [{fqdn: {hostname: idp.default, port: 8443}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls-idp, namespace: default}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: idp, sectionName: "8443"}]
  validation: {hostname: idp.example, wellKnownCACertificates: System}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: login, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  oidc:
    provider:
      backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: idp, port: 8443}]
      issuer: https://idp.example
    clientID: app
    clientSecret: {name: app-secret}
"#;

#[test]
fn a_backend_tls_policy_on_a_backend_port_no_backend_ref_names_gets_no_status() {
    // getBackendTLSPolicy matches the policy's sectionName against the port of the
    // backendRef being translated; its status is written only then. The policy on port
    // 8443 of a Backend reached by a backendRef naming no port: no TLS, no ancestors.
    let w = world(BACKENDS);
    let why: Vec<(String, String)> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.code == kubectl_policies::topology::Code::SectionNotReached)
        .map(|f| (f.object.name.to_string(), f.message.clone()))
        .collect();
    assert_eq!(
        why,
        [(
            "tls-unnamed-port".to_string(),
            "names port 8443 of Backend default/unnamed-port, which no route's backendRef \
             names: its controller matches the sectionName against the port of the backendRef \
             it translates (a backendRef naming no port does not match), so the policy applies \
             to no traffic there and gets no status"
                .to_string()
        )]
    );
    // Attached to nothing there: it reaches no object, as Envoy Gateway writes it no
    // status.
    assert_eq!(status(&w, "tls-unnamed-port"), PolicyStatus::TargetNotFound);
    // The others are accepted: by the route's backendRef naming the port, or by a
    // policy's own backendRef (an OIDC provider's: its ext-service clusters take the
    // BackendTLSPolicy too), which the tool does not model and so never says unreached.
    assert_eq!(status(&w, "tls-idp"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "tls-whole"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "tls-named-port"), PolicyStatus::Enforced);
}
