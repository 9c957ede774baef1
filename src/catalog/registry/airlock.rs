//! Airlock Microgateway (airlock/microgateway @ 9ac212e7, 5.1.5): every kind labelled
//! `direct`, a `targetRefs` list (LocalPolicyTargetReference, at most 16, unique) of
//! HTTPRoutes, no sectionName. Several on one route are not documented in what was
//! read: GEP-713's oldest-wins is assumed.

use super::*;

const BASE: Entry = Entry {
    group: "microgateway.airlock.com",
    class: Class::Direct,
    targeting: REFS,
    target_kinds: HTTPROUTE,
    namespaces: NamespaceRule::Own,
    sections: Sections::None,
    merge: MergeModel::None,
    same_target: SameTarget::OldestWins,
    defaults_overrides: DefaultsOverrides::None,
    label: Some("direct"),
    project: "Airlock",
    status_shape: "unknown",
    documented: "https://docs.airlock.com/microgateway/latest/",
    cite: "airlock/microgateway@9ac212e7 deploy/charts/airlock-microgateway/crds/<plural>.microgateway.airlock.com.yaml",
    ..Entry::INHERITED
};

/// An Airlock object of the policy's namespace named by `name` alone (`{name}`). The
/// controller is closed source and its documentation does not say what a policy whose
/// object is missing becomes: a warning that says so.
const fn airlock_ref(
    path: &'static str,
    kind: &'static [(&'static str, &'static str)],
    cite: &'static str,
) -> RefField {
    RefField::local(path, kind, Unresolved::Undocumented, cite)
}

const ACP_CRD: &str = "airlock/microgateway@c67e1152 deploy/charts/airlock-microgateway/crds/accesscontrolpolicies.microgateway.airlock.com.yaml";
const CSP_DOC: &str =
    "https://docs.airlock.com/microgateway/4.8/index/api/crds/content-security-policy/v1alpha1/index.html (its example)";

/// AccessControlPolicy: the OIDC relying party a policy authenticates with, the identity
/// propagations it applies.
const ACCESS_CONTROL_REFS: &[RefField] = &[
    airlock_ref(
        "/policies/*/authorization/authentication/oidc/oidcRelyingPartyRef",
        &[("microgateway.airlock.com", "OIDCRelyingParty")],
        ACP_CRD,
    ),
    airlock_ref(
        "/policies/*/identityPropagation/actions/*/identityPropagationRef",
        &[("microgateway.airlock.com", "IdentityPropagation")],
        ACP_CRD,
    ),
    airlock_ref(
        "/policies/*/authorization/authentication/jwt/jwtRef",
        &[("microgateway.airlock.com", "JWT")],
        "https://docs.airlock.com/microgateway/latest/index/1776358270835.html (JWT Authentication: \"enforces JWT authentication via authentication.jwt.jwtRef\")",
    ),
];

/// CustomResponsePolicy: the CustomResponse each local-response rule serves.
const CUSTOM_RESPONSE_REFS: &[RefField] = &[airlock_ref(
    "/policies/local/*/responses/*/customResponseRef",
    &[("microgateway.airlock.com", "CustomResponse")],
    "https://docs.airlock.com/microgateway/4.8/index/api/crds/custom-response-policy/v1alpha1/index.html (its example); the latest reference's diagram names CustomResponse as what it refers to",
)];

/// ContentSecurityPolicy: the objects that customise its WAF functions.
const CONTENT_SECURITY_REFS: &[RefField] = &[
    airlock_ref(
        "/secured/parserRef",
        &[("microgateway.airlock.com", "Parser")],
        CSP_DOC,
    ),
    airlock_ref(
        "/secured/limitsRef",
        &[("microgateway.airlock.com", "Limits")],
        CSP_DOC,
    ),
    airlock_ref(
        "/secured/headerRewritesRef",
        &[("microgateway.airlock.com", "HeaderRewrites")],
        CSP_DOC,
    ),
    airlock_ref(
        "/secured/filter/denyRulesRef",
        &[("microgateway.airlock.com", "DenyRules")],
        CSP_DOC,
    ),
    airlock_ref(
        "/secured/apiProtectionRef",
        &[("microgateway.airlock.com", "APIProtection")],
        CSP_DOC,
    ),
];

/// ICAPPolicy: the ICAPProvider each request action hands the request to.
const ICAP_REFS: &[RefField] = &[airlock_ref(
    "/policies/*/request/actions/*/icapProviderRef",
    &[("microgateway.airlock.com", "ICAPProvider")],
    "https://docs.airlock.com/microgateway/5.0/index/api/crds/icap-policy/v1alpha1/index.html (ICAPPolicy.spec.policies[].request.actions[].icapProviderRef, \"selects the ICAP provider\"; its example)",
)];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "AccessControlPolicy",
        // Its OIDC relying parties, identity propagations and JWTs (the TokenExchange
        // references of later releases not read: where `tokenExchange` sits was not
        // found in what was read).
        references: ACCESS_CONTROL_REFS,
        note: "Authorization (and the identity it needs) for the HTTPRoutes it names.",
        ..BASE
    },
    Entry {
        kind: "ContentSecurityPolicy",
        // The objects of its WAF functions (`csrfProtectionRef` not read).
        references: CONTENT_SECURITY_REFS,
        note: "Request filtering and validation (the WAF functions) for the HTTPRoutes it names.",
        ..BASE
    },
    Entry {
        kind: "CustomResponsePolicy",
        // The CustomResponses of its local rules, as its documentation's example
        // writes them (its CRD, 74k characters and more, not read: other fields
        // naming objects, if any, are not checked).
        references: CUSTOM_RESPONSE_REFS,
        note: "Custom error responses for the HTTPRoutes it names.",
        ..BASE
    },
    Entry {
        kind: "EnvoyExtensionPolicy",
        // Its CRD (74k characters and more) was not read for the objects it names:
        // not checked (docs/limits.md).
        references: &[],
        note: "Not Envoy Gateway's kind of the same name: Envoy extensions for the HTTPRoutes it names.",
        ..BASE
    },
    Entry {
        kind: "ICAPPolicy",
        // The ICAPProvider of each request action (its reference documentation's
        // tables; its CRD not read: other fields naming objects, if any, are not
        // checked).
        references: ICAP_REFS,
        note: "ICAP content scanning for the HTTPRoutes it names.",
        ..BASE
    },
    Entry {
        kind: "LogMaskingPolicy",
        // Its CRD (74k characters and more) was not read for the objects it names:
        // not checked (docs/limits.md).
        references: &[],
        note: "Masking of sensitive values in the access log for the HTTPRoutes it names.",
        ..BASE
    },
    Entry {
        kind: "RateLimitPolicy",
        // Its CRD (74k characters and more) was not read for the objects it names:
        // not checked (docs/limits.md).
        references: &[],
        note: "Not Kuadrant's or NGINX Gateway Fabric's kind of the same name (new in 2026): rate limits for the HTTPRoutes it names.",
        ..BASE
    },
];
