//! Azure Application Gateway for Containers: closed source; read from Microsoft's
//! documentation (learn.microsoft.com, articles/application-gateway/for-containers/).
//! The shape is the pre-GEP-2648 one: a single `targetRef` with a `namespace` and a
//! `sectionNames` list, and `default` / `override` stanzas. Labels not seen.

use super::*;

const SRC: &str = "closed source: learn.microsoft.com/azure/application-gateway/for-containers/api-specification-kubernetes";

#[allow(clippy::too_many_arguments)]
const fn alb(
    kind: &'static str,
    targeting: Targeting,
    target_kinds: &'static [&'static str],
    sections: Sections,
    defaults_overrides: DefaultsOverrides,
    note: &'static str,
    documented: &'static str,
) -> KnownKind {
    KnownKind {
        group: "alb.networking.azure.io",
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting,
        target_kinds,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::AnyNamespace,
        sections,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides,
        label: None,
        project: "Azure AGC",
        status_shape: "unknown",
        note,
        documented,
        source: SRC,
        references: &[],
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    alb(
        "BackendTLSPolicy",
        REF,
        SERVICE,
        // default.ports: [{port: 443}] (the backend mTLS how-to's examples).
        Sections::SpecPorts {
            lists: &["/default/ports", "/override/ports"],
            whole: None,
        },
        DefaultsOverrides::DefaultAndOverride,
        "Not Gateway API's kind of the same name: backend TLS for a Service (ports in its settings), with default and override blocks. Several on one Service are undocumented: the oldest is taken to apply.",
        "https://learn.microsoft.com/azure/application-gateway/for-containers/how-to-backend-mtls-gateway-api",
    ),
    alb(
        "FrontendTLSPolicy",
        REF,
        GATEWAY,
        Sections::SectionNames,
        DefaultsOverrides::DefaultOnly,
        "Frontend TLS for a Gateway's listeners named in sectionNames; several on one target are undocumented: the oldest is taken to apply.",
        "https://learn.microsoft.com/azure/application-gateway/for-containers/tls-policy",
    ),
    alb(
        "HealthCheckPolicy",
        REF,
        SERVICE,
        Sections::None,
        DefaultsOverrides::DefaultOnly,
        "Not GKE's or Flomesh's kind of the same name: a custom health probe for a Service.",
        "https://learn.microsoft.com/azure/application-gateway/for-containers/custom-health-probe",
    ),
    alb(
        "RoutePolicy",
        REF,
        HTTPROUTE,
        Sections::None,
        DefaultsOverrides::DefaultOnly,
        "Route settings (session affinity, timeouts) for an HTTPRoute.",
        "https://learn.microsoft.com/azure/application-gateway/for-containers/session-affinity",
    ),
    alb(
        "WebApplicationFirewallPolicy",
        REF,
        GATEWAY_AND_HTTPROUTE,
        Sections::SectionNames,
        DefaultsOverrides::None,
        "Binds a WAF policy to a Gateway's listeners or an HTTPRoute's rules named in sectionNames.",
        "https://learn.microsoft.com/azure/application-gateway/for-containers/web-application-firewall",
    ),
    alb(
        "BackendLoadBalancingPolicy",
        REFS,
        SERVICE,
        Sections::Ports,
        DefaultsOverrides::None,
        "Load balancing for a Service (2025), its targetRefs naming the ports it covers in a ports list (ports: [{port: 443}]).",
        // The examples of the load balancing strategies article: targetRefs[].ports[].port.
        "https://learn.microsoft.com/azure/application-gateway/for-containers/load-balancing-strategies",
    ),
];
