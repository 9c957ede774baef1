//! agentgateway (agentgateway/agentgateway @ 75b4e6ce, v1.4.1; also kgateway's
//! api/v1alpha1/agentgateway @0c6aa135, the 2.1 transitional group).

use super::*;

/// agentgateway's kind.
const BASE: Entry = Entry {
    group: "agentgateway.dev",
    project: "agentgateway",
    ..Entry::INHERITED
};

/// Settings its CRD's CEL refuses on a target of `kind`: the policy is refused whole.
const fn crd_refuses(kind: &'static str, fields: &'static [&'static str]) -> RefusedOn {
    RefusedOn {
        kind,
        fields,
        refuses: Refuses::WholePolicy,
        after_merge: false,
    }
}

// How agentgateway's controller turns an AgentgatewayPolicy into data-plane policies
// (`translatePolicyToAgw`: each frontend, traffic and backend setting its own) and
// what its status says of a reference that does not resolve: the setting's error is
// joined to the others', and the policy is `Accepted=True`, reason `PartiallyValid`,
// while another setting still translates ("failed to build extAuth: unable to find the
// Service ..."), reason `Invalid` with `Attached=False` when none does
// (agentgateway/agentgateway@03824d73 controller/pkg/agentgateway/plugins/
// traffic_plugin.go, TranslateAgentgatewayPolicy; later versions say `Accepted=False`).

/// A `gwv1.BackendObjectReference` of an AgentgatewayPolicy. The controller
/// (`buildBackendRef`) resolves a Service, an AgentgatewayBackend or an InferencePool
/// in the namespace written (the policy's when none; no ReferenceGrant asked for),
/// "unsupported backend" for any other kind; it requires a Service's `port` but does
/// not look it up among the Service's ports. It switches on the whole GroupKind, an
/// omitted group the core one (`ptr.OrDefault(ref.Group, "")`), so a group-less
/// `{kind: AgentgatewayBackend}` is an unsupported backend (`RefGroups::AsWritten`,
/// audited for issue 41).
const fn backend_ref(path: &'static str, unresolved: Unresolved, cite: &'static str) -> RefField {
    RefField::named(
        path,
        &[
            ("", "Service"),
            ("agentgateway.dev", "AgentgatewayBackend"),
            ("inference.networking.k8s.io", "InferencePool"),
        ],
        RefNamespaces::Any,
        unresolved,
        cite,
    )
}

// The `RefField::local` fields below are `corev1.LocalObjectReference`s (the policy's
// namespace only) to a Secret or a ConfigMap, read by name in the policy's namespace
// (`krt.FetchOne(... policy.Namespace + "/" + name)`).
const SECRET: &[(&str, &str)] = &[("", "Secret")];
const CONFIG_MAP: &[(&str, &str)] = &[("", "ConfigMap")];

/// The settings that survive a reference that does not resolve, as warnings: ext-auth
/// is kept with no server and fails closed; basic and API-key authentication are kept
/// with no users or keys (every request refused in Strict mode); a JWT provider whose
/// remote JWKS cannot be fetched is skipped, the others kept; backend TLS is kept
/// without the client certificate, a missing CA ConfigMap is skipped (the system's
/// roots when none is left). The settings left out whole (ext-proc, the global rate
/// limit, backend auth, tracing) are `DropsSetting`: the policy is refused when it
/// has no other.
const AGENTGATEWAY_POLICY_REFS: &[RefField] = &[
    backend_ref(
        "/traffic/extAuth/backendRef",
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@85d820e6 controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go (ExtAuth backendRef); controller/pkg/agentgateway/plugins/traffic_plugin.go (buildExtAuthSpec keeps the setting with no target)",
    ),
    backend_ref(
        "/traffic/extProc/backendRef",
        Unresolved::DropsSetting,
        "agentgateway/agentgateway@03824d73 controller/pkg/agentgateway/plugins/traffic_plugin.go (processExtProcPolicy: no ext-proc policy when buildBackendRef fails)",
    ),
    backend_ref(
        "/traffic/rateLimit/global/backendRef",
        Unresolved::DropsSetting,
        "agentgateway/agentgateway@03824d73 controller/pkg/agentgateway/plugins/traffic_plugin.go (processRateLimitPolicy: the global limit left out when buildBackendRef fails)",
    ),
    backend_ref(
        "/traffic/jwtAuthentication/providers/*/jwks/remote/backendRef",
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@85d820e6 controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go (RemoteJWKS backendRef: Service or Backend); controller/pkg/agentgateway/plugins/traffic_plugin.go (processJWTAuthenticationPolicy: a provider whose JWKS cannot be resolved is skipped, `continue`)",
    ),
    RefField::local(
        "/traffic/basicAuthentication/secretRef",
        SECRET,
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@85d820e6 controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go (BasicAuthentication secretRef, LocalObjectReference); controller/pkg/agentgateway/plugins/traffic_plugin.go (processBasicAuthenticationPolicy: \"basic authentication secret ... not found\", the setting kept with no users)",
    ),
    RefField::local(
        "/traffic/apiKeyAuthentication/secretRef",
        SECRET,
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@85d820e6 controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go (APIKeyAuthentication secretRef); controller/pkg/agentgateway/plugins/traffic_plugin.go (processAPIKeyAuthenticationPolicy: \"API Key secret ... not found\", the setting kept with no keys)",
    ),
    RefField::local(
        "/backend/tls/mtlsCertificateRef/*",
        SECRET,
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/backend_policies.go (translateBackendTLS: \"secret ... not found\", TLS kept without the client certificate)",
    ),
    RefField::local(
        "/backend/tls/caCertificateRefs/*",
        CONFIG_MAP,
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/backend_policies.go (translateBackendTLS: \"ConfigMap ... not found\", that CA skipped)",
    ),
    RefField::local(
        "/backend/auth/secretRef",
        SECRET,
        Unresolved::DropsSetting,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/backend_policies.go (translateBackendAuth: no auth policy when the Secret is missing)",
    ),
    RefField::local(
        "/backend/auth/aws/secretRef",
        SECRET,
        Unresolved::DropsSetting,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/backend_policies.go (buildAwsAuthPolicy returns no auth when the Secret is missing)",
    ),
    backend_ref(
        "/backend/ai/promptGuard/request/*/webhook/backendRef",
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/ai_policies.go (processWebhook: \"failed to build webhook\" when buildBackendRef fails); backend_policies.go (translateBackendAI: the request guards left out, the AI setting kept)",
    ),
    backend_ref(
        "/backend/ai/promptGuard/response/*/webhook/backendRef",
        Unresolved::DropsEntry,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/ai_policies.go (processResponseGuard: the webhook's error returned); backend_policies.go (translateBackendAI: the response guards left out, the AI setting kept)",
    ),
    backend_ref(
        "/backend/mcp/authentication/jwks/backendRef",
        Unresolved::DropsSetting,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/backend_policies.go (translateBackendMCPAuthentication: no MCP authentication policy when BuildJwksUrlAndTlsConfig fails); MCPAuthentication's `jwks` is a RemoteJWKS, its backendRef a Service or Backend",
    ),
    RefField::local(
        "/backend/auth/azure/secretRef",
        SECRET,
        Unresolved::DropsSetting,
        "kgateway-dev/kgateway@0c6aa135 pkg/agentgateway/plugins/backend_policies.go (buildAzureClientSecret returns no auth when GetSecret fails, so translateBackendAuth sends no backend auth policy, as with AWS; later agentgateway versions send it with empty client credentials instead)",
    ),
    backend_ref(
        "/frontend/tracing/backendRef",
        Unresolved::DropsSetting,
        "agentgateway/agentgateway@9ccb1390 controller/pkg/agentgateway/plugins/frontend_policies.go (translateFrontendTracing: no tracing policy when buildBackendRef fails)",
    ),
];

/// AgentgatewayPolicy as its controller reads it, whichever group ships it: labelled
/// Direct, inherited in behaviour; its sub-sections merge field by field.
pub(super) const AGENTGATEWAY_POLICY: Entry = Entry {
    kind: "AgentgatewayPolicy",
    class: Class::Inherited,
    // `frontend` configures the Gateway's listeners, `traffic` the listeners and
    // routes; only `backend` applies "when connecting to a specific destination
    // backend. Targeting a higher level resource, like Gateway, is just a way to
    // easily apply a policy to a group of backends" (AgentgatewayPolicySpec's field
    // docs, kgateway@0c6aa135 api/v1alpha1/agentgateway/agentgateway_policy_types.go).
    flow: Flow::ClientSide {
        to_backends: &["backend"],
    },
    // Its CRD's CEL: "the 'frontend' field can only target a Gateway", "the 'traffic'
    // field can only target a Gateway, ListenerSet, GRPCRoute, HTTPRoute, or
    // InferencePool" (agentgateway@005d0299 AgentgatewayPolicySpec; the docs'
    // target-merge page: "the Kubernetes API server rejects the request").
    refused_on: &[
        crd_refuses("HTTPRoute", &["frontend"]),
        crd_refuses("GRPCRoute", &["frontend"]),
        crd_refuses("ListenerSet", &["frontend"]),
        crd_refuses("XListenerSet", &["frontend"]),
        crd_refuses("InferencePool", &["frontend"]),
        crd_refuses("Service", &["frontend", "traffic"]),
        crd_refuses("AgentgatewayBackend", &["frontend", "traffic"]),
    ],
    targeting: REFS_OR_SELECTORS,
    target_kinds: &[
        "Gateway",
        "ListenerSet",
        "HTTPRoute",
        "GRPCRoute",
        "Service",
        "AgentgatewayBackend",
        "InferencePool",
    ],
    namespaces: NamespaceRule::Own,
    // targetRefs[].port: "Only valid on frontend policies targeting a Gateway", it
    // scopes the policy to the listeners on that port (agentgateway PR #2363, in
    // v1.4.1; the website's target-merge page: frontend precedence Gateway < Port <
    // Listener). A sectionName with `frontend`: refused, the API server rejecting the
    // policy, when it sets connect, http, networkAuthorization, proxyProtocol, tcp or
    // tls; accessLog, metrics and tracing may name a listener (read from v1.4.1's
    // rules as the target-merge page's "Frontend section restrictions" states them;
    // before PR #2363, agentgateway@005d0299's CEL refused any `frontend` with a
    // sectionName, and there was no `port`).
    sections: Sections::SectionNameOrPort {
        port_needs: &["/frontend"],
        no_section_name_with: &[
            "/frontend/connect",
            "/frontend/http",
            "/frontend/networkAuthorization",
            "/frontend/proxyProtocol",
            "/frontend/tcp",
            "/frontend/tls",
        ],
    },
    // Per sub-section (frontend, traffic, backend), a shallow merge by field: each
    // field of a sub-section is one rule, the more specific policy winning it.
    merge: MergeModel::KeyedFields {
        rule_paths: &["/frontend", "/traffic", "/backend"],
    },
    // Same level: the oldest, then namespace, then name (policyselection/selector.go
    // HasHigherPriority), field by field.
    same_target: SameTarget::OldestFieldWins,
    defaults_overrides: DefaultsOverrides::Inheritance,
    label: Some("Direct"),
    status_shape: "ancestors",
    note: "Labelled Direct but inherited: precedence Gateway < port < listener < route < rule < backend, each sub-section (frontend, traffic, backend) merged field by field; strategy.inheritance Override blocks more specific traffic policies. Its backend.ai.defaults/overrides are request-body fields, not GEP-713.",
    documented: "https://agentgateway.dev/docs/kubernetes/latest/reference/api/ (AgentgatewayPolicy)",
    cite: "agentgateway/agentgateway@75b4e6ce (v1.4.1) AgentgatewayPolicy API types and CEL (a targetRef's port only with frontend; no sectionName with frontend connect/http/networkAuthorization/proxyProtocol/tcp/tls: the website's target-merge page; older CRDs, @005d0299, have no port and refuse any frontend with a sectionName); policyselection/selector.go (HasHigherPriority)",
    references: AGENTGATEWAY_POLICY_REFS,
    ..BASE
};

pub(super) static ENTRIES: &[Entry] = &[AGENTGATEWAY_POLICY];
