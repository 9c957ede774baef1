//! What a policy depends on besides its targets (its kind's `references`): resolved as
//! a route's backendRefs are, refused as its vendor refuses, and unchecked where the
//! input does not say what exists.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::model::BlindReason;
use kubectl_policies::query::{Rebuildable, World};
use kubectl_policies::topology::{Code, RefReason, Severity};

const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: v1
kind: Service
metadata: {name: auth, namespace: app}
spec: {ports: [{name: http, port: 8080}]}
"#;

/// A SecurityPolicy on the Gateway whose ext-auth backendRef is `backend_ref`.
fn ext_auth(backend_ref: &str) -> String {
    format!(
        "{GATEWAY}---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {{name: sp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  extAuth: {{http: {{backendRef: {backend_ref}}}}}\n"
    )
}

fn codes(w: &World, name: &str) -> Vec<(Code, Severity)> {
    w.topology
        .findings()
        .iter()
        .filter(|f| f.object.name == name)
        .map(|f| (f.code, f.severity))
        .collect()
}

fn unchecked(w: &World) -> Vec<String> {
    w.topology
        .snapshot()
        .blind_spots
        .iter()
        .filter(|b| b.reason == BlindReason::Unchecked)
        .map(|b| b.message.clone())
        .collect()
}

const POINTER: &str = "/spec/extAuth/http/backendRef";

#[test]
fn an_ext_auth_service_that_exists_with_its_port_resolves() {
    let w = world(&ext_auth("{name: auth, port: 8080}"));
    assert_eq!(references(&w, "sp"), one(POINTER, None));
    assert_eq!(status(&w, "sp"), PolicyStatus::Enforced);
    assert!(unchecked(&w).is_empty());
}

#[test]
fn a_missing_ext_auth_service_makes_the_policy_invalid() {
    let w = world(&ext_auth("{name: gone, port: 8080}"));
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::NotFound))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "sp"), vec![(Code::Invalid, Severity::Error)]);
    let finding = &w
        .topology
        .findings()
        .iter()
        .find(|f| f.object.name == "sp")
        .unwrap()
        .message;
    assert!(
        finding.contains(POINTER)
            && finding.contains("service/app/gone#8080")
            && finding.contains("NotFound"),
        "{finding}"
    );
}

#[test]
fn a_port_the_service_lacks_makes_the_policy_invalid() {
    let w = world(&ext_auth("{name: auth, port: 9999}"));
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::PortNotFound))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
}

const OTHER_NAMESPACE: &str = r#"
---
apiVersion: v1
kind: Service
metadata: {name: auth, namespace: shared}
spec: {ports: [{port: 9000}]}
"#;

const GRANT: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: sp-to-auth, namespace: shared}
spec:
  from: [{group: gateway.envoyproxy.io, kind: SecurityPolicy, namespace: app}]
  to: [{group: "", kind: Service}]
"#;

// Built without the oracles of `world`: a reference into another namespace is one the
// live plan and narrowing do not follow yet (narrowing then sets nothing aside).
fn analyzed(yaml: &str) -> Rebuildable {
    let w = kubectl_policies::analyze_yaml(yaml).unwrap();
    crate::sweep::answer_everything(&w);
    w
}

#[test]
fn a_service_in_another_namespace_needs_a_reference_grant() {
    let refer = "{name: auth, namespace: shared, port: 9000}";
    let without = analyzed(&[ext_auth(refer).as_str(), OTHER_NAMESPACE].concat());
    assert_eq!(
        references(&without, "sp"),
        one(POINTER, Some(RefReason::RefNotPermitted))
    );
    assert_eq!(status(&without, "sp"), PolicyStatus::Invalid);
    let with = analyzed(&[ext_auth(refer).as_str(), OTHER_NAMESPACE, GRANT].concat());
    assert_eq!(references(&with, "sp"), one(POINTER, None));
    assert_eq!(status(&with, "sp"), PolicyStatus::Enforced);
}

#[test]
fn narrowing_sets_nothing_aside_when_a_policy_names_another_namespace() {
    let yaml = [
        ext_auth("{name: auth, namespace: shared, port: 9000}").as_str(),
        OTHER_NAMESPACE,
        GRANT,
    ]
    .concat();
    let w = analyzed(&yaml);
    assert_eq!(assert_narrowed_matches_full(&yaml, &w), 0);
}

/// A BackendTLSPolicy on Service `auth` with CA references `refs`, and ConfigMap `ca`.
fn backend_tls(refs: &str) -> String {
    format!(
        "{GATEWAY}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: ca, namespace: app}}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: tls, namespace: app}}\nspec:\n  targetRefs: [{{group: '', kind: Service, name: auth}}]\n  validation: {{hostname: auth.example.com, caCertificateRefs: {refs}}}\n"
    )
}

