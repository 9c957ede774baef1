//! The Gateway API's vocabulary and Kubernetes' own, written once: groups, the route
//! kinds, the ListenerSet's experimental alias, cluster-scoped kinds, the group a
//! reference may leave off, kinds' plurals and short names.

use super::GroupKind;

/// The Gateway API group.
pub(crate) const GATEWAY_GROUP: &str = "gateway.networking.k8s.io";
/// The experimental Gateway API group (XListenerSet, XBackendTrafficPolicy).
pub(crate) const GATEWAY_X_GROUP: &str = "gateway.networking.x-k8s.io";

/// The Gateway API group, standard or experimental channel.
pub(crate) fn is_gateway_group(g: &str) -> bool {
    g == GATEWAY_GROUP || g == GATEWAY_X_GROUP
}

/// The route kinds of the Gateway API.
pub(crate) const ROUTE_KINDS: &[&str] =
    &["HTTPRoute", "GRPCRoute", "TCPRoute", "TLSRoute", "UDPRoute"];

/// Kinds that live outside namespaces (Kubernetes' own, and the Gateway API's
/// GatewayClass): their objects and references carry no namespace. A CRD in the input
/// may declare more (`spec.scope: Cluster`).
pub(crate) const CLUSTER_SCOPED_KINDS: &[&str] = &[
    "APIService",
    "CertificateSigningRequest",
    "ClusterIssuer",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterTrustBundle",
    "ComponentStatus",
    "CSIDriver",
    "CSINode",
    "CustomResourceDefinition",
    "FlowSchema",
    "GatewayClass",
    "IngressClass",
    "MutatingWebhookConfiguration",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "RuntimeClass",
    "StorageClass",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
];

/// Kinds that live outside namespaces: their refs carry no namespace.
pub(crate) fn is_cluster_scoped(kind: &str) -> bool {
    CLUSTER_SCOPED_KINDS.contains(&kind)
}

/// The label GEP-713 asks policy CRDs to carry (`direct` or `inherited`).
pub(crate) const POLICY_LABEL: &str = "gateway.networking.k8s.io/policy";

/// The ListenerSet kinds: the standard one and the experimental channel's alias.
pub(crate) fn is_listener_set(group: &str, kind: &str) -> bool {
    matches!(kind, "ListenerSet" | "XListenerSet") && is_gateway_group(group)
}

/// A Gateway API route kind.
pub(crate) fn is_route(group: &str, kind: &str) -> bool {
    is_gateway_group(group) && ROUTE_KINDS.contains(&kind)
}

/// Where a reference that names `ListenerSet` may find it too: `XListenerSet` in the
/// experimental group (the channel it still lives in on many clusters).
pub(crate) fn experimental_alias(kind: &str) -> Option<(&'static str, &'static str)> {
    (kind == "ListenerSet").then_some((GATEWAY_X_GROUP, "XListenerSet"))
}

/// The group a Gateway API reference may leave off for its own kinds (`""` otherwise).
pub(crate) fn default_group_for(kind: &str) -> &'static str {
    match kind {
        "GatewayClass" | "Gateway" | "HTTPRoute" | "GRPCRoute" | "TCPRoute" | "TLSRoute"
        | "UDPRoute" | "ListenerSet" => GATEWAY_GROUP,
        _ => "",
    }
}

/// `namespace` → `Namespace`, `service` → `Service`: the spelling of a core or Gateway
/// API kind that references sometimes write in lower case (GEP-2649's own examples write
/// `kind: namespace`).
pub(crate) fn canonical_kind(kind: &str) -> String {
    match kind.to_ascii_lowercase().as_str() {
        "namespace" => "Namespace".into(),
        "service" => "Service".into(),
        "gateway" => "Gateway".into(),
        "gatewayclass" => "GatewayClass".into(),
        "httproute" => "HTTPRoute".into(),
        "grpcroute" => "GRPCRoute".into(),
        _ => kind.to_string(),
    }
}

