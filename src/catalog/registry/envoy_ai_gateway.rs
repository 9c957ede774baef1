//! Envoy AI Gateway (envoyproxy/ai-gateway @ c217da8a, v1.1.0).

use super::*;

/// Envoy AI Gateway's kinds.
const BASE: Entry = Entry {
    group: "aigateway.envoyproxy.io",
    project: "Envoy AI Gateway",
    ..Entry::INHERITED
};

/// An API key or credentials file the Gateway controller reads when it builds the
/// ext-proc filter config (`bspToFilterAPIBackendAuth`), by name in the policy's own
/// namespace whatever namespace the reference writes. When the Secret is not there it
/// logs "failed to get backend auth from backend security policy. Skipping this
/// backend." and leaves each backend the policy targets out of the config; the rest of
/// the config is built. The policy's own status stays `Accepted` (its controller
/// rotates no credential for these types and reads no Secret).
const fn read_at_build(path: &'static str) -> RefField {
    RefField::local(
        path,
        &[("", "Secret")],
        Unresolved::DropsTargets,
        "envoyproxy/ai-gateway@74fd91a5 api/v1beta1/backendsecurity_policy.go (SecretRef); @00176692 internal/controller/gateway.go (reconcileFilterConfigSecret, bspToFilterAPIBackendAuth: Skipping this backend); @91c69e55 internal/controller/backend_security_policy.go (reconcile: no rotation for API keys or a plain AWS credentials file)",
    )
}

/// A Secret the policy's own controller reads to rotate credentials (an Azure client
/// secret, a GCP service-account key, an OIDC client secret), in the namespace the
/// reference writes (the policy's when none; no ReferenceGrant asked for). When it is
/// not there the reconcile fails and the policy's status is `NotAccepted` with the
/// error; no credential Secret is generated, so the Gateway controller also leaves its
/// backends out. An OIDC `clientSecret` with no namespace is refused too ("oidc client
/// secret namespace is nil"), which the policy's namespace does not stand for here.
const fn read_to_rotate(path: &'static str) -> RefField {
    RefField {
        path,
        kinds: &[("", "Secret")],
        kind_as_written: false,
        groups: RefGroups::AsWritten,
        namespaces: RefNamespaces::Any,
        port: false,
        unresolved: Unresolved::RefusesPolicy,
        cite: "envoyproxy/ai-gateway@91c69e55 internal/controller/backend_security_policy.go (rotateCredential: LookupSecret; Reconcile: ConditionTypeNotAccepted with the error); internal/controller/tokenprovider (OidcTokenProvider.GetToken: oauth.GetClientSecret)",
    }
}

const BACKEND_SECURITY_POLICY_REFS: &[RefField] = &[
    read_at_build("/apiKey/secretRef"),
    read_at_build("/azureAPIKey/secretRef"),
    read_at_build("/anthropicAPIKey/secretRef"),
    read_at_build("/awsCredentials/credentialsFile/secretRef"),
    read_to_rotate("/azureCredentials/clientSecretRef"),
    read_to_rotate("/gcpCredentials/credentialsFile/secretRef"),
    read_to_rotate("/awsCredentials/oidcExchangeToken/oidc/clientSecret"),
    read_to_rotate("/azureCredentials/oidcExchangeToken/oidc/clientSecret"),
    read_to_rotate(
        "/gcpCredentials/workloadIdentityFederationConfig/oidcExchangeToken/oidc/clientSecret",
    ),
];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
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
        status_shape: "conditions",
        note: "Credentials for calling an AI backend (or an InferencePool); \"multiple on the same resource is invalid\": the controller refuses to reconcile the backend.",
        documented: "https://aigateway.envoyproxy.io/docs/api/#backendsecuritypolicy",
        cite: "envoyproxy/ai-gateway@c217da8a api/v1beta1/backendsecurity_policy.go",
        references: BACKEND_SECURITY_POLICY_REFS,
        ..BASE
    },
    Entry {
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
        status_shape: "conditions",
        note: "Token quotas for an AI backend; its perModelQuotas refine the service quota inside one policy (not GEP-713 overrides). Several on one backend are undocumented: GEP-713's oldest-wins is assumed.",
        documented: "https://aigateway.envoyproxy.io/docs/api/#quotapolicy",
        cite: "envoyproxy/ai-gateway@c217da8a api/v1alpha1/quota_policy.go",
        // Its spec names nothing but its targets: per-model quotas, CEL cost expressions
        // and client selectors (envoyproxy/ai-gateway@2515dd30 api/v1alpha1/quota_policy.go).
        references: &[],
        ..BASE
    },
];
