//! Airlock Microgateway (airlock/microgateway @ 9ac212e7, 5.1.5): every kind labelled
//! `direct`, a `targetRefs` list (LocalPolicyTargetReference, at most 16, unique) of
//! HTTPRoutes, no sectionName. Several on one route are not documented in what was
//! read: GEP-713's oldest-wins is assumed.

use super::*;

const fn airlock(kind: &'static str, note: &'static str) -> KnownKind {
    KnownKind {
        group: "microgateway.airlock.com",
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS,
        target_kinds: HTTPROUTE,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        project: "Airlock",
        status_shape: "unknown",
        note,
        documented: "https://docs.airlock.com/microgateway/latest/",
        source: "airlock/microgateway@9ac212e7 deploy/charts/airlock-microgateway/crds/<plural>.microgateway.airlock.com.yaml",
        // Several kinds name other Airlock objects (AccessControlPolicy: OIDCRelyingParty,
        // JWT, TokenExchange and IdentityPropagation; the docs' CRD reference shows the
        // links), but the controller is closed source and the exact fields were not read
        // from the CRDs: not checked (docs/limits.md).
        references: &[],
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    airlock(
        "AccessControlPolicy",
        "Authorization (and the identity it needs) for the HTTPRoutes it names.",
    ),
    airlock(
        "ContentSecurityPolicy",
        "Request filtering and validation (the WAF functions) for the HTTPRoutes it names.",
    ),
    airlock(
        "CustomResponsePolicy",
        "Custom error responses for the HTTPRoutes it names.",
    ),
    airlock(
        "EnvoyExtensionPolicy",
        "Not Envoy Gateway's kind of the same name: Envoy extensions for the HTTPRoutes it names.",
    ),
    airlock(
        "ICAPPolicy",
        "ICAP content scanning for the HTTPRoutes it names.",
    ),
    airlock(
        "LogMaskingPolicy",
        "Masking of sensitive values in the access log for the HTTPRoutes it names.",
    ),
    airlock(
        "RateLimitPolicy",
        "Not Kuadrant's or NGINX Gateway Fabric's kind of the same name (new in 2026): rate limits for the HTTPRoutes it names.",
    ),
];