/// The kinds the tool knows besides policies: (group, kind, short names).
pub(crate) const BUILTIN_KINDS: &[(&str, &str, &[&str])] = &[
    (GATEWAY_GROUP, "GatewayClass", &["gc"]),
    (GATEWAY_GROUP, "Gateway", &["gtw"]),
    (GATEWAY_GROUP, "HTTPRoute", &[]),
    (GATEWAY_GROUP, "GRPCRoute", &[]),
    (GATEWAY_GROUP, "TCPRoute", &[]),
    (GATEWAY_GROUP, "TLSRoute", &[]),
    (GATEWAY_GROUP, "UDPRoute", &[]),
    (GATEWAY_GROUP, "ListenerSet", &["lset"]),
    (GATEWAY_X_GROUP, "XListenerSet", &["lset"]),
    (GATEWAY_GROUP, "ReferenceGrant", &["refgrant"]),
    ("", "Service", &["svc"]),
    ("", "Namespace", &["ns"]),
    ("multicluster.x-k8s.io", "ServiceImport", &[]),
];

/// Core kinds policies' specs name that are no part of the hierarchy (`describe
/// secret/NAME`, `blast-radius configmap/NAME`), with kubectl's short names.
pub(crate) const REFERENCED_CORE_KINDS: &[(&str, &str, &[&str])] =
    &[("", "Secret", &[]), ("", "ConfigMap", &["cm"])];

/// The built-in kinds that are part of the hierarchy (what `describe`, `tree` and
/// `graph` take besides policies).
pub(crate) fn hierarchy_kinds() -> impl Iterator<Item = GroupKind> {
    BUILTIN_KINDS
        .iter()
        .filter(|(_, k, _)| !matches!(*k, "ReferenceGrant" | "Namespace"))
        .map(|(g, k, _)| GroupKind::new(g, k))
}

/// The English plural of a kind, its case kept: `HTTPRoute` → `HTTPRoutes`,
/// `RetryPolicy` → `RetryPolicies`, `GatewayClass` → `GatewayClasses`.
pub(crate) fn plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if let Some(stem) = kind.strip_suffix(['y', 'Y']) {
        let vowel_y = lower
            .strip_suffix('y')
            .is_some_and(|s| s.ends_with(['a', 'e', 'i', 'o', 'u']));
        if !vowel_y {
            return format!("{stem}ies");
        }
    }
    if lower.ends_with('s')
        || lower.ends_with("ch")
        || lower.ends_with("sh")
        || lower.ends_with('x')
    {
        return format!("{kind}es");
    }
    format!("{kind}s")
}

/// A kind's resource name as the API server's defaulting makes it: `httproutes`.
pub(crate) fn resource_plural(kind: &str) -> String {
    plural(kind).to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_as_the_api_server_and_english_make_them() {
        for (kind, english) in [
            ("HTTPRoute", "HTTPRoutes"),
            ("RetryPolicy", "RetryPolicies"),
            ("Gateway", "Gateways"),
            ("GatewayClass", "GatewayClasses"),
            ("ServiceEntry", "ServiceEntries"),
            ("Mesh", "Meshes"),
            ("Box", "Boxes"),
        ] {
            assert_eq!(plural(kind), english);
            assert_eq!(resource_plural(kind), english.to_ascii_lowercase());
        }
    }

    #[test]
    fn the_listener_set_alias_and_route_kinds() {
        assert_eq!(
            experimental_alias("ListenerSet"),
            Some((GATEWAY_X_GROUP, "XListenerSet"))
        );
        assert_eq!(experimental_alias("Gateway"), None);
        assert!(is_listener_set(GATEWAY_X_GROUP, "XListenerSet"));
        assert!(!is_listener_set("example.io", "ListenerSet"));
        assert!(is_route(GATEWAY_GROUP, "GRPCRoute") && !is_route("", "HTTPRoute"));
        assert_eq!(canonical_kind("namespace"), "Namespace");
        assert_eq!(default_group_for("HTTPRoute"), GATEWAY_GROUP);
        assert_eq!(default_group_for("Service"), "");
    }
}
