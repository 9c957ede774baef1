//! Solo.io's enterprise gateways: closed source; the kinds are known from published
//! examples and workshops, and their rules are presumed to be those of the open
//! kinds they extend (kgateway's TrafficPolicy, agentgateway's AgentgatewayPolicy).

use super::*;

const SOLO_CITE: &str = "closed source: kinds from Solo.io's public workshop and demo manifests";

/// Like kgateway's TrafficPolicy (presumed).
/// Like kgateway's TrafficPolicy (presumed).
const TRAFFIC: Entry = Entry {
    class: Class::Inherited,
    flow: super::kgateway::ROUTE_FILTERS_ONLY,
    targeting: REFS_OR_SELECTORS,
    target_kinds: GATEWAY_AND_HTTPROUTE,
    namespaces: NamespaceRule::Own,
    sections: Sections::SectionName,
    merge: MergeModel::KgatewayPriority,
    same_target: super::kgateway::WEIGHTED,
    defaults_overrides: DefaultsOverrides::None,
    project: "Solo Enterprise",
    status_shape: "unknown",
    documented: "https://docs.solo.io/gateway/latest/",
    cite: SOLO_CITE,
    // Closed source and its reference documentation was not found: the fields it
    // shares with TrafficPolicy (ext-auth, rate limits) are not presumed to be
    // refused as kgateway refuses them (docs/limits.md).
    references: &[],
    ..Entry::INHERITED
};

/// Like agentgateway's AgentgatewayPolicy (presumed).
/// Like agentgateway's AgentgatewayPolicy (presumed).
const AGENT: Entry = Entry {
    label: None,
    project: "Solo Enterprise",
    status_shape: "unknown",
    documented: "https://docs.solo.io/agentgateway/latest/",
    cite: SOLO_CITE,
    ..super::agentgateway::AGENTGATEWAY_POLICY
};

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        group: "gloo.solo.io",
        kind: "GlooTrafficPolicy",
        note: "Gloo Gateway v2's enterprise traffic policy; presumed to merge as kgateway's TrafficPolicy.",
        ..TRAFFIC
    },
    Entry {
        group: "gloo.solo.io",
        kind: "AgentgatewayEnterprisePolicy",
        target_kinds: GATEWAY_AND_HTTPROUTE,
        note: "GlooTrafficPolicy renamed for agentgateway; presumed to merge as AgentgatewayPolicy.",
        ..AGENT
    },
    Entry {
        group: "enterpriseagentgateway.solo.io",
        kind: "EnterpriseAgentgatewayPolicy",
        target_kinds: &["Gateway", "HTTPRoute", "AgentgatewayBackend"],
        note: "Enterprise agentgateway's policy; presumed to merge as AgentgatewayPolicy.",
        ..AGENT
    },
    Entry {
        group: "enterprisekgateway.solo.io",
        kind: "EnterpriseKgatewayTrafficPolicy",
        note: "Enterprise kgateway's traffic policy (targetRefs or targetSelectors, sectionName on routes); presumed to merge as TrafficPolicy.",
        ..TRAFFIC
    },
];
