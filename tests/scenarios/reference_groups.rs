//! How a controller reads the group a reference writes beside its kind
//! (`RefField::groups`): Envoy Gateway matches a backend's or a CA bundle's kind alone
//! once the group is one it lets through, so a reference written without a group (an
//! API server stores the `group: ""` its type defaults) names its own kind's object.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::topology::{PolicyId, RefReason};

const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: shop}
spec:
  gatewayClassName: eg
  listeners: [{name: web, port: 8080, protocol: HTTP}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: processor, namespace: shop}
spec:
  endpoints: [{fqdn: {hostname: proc.example.net, port: 9443}}]
"#;

/// An EnvoyExtensionPolicy on the Gateway whose one ext-proc backend is `backend_ref`.
fn ext_proc(backend_ref: &str) -> String {
    format!(
        "{GATEWAY}---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyExtensionPolicy\nmetadata: {{name: ext, namespace: shop}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: edge}}]\n  extProc: [{{backendRefs: [{backend_ref}]}}]\n"
    )
}

const EXT_PROC: &str = "/spec/extProc/0/backendRefs/0";

#[test]
fn an_ext_proc_backend_named_without_its_group_is_envoy_gateways_backend() {
    for written in [
        "{kind: Backend, name: processor, port: 9443}",
        "{group: '', kind: Backend, name: processor, port: 9443}",
        "{group: gateway.envoyproxy.io, kind: Backend, name: processor, port: 9443}",
    ] {
        let w = world(&ext_proc(written));
        assert_eq!(references(&w, "ext"), one(EXT_PROC, None), "{written}");
        assert_eq!(status(&w, "ext"), PolicyStatus::Enforced, "{written}");
    }
}

#[test]
fn a_group_less_backend_that_is_not_there_is_still_missing() {
    let w = world(&ext_proc("{kind: Backend, name: elsewhere, port: 9443}"));
    assert_eq!(
        references(&w, "ext"),
        one(EXT_PROC, Some(RefReason::NotFound))
    );
    assert_eq!(status(&w, "ext"), PolicyStatus::Invalid);
}

#[test]
fn a_backend_of_a_group_envoy_gateway_does_not_let_through_is_refused() {
    let w = world(&ext_proc(
        "{group: proxies.example.org, kind: Backend, name: processor, port: 9443}",
    ));
    assert_eq!(
        references(&w, "ext"),
        one(EXT_PROC, Some(RefReason::InvalidKind))
    );
    assert_eq!(status(&w, "ext"), PolicyStatus::Invalid);
}

const BUNDLE: &str = r#"
---
apiVersion: certificates.k8s.io/v1beta1
kind: ClusterTrustBundle
metadata: {name: partner-roots}
spec: {trustBundle: "not read here"}
"#;

/// A ClientTrafficPolicy on the Gateway validating clients with `ca_refs`.
fn client_validation(ca_refs: &str) -> String {
    format!(
        "{GATEWAY}{BUNDLE}---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: mtls, namespace: shop}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: edge}}]\n  tls: {{clientValidation: {{caCertificateRefs: [{ca_refs}]}}}}\n"
    )
}

const CA: &str = "/spec/tls/clientValidation/caCertificateRefs/0";

#[test]
fn a_cluster_trust_bundle_named_by_kind_alone_validates_clients() {
    for written in [
        "{kind: ClusterTrustBundle, name: partner-roots}",
        "{group: '', kind: ClusterTrustBundle, name: partner-roots}",
        // Cluster-scoped: a namespace written beside it is not read.
        "{group: certificates.k8s.io, kind: ClusterTrustBundle, name: partner-roots, namespace: shop}",
    ] {
        let w = world(&client_validation(written));
        assert_eq!(references(&w, "mtls"), one(CA, None), "{written}");
        assert_eq!(status(&w, "mtls"), PolicyStatus::Enforced, "{written}");
    }
}

#[test]
fn a_cluster_trust_bundle_that_is_not_there_makes_the_policy_invalid() {
    let w = world(&client_validation(
        "{kind: ClusterTrustBundle, name: retired-roots}",
    ));
    assert_eq!(references(&w, "mtls"), one(CA, Some(RefReason::NotFound)));
    assert_eq!(status(&w, "mtls"), PolicyStatus::Invalid);
}

