//! Azure Application Gateway for Containers: closed source; read from Microsoft's
//! documentation (learn.microsoft.com, articles/application-gateway/for-containers/).
//! The shape is the pre-GEP-2648 one: a single `targetRef` with a `namespace` and a
//! `sectionNames` list, and `default` / `override` stanzas. Labels not seen.

use super::*;

const SRC: &str = "closed source: learn.microsoft.com/azure/application-gateway/for-containers/api-specification-kubernetes";

/// An Application Gateway for Containers kind: Direct, one policy per target.
const BASE: Entry = Entry {
    group: "alb.networking.azure.io",
    class: Class::Direct,
    namespaces: NamespaceRule::AnyNamespace,
    merge: MergeModel::None,
    same_target: SameTarget::OldestWins,
    project: "Azure AGC",
    status_shape: "unknown",
    cite: SRC,
    ..Entry::INHERITED
};

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

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "BackendTLSPolicy",
        // Its client certificate and CA Secrets.
        references: BACKEND_TLS_POLICY_REFS,
        targeting: REF,
        target_kinds: SERVICE,
        // default.ports: [{port: 443}] (the backend mTLS how-to's examples).
        sections: Sections::SpecPorts {
                lists: &["/default/ports", "/override/ports"],
                whole: None,
            },
        defaults_overrides: DefaultsOverrides::DefaultAndOverride,
        note: "Not Gateway API's kind of the same name: backend TLS for a Service (ports in its settings), with default and override blocks. Several on one Service are undocumented: the oldest is taken to apply.",
        documented: "https://learn.microsoft.com/azure/application-gateway/for-containers/how-to-backend-mtls-gateway-api",
        ..BASE
    },
    Entry {
        kind: "FrontendTLSPolicy",
        // Its client-validation CA Secret.
        references: FRONTEND_TLS_POLICY_REFS,
        targeting: REF,
        target_kinds: GATEWAY,
        sections: Sections::SectionNames,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        note: "Frontend TLS for a Gateway's listeners named in sectionNames; several on one target are undocumented: the oldest is taken to apply.",
        documented: "https://learn.microsoft.com/azure/application-gateway/for-containers/tls-policy",
        ..BASE
    },
    Entry {
        kind: "HealthCheckPolicy",
        // Names no object: probe settings.
        references: &[],
        targeting: REF,
        target_kinds: SERVICE,
        sections: Sections::None,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        note: "Not GKE's or Flomesh's kind of the same name: a custom health probe for a Service.",
        documented: "https://learn.microsoft.com/azure/application-gateway/for-containers/custom-health-probe",
        ..BASE
    },
    Entry {
        kind: "RoutePolicy",
        // Names no object: session affinity and timeouts.
        references: &[],
        targeting: REF,
        target_kinds: HTTPROUTE,
        sections: Sections::None,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        note: "Route settings (session affinity, timeouts) for an HTTPRoute.",
        documented: "https://learn.microsoft.com/azure/application-gateway/for-containers/session-affinity",
        ..BASE
    },
    Entry {
        kind: "WebApplicationFirewallPolicy",
        // Names no Kubernetes object: `webApplicationFirewall.id` is an Azure resource ID.
        references: &[],
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        sections: Sections::SectionNames,
        defaults_overrides: DefaultsOverrides::None,
        note: "Binds a WAF policy to a Gateway's listeners or an HTTPRoute's rules named in sectionNames.",
        documented: "https://learn.microsoft.com/azure/application-gateway/for-containers/web-application-firewall",
        ..BASE
    },
    Entry {
        kind: "BackendLoadBalancingPolicy",
        // Names no object: load balancing settings.
        references: &[],
        targeting: REFS,
        target_kinds: SERVICE,
        sections: Sections::Ports,
        defaults_overrides: DefaultsOverrides::None,
        note: "Load balancing for a Service (2025), its targetRefs naming the ports it covers in a ports list (ports: [{port: 443}]).",
        // The examples of the load balancing strategies article: targetRefs[].ports[].port.
        documented: "https://learn.microsoft.com/azure/application-gateway/for-containers/load-balancing-strategies",
        ..BASE
    },
];
