//! Flomesh FSM / FGW (flomesh-io/fsm @ f1b55bd8, v1.5.1): gateway.flomesh.io/v1alpha2,
//! every kind labelled `Direct`. Older releases' policy kinds are gone at HEAD.

use super::*;

const fn fsm(
    kind: &'static str,
    target_kinds: &'static [&'static str],
    sections: Sections,
    note: &'static str,
    source: &'static str,
) -> KnownKind {
    KnownKind {
        group: "gateway.flomesh.io",
        kind,
        class: Class::Direct,
        targeting: REFS,
        target_kinds,
        namespaces: NamespaceRule::Own,
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
        refs: &[],
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    fsm(
        "BackendLBPolicy",
        SERVICE,
        Sections::None,
        "Not Gateway API's retired kind of the same name: load balancing for the backend Services it names.",
        "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/backendlb.go",
    ),
    fsm(
        "HealthCheckPolicy",
        SERVICE,
        Sections::Ports,
        "Not GKE's or Azure's kind of the same name: health checks for the ports (a ports list) of the Services it names.",
        "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/healthcheck.go",
    ),
    fsm(
        "RouteRuleFilterPolicy",
        &["TCPRoute", "UDPRoute"],
        Sections::Rule,
        "Filters for the rules (a rule field on each targetRef) of TCP and UDP routes.",
        "flomesh-io/fsm@f1b55bd8 pkg/apis/policyattachment/v1alpha2/routerulefilter.go",
    ),
];