#[test]
fn a_backend_tls_policy_with_one_of_two_ca_references_bad_is_warned_not_refused() {
    let w = world(&backend_tls(
        "[{group: '', kind: ConfigMap, name: ca}, {group: '', kind: ConfigMap, name: gone}]",
    ));
    assert_eq!(
        references(&w, "tls"),
        vec![
            ("/spec/validation/caCertificateRefs/0".to_string(), None),
            (
                "/spec/validation/caCertificateRefs/1".to_string(),
                Some(RefReason::NotFound)
            ),
        ]
    );
    assert_eq!(status(&w, "tls"), PolicyStatus::Enforced);
    assert_eq!(
        codes(&w, "tls"),
        vec![(Code::UnresolvedReference, Severity::Warning)]
    );
}

#[test]
fn a_backend_tls_policy_with_every_ca_reference_bad_is_invalid() {
    let w = world(&backend_tls(
        "[{group: '', kind: ConfigMap, name: gone}, {group: '', kind: Pod, name: ca}]",
    ));
    assert_eq!(
        references(&w, "tls"),
        vec![
            (
                "/spec/validation/caCertificateRefs/0".to_string(),
                Some(RefReason::NotFound)
            ),
            (
                "/spec/validation/caCertificateRefs/1".to_string(),
                Some(RefReason::InvalidKind)
            ),
        ]
    );
    assert_eq!(status(&w, "tls"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "tls"), vec![(Code::Invalid, Severity::Error)]);
}

#[test]
fn a_reference_to_a_kind_the_input_does_not_hold_is_unchecked() {
    // No ConfigMap at all in the input: the one named may exist where the policy is
    // applied (Gateway API's conformance suite creates its CA ConfigMaps at run time).
    let yaml = backend_tls("[{group: '', kind: ConfigMap, name: made-at-run-time}]").replace(
        "kind: ConfigMap\nmetadata: {name: ca, namespace: app}",
        "kind: Secret\nmetadata: {name: ca, namespace: app}",
    );
    let w = world(&yaml);
    assert_eq!(
        references(&w, "tls"),
        one(
            "/spec/validation/caCertificateRefs/0",
            Some(RefReason::Unchecked)
        )
    );
    assert_eq!(status(&w, "tls"), PolicyStatus::Enforced);
    assert!(codes(&w, "tls").is_empty());
    let spots = unchecked(&w);
    assert_eq!(spots.len(), 1, "{spots:?}");
    assert!(
        spots[0].contains("/spec/validation/caCertificateRefs/0"),
        "{spots:?}"
    );
}

#[test]
fn a_live_read_judges_only_where_it_listed_the_kind() {
    use kubectl_policies::model::Listed;
    let yaml = ext_auth("{name: gone, port: 8080}");
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(&yaml, "<literal>", &mut loaded).unwrap();
    let listed = |namespace: &str| Listed {
        group: String::new(),
        kind: "Service".into(),
        namespace: Some(namespace.into()),
        file: None,
    };
    let mut elsewhere = loaded.snapshot.clone();
    elsewhere.listed = Some([listed("other")].into());
    let w = kubectl_policies::analyze(elsewhere, &[], &loaded.malformed);
    crate::sweep::answer_everything(&w);
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::Unchecked))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Enforced);
    let mut here = loaded.snapshot.clone();
    here.listed = Some([listed("app")].into());
    let w = kubectl_policies::analyze(here, &[], &loaded.malformed);
    crate::sweep::answer_everything(&w);
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::NotFound))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
}

#[test]
fn an_ext_auth_service_named_without_a_port_makes_the_policy_invalid() {
    // Envoy Gateway: "A valid port number corresponding to a port on the Service must be
    // specified" (its translator test securitypolicy-with-extauth-invalid-no-port).
    let w = world(&ext_auth("{name: auth}"));
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::PortNotFound))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
}

/// An agentgateway AgentgatewayPolicy on the Gateway whose ext-auth backendRef is
/// `backend_ref`.
fn agentgateway_ext_auth(backend_ref: &str) -> String {
    format!(
        "{GATEWAY}---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: agp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  traffic: {{extAuth: {{backendRef: {backend_ref}, grpc: {{}}}}}}\n"
    )
}

const AGENTGATEWAY_POINTER: &str = "/spec/traffic/extAuth/backendRef";

#[test]
fn an_agentgateway_ext_auth_service_that_exists_resolves() {
    let w = world(&agentgateway_ext_auth("{name: auth, port: 8080}"));
    assert_eq!(references(&w, "agp"), one(AGENTGATEWAY_POINTER, None));
    assert!(codes(&w, "agp").is_empty(), "{:?}", codes(&w, "agp"));
}

#[test]
fn a_missing_agentgateway_ext_auth_service_is_warned_as_partially_valid() {
    // agentgateway accepts the policy (PartiallyValid), failing that setting only.
    let w = world(&agentgateway_ext_auth("{name: gone, port: 8080}"));
    assert_eq!(
        references(&w, "agp"),
        one(AGENTGATEWAY_POINTER, Some(RefReason::NotFound))
    );
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(
        codes(&w, "agp"),
        vec![(Code::UnresolvedReference, Severity::Warning)]
    );
}

