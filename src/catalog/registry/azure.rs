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
        // Each entry below says what it names.
        references: &[],
    }
}

/// A certificate Secret named as Gateway API names one (`{group: "", kind: Secret, name}`,
/// a `namespace` too in the frontend mTLS example). The controller is closed source and
/// its documentation does not say what a policy whose Secret is missing becomes, nor
/// whether another namespace needs a ReferenceGrant: only whether it exists is judged,
/// and a warning says the outcome is undocumented.
const fn alb_secret(path: &'static str, cite: &'static str) -> RefField {
    RefField::named(
        path,
        &[("", "Secret")],
        RefNamespaces::Any,
        Unresolved::Undocumented,
        cite,
    )
}

const BACKEND_MTLS: &str =
    "https://learn.microsoft.com/azure/application-gateway/for-containers/how-to-backend-mtls-gateway-api";
const FRONTEND_MTLS: &str =
    "https://learn.microsoft.com/azure/application-gateway/for-containers/how-to-frontend-mtls-gateway-api";

/// BackendTLSPolicy: the client certificate it presents, the CA it verifies with.
const BACKEND_TLS_POLICY_REFS: &[RefField] = &[
    alb_secret("/default/clientCertificateRef", BACKEND_MTLS),
    alb_secret("/default/verify/caCertificateRef", BACKEND_MTLS),
    alb_secret("/override/clientCertificateRef", BACKEND_MTLS),
    alb_secret("/override/verify/caCertificateRef", BACKEND_MTLS),
];

/// FrontendTLSPolicy: the CA a client's certificate is verified with.
const FRONTEND_TLS_POLICY_REFS: &[RefField] = &[alb_secret(
    "/default/verify/caCertificateRef",
    FRONTEND_MTLS,
)];

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        // Its client certificate and CA Secrets.
        references: BACKEND_TLS_POLICY_REFS,
        ..alb(
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
        )
    },
    KnownKind {
        // Its client-validation CA Secret.
        references: FRONTEND_TLS_POLICY_REFS,
        ..alb(
            "FrontendTLSPolicy",
            REF,
            GATEWAY,
            Sections::SectionNames,
            DefaultsOverrides::DefaultOnly,
            "Frontend TLS for a Gateway's listeners named in sectionNames; several on one target are undocumented: the oldest is taken to apply.",
            "https://learn.microsoft.com/azure/application-gateway/for-containers/tls-policy",
        )
    },
    KnownKind {
        // Names no object: probe settings.
        references: &[],
        ..alb(
            "HealthCheckPolicy",
            REF,
            SERVICE,
            Sections::None,
            DefaultsOverrides::DefaultOnly,
            "Not GKE's or Flomesh's kind of the same name: a custom health probe for a Service.",
            "https://learn.microsoft.com/azure/application-gateway/for-containers/custom-health-probe",
        )
    },
    KnownKind {
        // Names no object: session affinity and timeouts.
        references: &[],
        ..alb(
            "RoutePolicy",
            REF,
            HTTPROUTE,
            Sections::None,
            DefaultsOverrides::DefaultOnly,
            "Route settings (session affinity, timeouts) for an HTTPRoute.",
            "https://learn.microsoft.com/azure/application-gateway/for-containers/session-affinity",
        )
    },
    KnownKind {
        // Names no Kubernetes object: `webApplicationFirewall.id` is an Azure resource ID.
        references: &[],
        ..alb(
            "WebApplicationFirewallPolicy",
            REF,
            GATEWAY_AND_HTTPROUTE,
            Sections::SectionNames,
            DefaultsOverrides::None,
            "Binds a WAF policy to a Gateway's listeners or an HTTPRoute's rules named in sectionNames.",
            "https://learn.microsoft.com/azure/application-gateway/for-containers/web-application-firewall",
        )
    },
    KnownKind {
        // Names no object: load balancing settings.
        references: &[],
        ..alb(
            "BackendLoadBalancingPolicy",
            REFS,
            SERVICE,
            Sections::Ports,
            DefaultsOverrides::None,
            "Load balancing for a Service (2025), its targetRefs naming the ports it covers in a ports list (ports: [{port: 443}]).",
            // The examples of the load balancing strategies article: targetRefs[].ports[].port.
            "https://learn.microsoft.com/azure/application-gateway/for-containers/load-balancing-strategies",
        )
    },
];
