//! Kuadrant (Kuadrant/kuadrant-operator @ ae698811, v1.5.2).

use super::*;

/// Kuadrant AuthPolicy: the JSON pointers under which children are named rules.
const AUTH_POLICY_RULE_PATHS: &[&str] = &[
    "/rules/authentication",
    "/rules/metadata",
    "/rules/authorization",
    "/rules/response/success/headers",
    "/rules/response/success/filters",
    "/rules/callbacks",
];

/// Kuadrant rate limits are merged by limit name.
const LIMITS_RULE_PATHS: &[&str] = &["/limits"];

/// A Direct Kuadrant kind: one `targetRef` (with sectionName), never merged.
const fn direct(
    group: &'static str,
    kind: &'static str,
    target_kinds: &'static [&'static str],
    label: Option<&'static str>,
    note: &'static str,
    documented: &'static str,
    source: &'static str,
) -> KnownKind {
    KnownKind {
        group,
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REF,
        target_kinds,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label,
        project: "Kuadrant",
        status_shape: "conditions",
        note,
        documented,
        source,
        // Each entry below says what it names.
        references: &[],
    }
}

/// An inherited Kuadrant kind: GEP-713 defaults and overrides, keyed by `rule_paths`.
const fn inherited(
    kind: &'static str,
    target_kinds: &'static [&'static str],
    rule_paths: &'static [&'static str],
    note: &'static str,
    documented: &'static str,
    source: &'static str,
) -> KnownKind {
    KnownKind {
        group: "kuadrant.io",
        kind,
        class: Class::Inherited,
        // Enforced by the wasm-shim on the Gateway's listener: one action set per
        // path Gateway > listener > route > rule, matched on the request's hostname
        // and the rule's matches (internal/wasm/utils.go `BuildActionSetsForPath`);
        // nothing is set on the upstream clusters.
        flow: Flow::ClientSide { to_backends: &[] },
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REF,
        target_kinds,
        // CEL on targetRef.kind: "Invalid targetRef.kind. The only supported values are ...".
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::Gep713 { rule_paths },
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::Gep713,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note,
        documented,
        source,
        // Each entry below says what it names.
        references: &[],
    }
}

/// A TLSPolicy's cert-manager issuer (`issuerRef`, a cert-manager `ObjectReference`
/// with no namespace; its group optional): an `Issuer` in the policy's namespace when
/// it names no kind or `Issuer`, else a cluster-scoped `ClusterIssuer`. When the
/// topology holds none, the validator refuses the policy ("unable to find issuer",
/// `Accepted=False`, reason `Invalid`) and its Certificates are deleted.
const TLS_POLICY_REFS: &[RefField] = &[RefField {
    path: "/issuerRef",
    kinds: &[
        ("cert-manager.io", "Issuer"),
        ("cert-manager.io", "ClusterIssuer"),
    ],
    kind_as_written: true,
    groups: RefGroups::OmittedMeansKinds,
    namespaces: RefNamespaces::Own,
    port: false,
    unresolved: Unresolved::RefusesPolicy,
    cite: "Kuadrant/kuadrant-operator@08b53556 internal/controller/tlspolicies_validator.go (isIssuerFound)",
}];

