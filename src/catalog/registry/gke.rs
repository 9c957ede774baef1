//! GKE Gateway (GoogleCloudPlatform/gke-gateway-api @ fc40d606, the public type and CRD
//! repository). Labelled Direct, except the GCP*TLS and authorization kinds (no label)
//! and GCPRoutingExtension (`"true"`).

use super::*;

const SRC: &str = "GoogleCloudPlatform/gke-gateway-api@fc40d606";

/// A GKE kind: Direct, one policy per target.
#[allow(clippy::too_many_arguments)]
const fn gke(
    kind: &'static str,
    targeting: Targeting,
    target_kinds: &'static [&'static str],
    namespaces: NamespaceRule,
    sections: Sections,
    merge: MergeModel,
    same_target: SameTarget,
    defaults_overrides: DefaultsOverrides,
    label: Option<&'static str>,
    note: &'static str,
    documented: &'static str,
) -> KnownKind {
    KnownKind {
        group: "networking.gke.io",
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting,
        target_kinds,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces,
        sections,
        merge,
        same_target,
        defaults_overrides,
        label,
        project: "GKE",
        status_shape: "unknown",
        note,
        documented,
        source: SRC,
        // Each entry below says what it names.
        references: &[],
    }
}

/// A `targetRefs` list whose entries may pick Pods by a label `selector`
/// (`PolicyTargetReferenceWithLabelSelectors`: `{kind: Pod, selector: {matchLabels}}`).
const REFS_OR_POD_SELECTOR: Targeting = Targeting {
    pod_selector: true,
    ..REFS
};

const RESOURCES_DOC: &str =
    "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources";

/// GKE's controller is closed source and its documentation names these fields but not
/// what a policy whose reference does not resolve becomes: a warning that says so.
/// GCPBackendPolicy's IAP client secret, a Secret of the policy's namespace named by
/// `name` alone ("Namespace will be supported in the future",
/// apis/networking/v1/gcpbackendpolicy_types.go `Oauth2ClientSecret`).
const BACKEND_POLICY_REFS: &[RefField] = &[RefField::local(
    "/default/iap/oauth2ClientSecret",
    &[("", "Secret")],
    Unresolved::Undocumented,
    "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources#configure_iap (GoogleCloudPlatform/gke-gateway-api@067db6f1 apis/networking/v1/gcpbackendpolicy_types.go)",
)];

/// A service extension's callout Service (`backendRef`, group "" and kind Service in
/// the documentation's examples). Neither its namespace rule nor whether its port must
/// be one of the Service's is documented: only whether it exists is judged.
const EXTENSION_REFS: &[RefField] = &[RefField::named(
    "/extensionChains/*/extensions/*/backendRef",
    &[("", "Service")],
    RefNamespaces::Any,
    Unresolved::Undocumented,
    "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gke-service-extensions",
)];

/// GCPAuthzPolicy's CUSTOM providers: `customProviders.extensionRefs`, Gateway API
/// `LocalObjectReference`s (group and kind written, the policy's namespace) to
/// authorization extensions. Its public types do not define the kind they name; GKE's
/// documentation names `GCPAuthzExtension` (`networking.gke.io`) in its CUSTOM example,
/// and not what becomes of a policy whose extension is missing.
const AUTHZ_POLICY_REFS: &[RefField] = &[RefField::named(
    "/customProviders/extensionRefs/*",
    &[("networking.gke.io", "GCPAuthzExtension")],
    RefNamespaces::Own,
    Unresolved::Undocumented,
    "GoogleCloudPlatform/gke-gateway-api@5e7b070e apis/networking/v1/gcpauthzpolicy_types.go (GCPAuthzPolicyCustomProviders.ExtensionRefs, []gwv1.LocalObjectReference); the kind GCPAuthzExtension (networking.gke.io) as GKE's authorization-extension documentation's CUSTOM example names it",
)];