/// A Kuadrant TLSPolicy on the Gateway whose issuerRef is `issuer_ref`, with an Issuer
/// `ca` in its namespace and a ClusterIssuer `acme`.
fn tls_policy(issuer_ref: &str) -> String {
    format!(
        "{GATEWAY}---\napiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata: {{name: ca, namespace: app}}\nspec: {{selfSigned: {{}}}}\n---\napiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata: {{name: acme}}\nspec: {{selfSigned: {{}}}}\n---\napiVersion: kuadrant.io/v1\nkind: TLSPolicy\nmetadata: {{name: tlsp, namespace: app}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}\n  issuerRef: {issuer_ref}\n"
    )
}

#[test]
fn a_tls_policy_issuer_or_cluster_issuer_that_exists_resolves() {
    for issuer_ref in [
        "{name: ca}",
        "{name: ca, kind: Issuer, group: cert-manager.io}",
        "{name: acme, kind: ClusterIssuer}",
    ] {
        let w = world(&tls_policy(issuer_ref));
        assert_eq!(
            references(&w, "tlsp"),
            one("/spec/issuerRef", None),
            "{issuer_ref}"
        );
        assert!(codes(&w, "tlsp").is_empty(), "{:?}", codes(&w, "tlsp"));
    }
}

#[test]
fn a_tls_policy_whose_issuer_is_missing_is_invalid() {
    // An Issuer is looked for in the policy's namespace only; `acme` is a ClusterIssuer.
    for issuer_ref in [
        "{name: gone}",
        "{name: acme}",
        "{name: ca, kind: ClusterIssuer}",
    ] {
        let w = world(&tls_policy(issuer_ref));
        assert_eq!(
            references(&w, "tlsp"),
            one("/spec/issuerRef", Some(RefReason::NotFound)),
            "{issuer_ref}"
        );
        assert_eq!(status(&w, "tlsp"), PolicyStatus::Invalid, "{issuer_ref}");
    }
}

/// `ext_auth` with more objects in the input.
fn ext_auth_with(backend_ref: &str, more: &str) -> String {
    format!("{}---\n{more}", ext_auth(backend_ref))
}

const EXTERNAL_NAME: &str = "apiVersion: v1
kind: Service
metadata: {name: outside, namespace: app}
spec: {type: ExternalName, externalName: auth.example.com, ports: [{port: 8080}]}
";

#[test]
fn an_external_name_service_makes_an_envoy_gateway_policy_invalid() {
    let w = world(&ext_auth_with("{name: outside, port: 8080}", EXTERNAL_NAME));
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::UnsupportedType))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
    let finding = &w
        .topology
        .findings()
        .iter()
        .find(|f| f.object.name == "sp")
        .unwrap()
        .message;
    assert!(
        finding.contains("service/app/outside#8080") && finding.contains("UnsupportedType"),
        "{finding}"
    );
}

#[test]
fn a_service_of_another_type_is_not_refused() {
    let more = EXTERNAL_NAME.replace(
        "type: ExternalName, externalName: auth.example.com, ",
        "type: NodePort, ",
    );
    let w = world(&ext_auth_with("{name: outside, port: 8080}", &more));
    assert_eq!(references(&w, "sp"), one(POINTER, None));
    assert_eq!(status(&w, "sp"), PolicyStatus::Enforced);
}

#[test]
fn an_external_name_service_is_refused_by_envoy_gateway_only() {
    // agentgateway resolves a Service without looking at its type.
    let yaml = format!(
        "{}---\n{EXTERNAL_NAME}",
        agentgateway_ext_auth("{name: outside, port: 8080}")
    );
    let w = world(&yaml);
    assert_eq!(references(&w, "agp"), one(AGENTGATEWAY_POINTER, None));
}

const SERVICE_IMPORT: &str = "apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: imported, namespace: app}
spec: {type: ClusterSetIP, ports: [{name: grpc, port: 9000, protocol: TCP}]}
";

#[test]
fn a_service_import_port_is_checked_as_a_services_is() {
    let r = "{group: multicluster.x-k8s.io, kind: ServiceImport, name: imported, port: 9000}";
    let w = world(&ext_auth_with(r, SERVICE_IMPORT));
    assert_eq!(references(&w, "sp"), one(POINTER, None));
    assert_eq!(status(&w, "sp"), PolicyStatus::Enforced);
    let w = world(&ext_auth_with(&r.replace("9000", "9001"), SERVICE_IMPORT));
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::PortNotFound))
    );
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
    let no_port = r.replace(", port: 9000", "");
    let w = world(&ext_auth_with(&no_port, SERVICE_IMPORT));
    assert_eq!(
        references(&w, "sp"),
        one(POINTER, Some(RefReason::PortNotFound))
    );
}

const BACKEND: &str = "apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: remote, namespace: app}
spec: {endpoints: [{fqdn: {hostname: auth.example.com, port: 443}}]}
";

#[test]
fn a_backend_port_is_not_matched_against_its_endpoints() {
    // Envoy Gateway routes to a Backend's endpoints on their own ports; the port a
    // reference names is a section name only.
    let r = "{group: gateway.envoyproxy.io, kind: Backend, name: remote, port: 8443}";
    let w = world(&ext_auth_with(r, BACKEND));
    assert_eq!(references(&w, "sp"), one(POINTER, None));
    assert_eq!(status(&w, "sp"), PolicyStatus::Enforced);
}