/// DNSPolicy `providerRefs`: the DNS provider Secret of the policy's namespace its
/// DNSRecords are published with. Kuadrant's validator does not check it; the DNS
/// operator cannot load the provider without it (`ProviderFor`: Ready=False,
/// `DNSProviderError`), so none of the policy's records is ready and Kuadrant reports
/// the policy not enforced.
const DNS_POLICY_REFS: &[RefField] = &[RefField::local(
    "/providerRefs/*",
    &[("", "Secret")],
    Unresolved::NotEnforced,
    "Kuadrant/kuadrant-operator@08b53556 internal/controller/dnspolicy_status_updater.go (enforcedCondition: \"not a single DNSRecord is ready\"); Kuadrant/dns-operator@002b4a29 internal/controller/dnsrecord_controller.go (ProviderFor error: Ready=False, DNSProviderError)",
)];

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        // Its Authorino rules can name Secrets (API keys by label selector; the
        // `credentialsRef` and `sharedSecretRef`s of some evaluators, wristband signing
        // keys). A Secret Authorino cannot read fails the AuthConfig (translateAuthConfig,
        // Kuadrant/authorino@007eb3db), and an AuthConfig not ready makes the policy not
        // enforced (auth_policy_status_updater.go @27472a3b); but Authorino looks it up in
        // the AuthConfig's namespace, chosen by Kuadrant, and one AuthConfig serves every
        // policy on a route: not checked (docs/limits.md).
        references: &[],
        ..inherited(
            "AuthPolicy",
            GATEWAY_AND_ROUTES,
            AUTH_POLICY_RULE_PATHS,
            "Full GEP-713 defaults and overrides with atomic (the default) or merge strategy; a spec without either is treated as atomic defaults.",
            "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/auth/ (api/v1/merge_strategies.go)",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_authpolicies.yaml",
        )
    },
    KnownKind {
        // Names no object: limits, rates, counters and CEL predicates.
        references: &[],
        ..inherited(
            "RateLimitPolicy",
            GATEWAY_AND_ROUTES,
            LIMITS_RULE_PATHS,
            "Works like AuthPolicy, with each named limit being one rule when the merge strategy combines policies.",
            "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/rate-limiting/",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_ratelimitpolicies.yaml",
        )
    },
    KnownKind {
        // Names no object: limits, rates, counters and CEL predicates.
        references: &[],
        ..inherited(
            "TokenRateLimitPolicy",
            GATEWAY_AND_HTTPROUTE,
            LIMITS_RULE_PATHS,
            "Token-based limits that combine exactly like RateLimitPolicy, keyed by limit name.",
            "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/token-rate-limiting/",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_tokenratelimitpolicies.yaml",
        )
    },
    KnownKind {
        // CEL on targetRef.kind (kuadrant.io_*.yaml, "Invalid targetRef.kind").
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        // `providerRefs` name DNS provider Secrets; the validator does not check them
        // (dnspolicies_validator.go @08b53556), a missing one shows in Enforced.
        references: DNS_POLICY_REFS,
        ..direct(
            "kuadrant.io",
            "DNSPolicy",
            GATEWAY,
            Some("direct"),
            "DNS records for a Gateway or one of its listeners; attached directly, never merged.",
            "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/dns/",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_dnspolicies.yaml",
        )
    },
    KnownKind {
        // CEL on targetRef.kind (kuadrant.io_*.yaml, "Invalid targetRef.kind").
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        references: TLS_POLICY_REFS,
        ..direct(
            "kuadrant.io",
            "TLSPolicy",
            GATEWAY,
            Some("direct"),
            "Certificate management for a Gateway or listener; one policy per target with no combining.",
            "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/tls/",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_tlspolicies.yaml",
        )
    },
    KnownKind {
        // Names no object: provider URLs and a client ID (oidcpolicy_types.go).
        references: &[],
        ..direct(
            "extensions.kuadrant.io",
            "OIDCPolicy",
            GATEWAY_AND_HTTPROUTE,
            None,
            "Extension that configures an OIDC login flow on its target by generating AuthPolicies; nothing of its own is inherited or merged.",
            "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/oidc-policy",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/extensions.kuadrant.io_oidcpolicies.yaml",
        )
    },
    KnownKind {
        // Names no object: plans and their limits.
        references: &[],
        ..direct(
            "extensions.kuadrant.io",
            "PlanPolicy",
            GATEWAY_AND_ROUTES,
            None,
            "Extension that maps plans to limits on its own target by generating RateLimitPolicies; it does not take part in any merge itself.",
            "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/plan-policy",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/extensions.kuadrant.io_planpolicies.yaml",
        )
    },
    KnownKind {
        // CEL on targetRef.kind (kuadrant.io_*.yaml, "Invalid targetRef.kind").
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        // Names no object: metric labels as CEL expressions.
        references: &[],
        ..direct(
            "extensions.kuadrant.io",
            "TelemetryPolicy",
            GATEWAY,
            None,
            "Extension for metric labels on a Gateway (its CRD accepts no other target since v1.3.0); its metrics.default field is not a GEP-713 default.",
            "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/telemetry-policy",
            "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/extensions.kuadrant.io_telemetrypolicies.yaml (CEL self.kind == 'Gateway')",
        )
    },
    KnownKind {
        // Names no object: a threat-score threshold (threatpolicy_types.go).
        references: &[],
        ..direct(
            "extensions.kuadrant.io",
            "ThreatPolicy",
            GATEWAY_AND_HTTPROUTE,
            None,
            "Extension (new in v1.5.0) that configures threat protection on its own target; never merged.",
            "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/threat-policy",
            "Kuadrant/kuadrant-operator@ae698811 cmd/extensions/threat-policy/api/v1alpha1/threatpolicy_types.go",
        )
    },
];
