//! Gloo Gateway 1.x (gateway.solo.io): the CRDs as seen in kgateway-dev/kgateway's
//! history (install/helm/gloo/crds/).

use super::*;

/// `targetRefs`, or a route rule's `ExtensionRef` filter naming the policy.
const REFS_OR_EXTENSION_REF: Targeting = Targeting {
    extension_ref: true,
    ..REFS
};

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        group: "gateway.solo.io",
        kind: "RouteOption",
        class: Class::Inherited,
        // Route config, not the upstream clusters: its plugin is a RoutePlugin that
        // sets the options of each output route (kgateway-dev/kgateway history,
        // projects/gateway2/translator/plugins/routeoptions/route_options_plugin.go
        // `ApplyRoutePlugin`: `outputRoute.Options = routeOptions`).
        flow: Flow::ClientSide { to_backends: &[] },
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS_OR_EXTENSION_REF,
        target_kinds: &["HTTPRoute"],
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::None,
        merge: MergeModel::KeyedFields {
            rule_paths: &["/options"],
        },
        same_target: SameTarget::OldestFieldWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Options for an HTTPRoute, by targetRefs or a rule's ExtensionRef filter (the rule's win); several on one target merge by option, the oldest setting each; a route that delegates to child routes passes them down.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/routeoption/ (projects/gateway2/translator/plugins/routeoptions/query/query.go; golden outputs/route_options/merge.yaml)",
        source: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.solo.io",
        kind: "VirtualHostOption",
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::KeyedFields {
            rule_paths: &["/options"],
        },
        same_target: SameTarget::OldestFieldWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Virtual host settings for a Gateway or one of its listeners; several on one target merge by option, the oldest setting each, and a listener's beat the Gateway's option by option.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/virtualhostoption/",
        source: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.solo.io",
        kind: "ListenerOption",
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Listener-level settings for a Gateway or a single listener, with no merging across policies.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/listeneroption/",
        source: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.solo.io",
        kind: "HttpListenerOption",
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "HTTP connection settings for a Gateway or listener; one policy per target.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/httplisteneroption/",
        source: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        refs: &[],
    },
];
