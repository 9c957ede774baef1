//! Apache APISIX ingress controller (apache/apisix-ingress-controller @ d510f665,
//! 2.2.0). No CRD carries the policy label.

use super::*;

/// APISIX's kinds.
const BASE: Entry = Entry {
    group: "apisix.apache.org",
    project: "APISIX",
    ..Entry::INHERITED
};

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "BackendTrafficPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        namespaces: NamespaceRule::Own,
        // A Service port, by its name.
        sections: Sections::SectionName,
        merge: MergeModel::None,
        // One per Service (or port): APISIX keeps whichever its Go map yields first,
        // not the oldest; the oldest is shown winning, as no order can be known.
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "Not Envoy Gateway's kind of the same name: upstream settings for a Service or one of its ports; of several on one target one applies (picked in Go map order, not by age) and the others are Conflicted.",
        documented: "https://apisix.apache.org/docs/ingress-controller/reference/api-reference/#backendtrafficpolicy",
        cite: "apache/apisix-ingress-controller@d510f665 api/v1alpha1/backendtrafficpolicy_types.go; internal/controller/policies.go",
        // Names no object: load balancing, scheme, retries, timeouts, host (its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "HTTPRoutePolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["HTTPRoute", "Ingress"],
        namespaces: NamespaceRule::Own,
        // A route rule, by its name.
        sections: Sections::SectionName,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::AllConflictedOnMismatch { field: "/priority" },
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "Route priority and variables for an HTTPRoute (or one rule) or an Ingress; several on one rule stack, but if their priority fields differ all of them are Conflicted.",
        documented: "https://apisix.apache.org/docs/ingress-controller/reference/api-reference/#httproutepolicy",
        cite: "apache/apisix-ingress-controller@d510f665 api/v1alpha1/httproutepolicy_types.go",
        // Names no object: a priority and request `vars` (its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "L4RoutePolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["TCPRoute", "UDPRoute", "TLSRoute"],
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "New in 2.2.0: settings for a TCP, UDP or TLS route; the oldest on one target applies (\"conflicts with ... created earlier\").",
        documented: "https://apisix.apache.org/docs/ingress-controller/reference/api-reference/",
        cite: "apache/apisix-ingress-controller@d510f665 api/v1alpha1/l4routepolicy_types.go",
        // Names no object: APISIX stream plugins by plugin name (its API type).
        references: &[],
        ..BASE
    },
];
