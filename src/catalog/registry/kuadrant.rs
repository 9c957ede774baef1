//! Kuadrant (Kuadrant/kuadrant-operator @ ae698811, v1.5.2).

use super::*;

/// Kuadrant's kinds: one `targetRef` (with sectionName), in the policy's namespace.
const BASE: Entry = Entry {
    group: "kuadrant.io",
    targeting: REF,
    namespaces: NamespaceRule::Own,
    sections: Sections::SectionName,
    project: "Kuadrant",
    status_shape: "conditions",
    ..Entry::INHERITED
};

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
const DIRECT: Entry = Entry {
    class: Class::Direct,
    flow: Flow::Down,
    other_target_kinds: OtherTargetKinds::NotRefused,
    merge: MergeModel::None,
    same_target: SameTarget::OldestWins,
    defaults_overrides: DefaultsOverrides::None,
    label: None,
    ..BASE
};

/// An inherited Kuadrant kind: GEP-713 defaults and overrides, keyed by its entry's
/// `rule_paths`.
const INHERITED: Entry = Entry {
    class: Class::Inherited,
    // Enforced by the wasm-shim on the Gateway's listener: one action set per
    // path Gateway > listener > route > rule, matched on the request's hostname
    // and the rule's matches (internal/wasm/utils.go `BuildActionSetsForPath`);
    // nothing is set on the upstream clusters.
    flow: Flow::ClientSide { to_backends: &[] },
    // CEL on targetRef.kind: "Invalid targetRef.kind. The only supported values are ...".
    other_target_kinds: OtherTargetKinds::RefusedByCrd,
    same_target: SameTarget::Stack,
    defaults_overrides: DefaultsOverrides::Gep713,
    label: Some("inherited"),
    ..BASE
};

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

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "AuthPolicy",
        // Its Authorino rules can name Secrets (API keys by label selector; the
        // `credentialsRef` and `sharedSecretRef`s of some evaluators, wristband signing
        // keys). A Secret Authorino cannot read fails the AuthConfig (translateAuthConfig,
        // Kuadrant/authorino@007eb3db), and an AuthConfig not ready makes the policy not
        // enforced (auth_policy_status_updater.go @27472a3b); but Authorino looks it up in
        // the AuthConfig's namespace, chosen by Kuadrant, and one AuthConfig serves every
        // policy on a route: not checked (docs/limits.md).
        references: &[],
        target_kinds: GATEWAY_AND_ROUTES,
        merge: MergeModel::Gep713 { rule_paths: AUTH_POLICY_RULE_PATHS },
        note: "Full GEP-713 defaults and overrides with atomic (the default) or merge strategy; a spec without either is treated as atomic defaults.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/auth/ (api/v1/merge_strategies.go)",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_authpolicies.yaml",
        ..INHERITED
    },
    Entry {
        kind: "RateLimitPolicy",
        // Names no object: limits, rates, counters and CEL predicates.
        references: &[],
        target_kinds: GATEWAY_AND_ROUTES,
        merge: MergeModel::Gep713 { rule_paths: LIMITS_RULE_PATHS },
        note: "Works like AuthPolicy, with each named limit being one rule when the merge strategy combines policies.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/rate-limiting/",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_ratelimitpolicies.yaml",
        ..INHERITED
    },
    Entry {
        kind: "TokenRateLimitPolicy",
        // Names no object: limits, rates, counters and CEL predicates.
        references: &[],
        target_kinds: GATEWAY_AND_HTTPROUTE,
        merge: MergeModel::Gep713 { rule_paths: LIMITS_RULE_PATHS },
        note: "Token-based limits that combine exactly like RateLimitPolicy, keyed by limit name.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/token-rate-limiting/",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_tokenratelimitpolicies.yaml",
        ..INHERITED
    },
    Entry {
        group: "kuadrant.io",
        kind: "DNSPolicy",
        // CEL on targetRef.kind (kuadrant.io_*.yaml, "Invalid targetRef.kind").
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        // `providerRefs` name DNS provider Secrets; the validator does not check them
        // (dnspolicies_validator.go @08b53556), a missing one shows in Enforced.
        references: DNS_POLICY_REFS,
        target_kinds: GATEWAY,
        label: Some("direct"),
        note: "DNS records for a Gateway or one of its listeners; attached directly, never merged.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/dns/",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_dnspolicies.yaml",
        ..DIRECT
    },
    Entry {
        group: "kuadrant.io",
        kind: "TLSPolicy",
        // CEL on targetRef.kind (kuadrant.io_*.yaml, "Invalid targetRef.kind").
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        references: TLS_POLICY_REFS,
        target_kinds: GATEWAY,
        label: Some("direct"),
        note: "Certificate management for a Gateway or listener; one policy per target with no combining.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/tls/",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/kuadrant.io_tlspolicies.yaml",
        ..DIRECT
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "OIDCPolicy",
        // Names no object: provider URLs and a client ID (oidcpolicy_types.go).
        references: &[],
        target_kinds: GATEWAY_AND_HTTPROUTE,
        label: None,
        note: "Extension that configures an OIDC login flow on its target by generating AuthPolicies; nothing of its own is inherited or merged.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/oidc-policy",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/extensions.kuadrant.io_oidcpolicies.yaml",
        ..DIRECT
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "PlanPolicy",
        // Names no object: plans and their limits.
        references: &[],
        target_kinds: GATEWAY_AND_ROUTES,
        label: None,
        note: "Extension that maps plans to limits on its own target by generating RateLimitPolicies; it does not take part in any merge itself.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/plan-policy",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/extensions.kuadrant.io_planpolicies.yaml",
        ..DIRECT
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "TelemetryPolicy",
        // CEL on targetRef.kind (kuadrant.io_*.yaml, "Invalid targetRef.kind").
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        // Names no object: metric labels as CEL expressions.
        references: &[],
        target_kinds: GATEWAY,
        label: None,
        note: "Extension for metric labels on a Gateway (its CRD accepts no other target since v1.3.0); its metrics.default field is not a GEP-713 default.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/telemetry-policy",
        cite: "Kuadrant/kuadrant-operator@ae698811 config/crd/bases/extensions.kuadrant.io_telemetrypolicies.yaml (CEL self.kind == 'Gateway')",
        ..DIRECT
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "ThreatPolicy",
        // Names no object: a threat-score threshold (threatpolicy_types.go).
        references: &[],
        target_kinds: GATEWAY_AND_HTTPROUTE,
        label: None,
        note: "Extension (new in v1.5.0) that configures threat protection on its own target; never merged.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/threat-policy",
        cite: "Kuadrant/kuadrant-operator@ae698811 cmd/extensions/threat-policy/api/v1alpha1/threatpolicy_types.go",
        ..DIRECT
    },
];
