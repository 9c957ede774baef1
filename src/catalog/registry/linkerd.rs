//! Linkerd (linkerd/linkerd2 @ b24cd405, edge-26.8.3). No CRD carries the policy label.

use super::*;

/// Linkerd's kinds.
const BASE: Entry = Entry {
    group: "policy.linkerd.io",
    project: "Linkerd",
    ..Entry::INHERITED
};

/// An AuthorizationPolicy's `requiredAuthenticationRefs` (`NamespacedTargetRef`: the
/// namespace written, the policy's when none; no ReferenceGrant). A MeshTLSAuthentication
/// or NetworkAuthentication that is not there makes the policy "Illegal
/// AuthorizationPolicy; ignoring": it authorizes nothing, on any server or route. A
/// ServiceAccount is never looked up: its mesh identity is made from the name
/// (`service_account_identity`), so a missing one only matches no client. Any other
/// kind is refused by the admission webhook ("unsupported authentication target").
/// The group is matched with the kind, an omitted one the core group
/// (`targets_kind`: `group.unwrap_or("core")` against the type's own), so a
/// group-less `{kind: MeshTLSAuthentication}` is no MeshTLSAuthentication
/// (`RefGroups::AsWritten`, audited for issue 41). Some releases compare both
/// ignoring ASCII case (`eq_ignore_ascii_case`, policy-controller/k8s/api
/// `TargetRef::targets_kind`); a kind spelled in another case is not read so here.
const AUTHORIZATION_POLICY_REFS: &[RefField] = &[
    RefField::named(
        "/requiredAuthenticationRefs/*",
        &[
            ("policy.linkerd.io", "MeshTLSAuthentication"),
            ("policy.linkerd.io", "NetworkAuthentication"),
        ],
        RefNamespaces::Any,
        Unresolved::RefusesPolicy,
        "linkerd/linkerd2@5d01174f policy-controller/k8s/index/src/inbound/authorization_policy.rs (authentication_ref); @36e4eaba policy-controller/k8s/index/src/inbound/index.rs (policy_client_authz: \"could not find MeshTLSAuthentication\", \"Illegal AuthorizationPolicy; ignoring\")",
    ),
    RefField::named(
        "/requiredAuthenticationRefs/*",
        &[("", "ServiceAccount")],
        RefNamespaces::Any,
        Unresolved::NotRead,
        "linkerd/linkerd2@36e4eaba policy-controller/k8s/index/src/inbound/index.rs (policy_client_authz: AuthenticationTarget::ServiceAccount, cluster_info.service_account_identity)",
    ),
];

/// An HTTPLocalRateLimitPolicy override's `clientRefs`: ServiceAccounts only ("unsupported
/// client reference" otherwise), kept as a namespace and a name, never looked up.
const RATE_LIMIT_POLICY_REFS: &[RefField] = &[RefField::named(
    "/overrides/*/clientRefs/*",
    &[("", "ServiceAccount")],
    RefNamespaces::Any,
    Unresolved::NotRead,
    "linkerd/linkerd2@81ebc08b policy-controller/k8s/api/src/policy/ratelimit_policy.rs (Override.client_refs); @01afd230 policy-controller/k8s/index/src/inbound/ratelimit_policy.rs (client_ref: ClientRef::ServiceAccount { namespace, name })",
)];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "AuthorizationPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server", "Namespace", "HTTPRoute", "GRPCRoute"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "none",
        note: "Each grants access to the resource it names; several on one resource add up (any one that matches allows), so none conflicts or overrides another.",
        documented: "https://linkerd.io/2-edge/reference/authorization-policy/",
        cite: "linkerd/linkerd2@b24cd405 policy-controller/k8s/api/src/policy/authorization_policy.rs",
        references: AUTHORIZATION_POLICY_REFS,
        ..BASE
    },
    Entry {
        kind: "HTTPLocalRateLimitPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "conditions",
        note: "A rate limit for one Server; its overrides list is about specific clients, not GEP-713 overrides.",
        documented: "https://linkerd.io/2-edge/reference/rate-limiting/",
        cite: "linkerd/linkerd2@b24cd405 policy-controller/k8s/api/src/policy/ratelimit_policy.rs (reason RateLimitReasonAlreadyExists)",
        references: RATE_LIMIT_POLICY_REFS,
        ..BASE
    },
];
