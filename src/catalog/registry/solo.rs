//! Solo.io's enterprise gateways: closed source; the kinds are known from published
//! examples and workshops, and their rules are presumed to be those of the open
//! kinds they extend (kgateway's TrafficPolicy, agentgateway's AgentgatewayPolicy).

use super::*;

/// Like kgateway's TrafficPolicy (presumed).
const fn traffic(group: &'static str, kind: &'static str, note: &'static str) -> KnownKind {
    KnownKind {
        group,
        kind,
        class: Class::Inherited,
        flow: super::kgateway::ROUTE_FILTERS_ONLY,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS_OR_SELECTORS,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::KgatewayPriority,
        same_target: super::kgateway::WEIGHTED,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Solo Enterprise",
        status_shape: "unknown",
        note,
        documented: "https://docs.solo.io/gateway/latest/",
        source: "closed source: kinds from Solo.io's public workshop and demo manifests",
        // Closed source and its reference documentation was not found: the fields it
        // shares with TrafficPolicy (ext-auth, rate limits) are not presumed to be
        // refused as kgateway refuses them (docs/limits.md).
        references: &[],
    }
}

/// Like agentgateway's AgentgatewayPolicy (presumed).
const fn agent(
    group: &'static str,
    kind: &'static str,
    target_kinds: &'static [&'static str],
    note: &'static str,
) -> KnownKind {
    KnownKind {
        group,
        kind,
        target_kinds,
        label: None,
        project: "Solo Enterprise",
        status_shape: "unknown",
        note,
        documented: "https://docs.solo.io/agentgateway/latest/",
        source: "closed source: kinds from Solo.io's public workshop and demo manifests",
        ..super::agentgateway::AGENTGATEWAY_POLICY
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    traffic(
        "gloo.solo.io",
        "GlooTrafficPolicy",
        "Gloo Gateway v2's enterprise traffic policy; presumed to merge as kgateway's TrafficPolicy.",
    ),
    agent(
        "gloo.solo.io",
        "AgentgatewayEnterprisePolicy",
        GATEWAY_AND_HTTPROUTE,
        "GlooTrafficPolicy renamed for agentgateway; presumed to merge as AgentgatewayPolicy.",
    ),
    agent(
        "enterpriseagentgateway.solo.io",
        "EnterpriseAgentgatewayPolicy",
        &["Gateway", "HTTPRoute", "AgentgatewayBackend"],
        "Enterprise agentgateway's policy; presumed to merge as AgentgatewayPolicy.",
    ),
    traffic(
        "enterprisekgateway.solo.io",
        "EnterpriseKgatewayTrafficPolicy",
        "Enterprise kgateway's traffic policy (targetRefs or targetSelectors, sectionName on routes); presumed to merge as TrafficPolicy.",
    ),
];