#[test]
fn a_ca_entry_naming_no_kind_is_still_a_secret() {
    let yaml = format!(
        "{}---\napiVersion: v1\nkind: Secret\nmetadata: {{name: client-ca, namespace: shop}}\n",
        client_validation("{name: client-ca}, {kind: ClusterTrustBundle, name: partner-roots}")
    );
    let w = world(&yaml);
    let got = references(&w, "mtls");
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got.iter().all(|(_, reason)| reason.is_none()), "{got:?}");
    let pid = PolicyId::all(w.topology.policies().len())
        .find(|&p| w.topology.policy(p).obj_ref.name == "mtls")
        .unwrap();
    let targets: Vec<String> = w
        .topology
        .references_of(pid)
        .iter()
        .map(|r| format!("{}/{}", r.target.group, r.target.kind))
        .collect();
    assert_eq!(
        targets,
        ["/Secret", "certificates.k8s.io/ClusterTrustBundle"]
    );
}

#[test]
fn a_backend_tls_policy_reads_a_core_grouped_cluster_trust_bundle_as_the_bundle() {
    let yaml = format!(
        "{GATEWAY}{BUNDLE}---\napiVersion: v1\nkind: Service\nmetadata: {{name: api, namespace: shop}}\nspec: {{ports: [{{port: 443}}]}}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: api-tls, namespace: shop}}\nspec:\n  targetRefs: [{{group: '', kind: Service, name: api}}]\n  validation:\n    hostname: api.shop.example\n    caCertificateRefs: [{{group: '', kind: ClusterTrustBundle, name: partner-roots}}]\n"
    );
    let w = world(&yaml);
    assert_eq!(
        references(&w, "api-tls"),
        one("/spec/validation/caCertificateRefs/0", None),
        "resolved against the bundle, not left unchecked as a core-group kind"
    );
}

/// A kgateway TrafficPolicy whose ext-auth names GatewayExtension `authz` by
/// `extension_ref`, beside that GatewayExtension.
fn kgateway_ext_auth(extension_ref: &str) -> String {
    format!(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: front, namespace: web}}
spec:
  gatewayClassName: kgateway
  listeners: [{{name: http, port: 80, protocol: HTTP}}]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {{name: authz, namespace: web}}
spec: {{type: ExtAuth, extAuth: {{grpcService: {{backendRef: {{name: authz-svc, port: 9000}}}}}}}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {{name: guard, namespace: web}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: front}}]
  extAuth: {{extensionRef: {extension_ref}}}
"#
    )
}

#[test]
fn a_kgateway_extension_ref_is_a_gateway_extension_whatever_kind_it_writes() {
    // Its type has a name and a namespace only: kgateway reads a GatewayExtension.
    for written in [
        "{name: authz}",
        "{name: authz, kind: Service}",
        "{name: authz, group: '', kind: GatewayExtension}",
    ] {
        let w = world(&kgateway_ext_auth(written));
        assert_eq!(
            references(&w, "guard"),
            one("/spec/extAuth/extensionRef", None),
            "{written}"
        );
        assert_eq!(status(&w, "guard"), PolicyStatus::Enforced, "{written}");
    }
    let w = world(&kgateway_ext_auth("{name: gone, kind: GatewayExtension}"));
    assert_eq!(
        references(&w, "guard"),
        one("/spec/extAuth/extensionRef", Some(RefReason::NotFound))
    );
}

/// An ext-proc backend `{kind: Backend}` written without a group in namespace `procs`,
/// with a ReferenceGrant there to Backends of `grant_group`.
fn ext_proc_across(grant_group: &str) -> String {
    format!(
        "{}---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: Backend\nmetadata: {{name: shared-proc, namespace: procs}}\nspec: {{endpoints: [{{ip: {{address: 10.1.2.3, port: 9443}}}}]}}\n---\napiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {{name: from-shop, namespace: procs}}\nspec:\n  from: [{{group: gateway.envoyproxy.io, kind: EnvoyExtensionPolicy, namespace: shop}}]\n  to: [{{group: '{grant_group}', kind: Backend}}]\n",
        ext_proc("{kind: Backend, name: shared-proc, namespace: procs, port: 9443}")
    )
}

#[test]
fn envoy_gateway_asks_a_reference_grant_for_the_group_as_written() {
    // crossNamespaceTo{group: GroupDerefOr(backendRef.Group, "")}: a group-less
    // Backend is let in by a grant to core-group Backends, not by one to its own group.
    let w = analyze(&ext_proc_across(""));
    assert_eq!(references(&w, "ext"), one(EXT_PROC, None));
    let w = analyze(&ext_proc_across("gateway.envoyproxy.io"));
    assert_eq!(
        references(&w, "ext"),
        one(EXT_PROC, Some(RefReason::RefNotPermitted))
    );
    assert_eq!(status(&w, "ext"), PolicyStatus::Invalid);
}

// Built without the oracles of `world`: a reference into another namespace is one the
// live plan and narrowing do not follow yet.
fn analyze(yaml: &str) -> kubectl_policies::query::Rebuildable {
    let w = kubectl_policies::analyze_yaml(yaml).unwrap();
    crate::sweep::answer_everything(&w);
    w
}
