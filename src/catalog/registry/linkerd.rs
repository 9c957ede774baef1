//! Linkerd (linkerd/linkerd2 @ b24cd405, edge-26.8.3). No CRD carries the policy label.

use super::*;

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        group: "policy.linkerd.io",
        kind: "AuthorizationPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server", "Namespace", "HTTPRoute", "GRPCRoute"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Linkerd",
        status_shape: "none",
        note: "Each grants access to the resource it names; several on one resource add up (any one that matches allows), so none conflicts or overrides another.",
        documented: "https://linkerd.io/2-edge/reference/authorization-policy/",
        source: "linkerd/linkerd2@b24cd405 policy-controller/k8s/api/src/policy/authorization_policy.rs",
        refs: &[],
    },
    KnownKind {
        group: "policy.linkerd.io",
        kind: "HTTPLocalRateLimitPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Linkerd",
        status_shape: "conditions",
        note: "A rate limit for one Server; its overrides list is about specific clients, not GEP-713 overrides.",
        documented: "https://linkerd.io/2-edge/reference/rate-limiting/",
        source: "linkerd/linkerd2@b24cd405 policy-controller/k8s/api/src/policy/ratelimit_policy.rs (reason RateLimitReasonAlreadyExists)",
        refs: &[],
    },
];
