//! Flomesh FSM / FGW (flomesh-io/fsm @ f1b55bd8, v1.5.1): gateway.flomesh.io/v1alpha2,
//! every kind labelled `Direct`. Older releases' policy kinds are gone at HEAD.

use super::*;

/// A Flomesh kind: Direct, a `targetRefs` list, one policy per target.
const BASE: Entry = Entry {
    group: "gateway.flomesh.io",
    class: Class::Direct,
    targeting: REFS,
    merge: MergeModel::None,
    same_target: SameTarget::OldestWins,
    defaults_overrides: DefaultsOverrides::None,
    label: Some("Direct"),
    project: "Flomesh",
    status_shape: "ancestors",
    documented: "https://fsm-docs.flomesh.io/",
    ..Entry::INHERITED
};

/// RouteRuleFilterPolicy's `filterRefs` (`LocalFilterReference`: group
/// `extension.gateway.flomesh.io`, kind `Filter`, its CRD's enums). The gateway's config
/// generator looks each Filter up by name in the route's namespace, which is the
/// policy's (its targetRefs are local), and skips one it cannot get (`continue`), the
/// rule's other filters kept; nothing in the policy's status says so.
const ROUTE_RULE_FILTER_POLICY_REFS: &[RefField] = &[RefField::named(
    "/filterRefs/*",
    &[("extension.gateway.flomesh.io", "Filter")],
    RefNamespaces::Own,
    Unresolved::DropsEntry,
    "flomesh-io/fsm@b624ed84 pkg/gateway/processor/v2/tcproute.go and udproute.go (toV2TCPRouteFilters: a Filter FilterRefToFilter cannot get is skipped, `continue`); route_filter_policy.go (Process returns the policy's filterRefs); pkg/gateway/utils (FilterRefToFilter: the route's namespace, \"Failed to get Filter\" logged); pkg/apis/policyattachment/v1alpha2 (LocalFilterReference enums)",
)];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "BackendLBPolicy",
        // Names no object: algorithm and session persistence.
        references: &[],
        // And implementation-specific backends.
        target_kinds: SERVICE_AND_IMPORT,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        note: "Not Gateway API's retired kind of the same name: load balancing (algorithm, session persistence) for the backends it names.",
        cite: "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/backendlb.go",
        ..BASE
    },
    Entry {
        kind: "HealthCheckPolicy",
        // Names no object: health check settings per port.
        references: &[],
        target_kinds: SERVICE,
        // NamespacedPolicyTargetReference.
        namespaces: NamespaceRule::AnyNamespace,
        // ports[].port in the spec; healthCheck covers every port.
        sections: Sections::SpecPorts {
                lists: &["/ports"],
                whole: Some("/healthCheck"),
            },
        note: "Not GKE's or Azure's kind of the same name: health checks for the Services it names, a default one and one per port number (a ports list in its spec).",
        cite: "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/healthcheck.go",
        ..BASE
    },
    Entry {
        kind: "RouteRuleFilterPolicy",
        references: ROUTE_RULE_FILTER_POLICY_REFS,
        target_kinds: &["TCPRoute", "UDPRoute"],
        namespaces: NamespaceRule::Own,
        sections: Sections::Rule,
        note: "Filters for the rules of TCP and UDP routes, each targetRef naming one rule by name in its rule field.",
        cite: "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/routerulefilter.go",
        ..BASE
    },
];
