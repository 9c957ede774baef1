//! Gateway API's own policy kinds (kubernetes-sigs/gateway-api @ 4564255a, v1.6.1).

use super::*;

/// Gateway API's own kinds: the standard group unless an entry says otherwise.
const BASE: Entry = Entry {
    group: "gateway.networking.k8s.io",
    project: "Gateway API",
    ..Entry::INHERITED
};

/// What a BackendTLSPolicy's `caCertificateRefs` may name: a ConfigMap (core support),
/// or where an implementation supports it a Secret or a ClusterTrustBundle. Anything
/// else never resolves: Accepted=False, reason NoValidCACertificate (Gateway API
/// conformance test BackendTLSPolicyInvalidKind).
const CA_CERTIFICATE_KINDS: &[(&str, &str)] = &[
    ("", "ConfigMap"),
    ("", "Secret"),
    ("certificates.k8s.io", "ClusterTrustBundle"),
];

/// Envoy Gateway reads a CA reference by its kind alone
/// (internal/gatewayapi/backendtlspolicy.go `getCaCertsFromCARefs` switches on
/// `caRef.Kind` and looks a ClusterTrustBundle up by name), so a ClusterTrustBundle
/// named with the core group, as its own translator tests write it
/// (testdata/backendtlspolicy-ca-clustertrustbundle, `Accepted`), is the
/// `certificates.k8s.io` ClusterTrustBundle of that name, as one named with its API
/// group is.
const CA_CERTIFICATE_GROUPS: RefGroups = RefGroups::KindAlone {
    groups: &["", "certificates.k8s.io"],
};

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "BackendTLSPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        status_shape: "ancestors",
        note: "One policy per Service (or Service port); the oldest one applies and any later one is marked Conflicted.",
        documented: "https://gateway-api.sigs.k8s.io/api-types/backendtlspolicy/ (GEP-1897)",
        cite: "kubernetes-sigs/gateway-api@4564255a apis/v1/backendtlspolicy_types.go",
        references: &[RefField {
            path: "/validation/caCertificateRefs/*",
            kinds: CA_CERTIFICATE_KINDS,
            kind_as_written: true,
            groups: CA_CERTIFICATE_GROUPS,
            // A LocalObjectReference: "the object must be in the same namespace".
            namespaces: RefNamespaces::Own,
            port: false,
            // "If a CACertificateRef cannot be resolved, or points to an unsupported
            // kind, or to a resource in another namespace, the ResolvedRefs condition
            // MUST be set to False ... If ALL CACertificateRefs are invalid, the
            // implementation MUST also ensure the policy is not Accepted
            // (NoValidCACertificate)" (backendtlspolicy_types.go, CACertificateRefs).
            unresolved: Unresolved::RefusesWhenNoneResolves,
            cite: "kubernetes-sigs/gateway-api@4564255a apis/v1/backendtlspolicy_types.go (BackendTLSPolicyValidation.CACertificateRefs)",
        }],
        // config/crd: backendtlspolicies (shortNames).
        short_names: &["btlspolicy"],
        sections_by_ref_port: super::envoy_gateway::BACKEND_TLS_BY_REF_PORT,
        ..BASE
    },
    Entry {
        group: "gateway.networking.x-k8s.io",
        kind: "XBackendTrafficPolicy",
        class: Class::Direct,
        targeting: REFS,
        // And implementation-specific backends.
        target_kinds: SERVICE_AND_IMPORT,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        status_shape: "ancestors",
        note: "Experimental per-backend traffic settings (a Service, a ServiceImport or an implementation's backend) that attach directly and are never combined (\"no Override or Default\").",
        documented: "https://gateway-api.sigs.k8s.io/geps/gep-3388/",
        cite: "kubernetes-sigs/gateway-api@4564255a apisx/v1alpha1/xbackendtrafficpolicy_types.go",
        ..BASE
    },
    Entry {
        kind: "BackendLBPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        status_shape: "ancestors",
        note: "Retired experimental load-balancing settings for a Service (removed by #3705, absent from v1.3.0 on); attached directly with no merging.",
        documented: "https://gateway-api.sigs.k8s.io/geps/gep-1619/",
        cite: "kubernetes-sigs/gateway-api v1.2 apis/v1alpha2/backendlbpolicy_types.go (removed by #3705)",
        ..BASE
    },
];
