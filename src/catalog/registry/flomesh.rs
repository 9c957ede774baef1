//! Flomesh FSM / FGW (flomesh-io/fsm @ f1b55bd8, v1.5.1): gateway.flomesh.io/v1alpha2,
//! every kind labelled `Direct`. Older releases' policy kinds are gone at HEAD.

use super::*;

const fn fsm(
    kind: &'static str,
    target_kinds: &'static [&'static str],
    namespaces: NamespaceRule,
    sections: Sections,
    note: &'static str,
    source: &'static str,
) -> KnownKind {
    KnownKind {
        group: "gateway.flomesh.io",
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REFS,
        target_kinds,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces,
        sections,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        project: "Flomesh",
        status_shape: "ancestors",
        note,
        documented: "https://fsm-docs.flomesh.io/",
        source,
        // Each entry below says what it names.
        references: &[],
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        // Names no object: algorithm and session persistence.
        references: &[],
        ..fsm(
            "BackendLBPolicy",
            // And implementation-specific backends.
            SERVICE_AND_IMPORT,
            NamespaceRule::Own,
            Sections::None,
            "Not Gateway API's retired kind of the same name: load balancing (algorithm, session persistence) for the backends it names.",
            "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/backendlb.go",
        )
    },
    KnownKind {
        // Names no object: health check settings per port.
        references: &[],
        ..fsm(
            "HealthCheckPolicy",
            SERVICE,
            // NamespacedPolicyTargetReference.
            NamespaceRule::AnyNamespace,
            // ports[].port in the spec; healthCheck covers every port.
            Sections::SpecPorts {
                lists: &["/ports"],
                whole: Some("/healthCheck"),
            },
            "Not GKE's or Azure's kind of the same name: health checks for the Services it names, a default one and one per port number (a ports list in its spec).",
            "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/healthcheck.go",
        )
    },
    KnownKind {
        // `filterRefs` name Filters (`LocalFilterReference`, routerulefilter.go @f62a4aad),
        // but what the controller does with one that is missing was not read: not checked.
        references: &[],
        ..fsm(
            "RouteRuleFilterPolicy",
            &["TCPRoute", "UDPRoute"],
            NamespaceRule::Own,
            Sections::Rule,
            "Filters for the rules of TCP and UDP routes, each targetRef naming one rule by name in its rule field.",
            "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/routerulefilter.go",
        )
    },
];
