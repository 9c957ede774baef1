//! Envoy AI Gateway (envoyproxy/ai-gateway @ c217da8a, v1.1.0).

use super::*;

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        group: "aigateway.envoyproxy.io",
        kind: "BackendSecurityPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["AIServiceBackend", "InferencePool"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::SeveralConflict,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        project: "Envoy AI Gateway",
        status_shape: "conditions",
        note: "Credentials for calling an AI backend (or an InferencePool); \"multiple on the same resource is invalid\": the controller refuses to reconcile the backend.",
        documented: "https://aigateway.envoyproxy.io/docs/api/#backendsecuritypolicy",
        source: "envoyproxy/ai-gateway@c217da8a api/v1beta1/backendsecurity_policy.go",
        refs: &[],
    },
    KnownKind {
        group: "aigateway.envoyproxy.io",
        kind: "QuotaPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["AIServiceBackend"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        project: "Envoy AI Gateway",
        status_shape: "conditions",
        note: "Token quotas for an AI backend; its perModelQuotas refine the service quota inside one policy (not GEP-713 overrides). Several on one backend are undocumented: GEP-713's oldest-wins is assumed.",
        documented: "https://aigateway.envoyproxy.io/docs/api/#quotapolicy",
        source: "envoyproxy/ai-gateway@c217da8a api/v1alpha1/quota_policy.go",
        refs: &[],
    },
];