pub(super) static ENTRIES: &[KnownKind] = &[
    KnownKind {
        status_shape: "ancestors",
        references: BACKEND_POLICY_REFS,
        ..gke(
            "GCPBackendPolicy",
            REF,
            SERVICE_AND_IMPORT,
            NamespaceRule::AnyNamespace,
            Sections::None,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::DefaultOnly,
            Some("Direct"),
            "Load balancer backend settings for a Service or ServiceImport (its targetRef may name another namespace); only a default block, one policy per backend.",
            RESOURCES_DOC,
        )
    },
    KnownKind {
        status_shape: "conditions",
        // Names no object: probe settings.
        references: &[],
        ..gke(
            "HealthCheckPolicy",
            REF,
            SERVICE_AND_IMPORT,
            NamespaceRule::AnyNamespace,
            Sections::None,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::DefaultOnly,
            Some("Direct"),
            "Health check settings for a backend Service; its default block is not a GEP-713 inherited default.",
            RESOURCES_DOC,
        )
    },
    KnownKind {
        status_shape: "conditions",
        // Names no Kubernetes object: `sslPolicy` is a Google Cloud SSL policy's name.
        references: &[],
        ..gke(
            "GCPGatewayPolicy",
            REF,
            GATEWAY,
            // GKE's docs: the policy must be in the Gateway's namespace.
            NamespaceRule::Own,
            Sections::None,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::DefaultOnly,
            Some("Direct"),
            "Load balancer settings for a whole Gateway, in the Gateway's namespace, applied directly with no combining.",
            RESOURCES_DOC,
        )
    },
    KnownKind {
        // Names no object: traffic distribution settings.
        references: &[],
        ..gke(
            "GCPTrafficDistributionPolicy",
            REFS,
            SERVICE,
            NamespaceRule::Own,
            Sections::None,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::DefaultOnly,
            Some("Direct"),
            "Traffic distribution (load balancing across zones and backends) for a Service; one policy per Service.",
            RESOURCES_DOC,
        )
    },
    KnownKind {
        // Names no object: affinity settings.
        references: &[],
        ..gke(
            "GCPSessionAffinityPolicy",
            REF,
            SERVICE,
            NamespaceRule::AnyNamespace,
            Sections::None,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::None,
            Some("Direct"),
            "Session affinity for a Service (route rules use the GCPSessionAffinityFilter instead, by ExtensionRef).",
            "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources#configure_session_affinity",
        )
    },
    KnownKind {
        // Its callout Services.
        references: EXTENSION_REFS,
        ..gke(
            "GCPTrafficExtension",
            REFS,
            GATEWAY,
            NamespaceRule::Own,
            Sections::None,
            MergeModel::Accumulated,
            SameTarget::Stack,
            DefaultsOverrides::None,
            Some("Direct"),
            "A policy kind whose name does not end in Policy: callouts chained on a Gateway's traffic; every extension applies, the first whose match fits handles a request.",
            "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gke-service-extensions",
        )
    },
    KnownKind {
        // Its callout Services.
        references: EXTENSION_REFS,
        ..gke(
            "GCPRoutingExtension",
            REFS,
            GATEWAY,
            NamespaceRule::Own,
            Sections::None,
            MergeModel::Accumulated,
            SameTarget::Stack,
            DefaultsOverrides::None,
            Some("true"),
            "A policy kind whose name does not end in Policy, labelled with the non-standard value \"true\": routing callouts on a Gateway, chained as GCPTrafficExtension's.",
            "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gke-service-extensions",
        )
    },
    KnownKind {
        references: AUTHZ_POLICY_REFS,
        ..gke(
            "GCPAuthzPolicy",
            REFS_OR_POD_SELECTOR,
            &["Gateway", "Pod"],
            NamespaceRule::Own,
            Sections::None,
            MergeModel::Accumulated,
            SameTarget::Stack,
            DefaultsOverrides::None,
            None,
            "Authorization for a Gateway or for the Pods a label selector picks; every policy is evaluated (ALLOW, DENY, CUSTOM, DENY_BY_DEFAULT), none replaces another.",
            "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        )
    },
    KnownKind {
        // Names no object: SANs and a TLS mode (gcpclienttlspolicy_types.go).
        references: &[],
        ..gke(
            "GCPClientTLSPolicy",
            REFS,
            &["Service", "Namespace"],
            NamespaceRule::Own,
            Sections::SectionName,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::None,
            None,
            "Backend TLS for a Service (or one of its ports) or a whole Namespace: a port's beats its Service's, which beats its Namespace's; at one level the oldest applies.",
            "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        )
    },
    KnownKind {
        // Names no object: an mTLS mode and port overrides (gcpservertlspolicy_types.go).
        references: &[],
        ..gke(
            "GCPServerTLSPolicy",
            REFS_OR_POD_SELECTOR,
            &["Pod", "Namespace"],
            NamespaceRule::Own,
            Sections::None,
            MergeModel::None,
            SameTarget::OldestWins,
            DefaultsOverrides::None,
            None,
            "Server TLS for the Pods a label selector picks (or a whole Namespace with an empty selector), exactly one targetRef: a workload port's beats its workload's, which beats its Namespace's; at one level the oldest creationTimestamp applies.",
            "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        )
    },
];
