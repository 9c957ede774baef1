//! agentgateway (agentgateway/agentgateway @ 75b4e6ce, v1.4.1; also kgateway's
//! api/v1alpha1/agentgateway @0c6aa135, the 2.1 transitional group).

use super::*;

/// Settings its CRD's CEL refuses on a target of `kind`: the policy is refused whole.
const fn crd_refuses(kind: &'static str, fields: &'static [&'static str]) -> RefusedOn {
    RefusedOn {
        kind,
        fields,
        refuses: Refuses::WholePolicy,
    }
}

/// AgentgatewayPolicy as its controller reads it, whichever group ships it: labelled
/// Direct, inherited in behaviour; its sub-sections merge field by field.
pub(super) const AGENTGATEWAY_POLICY: KnownKind = KnownKind {
    group: "agentgateway.dev",
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
    shared_port: SharedPort::Allowed,
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
    other_target_kinds: OtherTargetKinds::NotRefused,
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
    project: "agentgateway",
    status_shape: "ancestors",
    note: "Labelled Direct but inherited: precedence Gateway < port < listener < route < rule < backend, each sub-section (frontend, traffic, backend) merged field by field; strategy.inheritance Override blocks more specific traffic policies. Its backend.ai.defaults/overrides are request-body fields, not GEP-713.",
    documented: "https://agentgateway.dev/docs/kubernetes/latest/reference/api/ (AgentgatewayPolicy)",
    source: "agentgateway/agentgateway@75b4e6ce (v1.4.1) AgentgatewayPolicy API types and CEL (a targetRef's port only with frontend; no sectionName with frontend connect/http/networkAuthorization/proxyProtocol/tcp/tls: the website's target-merge page; older CRDs, @005d0299, have no port and refuse any frontend with a sectionName); policyselection/selector.go (HasHigherPriority)",
    references: &[],
};

pub(super) static ENTRIES: &[KnownKind] = &[AGENTGATEWAY_POLICY];
