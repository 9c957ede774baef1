//! GKE Gateway (GoogleCloudPlatform/gke-gateway-api @ fc40d606, the public type and CRD
//! repository). Labelled Direct, except the GCP*TLS and authorization kinds (no label)
//! and GCPRoutingExtension (`"true"`).

use super::*;

const SRC: &str = "GoogleCloudPlatform/gke-gateway-api@fc40d606";

/// A GKE kind: Direct, one policy per target.
const BASE: Entry = Entry {
    group: "networking.gke.io",
    class: Class::Direct,
    project: "GKE",
    status_shape: "unknown",
    cite: SRC,
    ..Entry::INHERITED
};

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

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "GCPBackendPolicy",
        status_shape: "ancestors",
        references: BACKEND_POLICY_REFS,
        targeting: REF,
        target_kinds: SERVICE_AND_IMPORT,
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        label: Some("Direct"),
        note: "Load balancer backend settings for a Service or ServiceImport (its targetRef may name another namespace); only a default block, one policy per backend.",
        documented: RESOURCES_DOC,
        ..BASE
    },
    Entry {
        kind: "HealthCheckPolicy",
        status_shape: "conditions",
        // Names no object: probe settings.
        references: &[],
        targeting: REF,
        target_kinds: SERVICE_AND_IMPORT,
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        label: Some("Direct"),
        note: "Health check settings for a backend Service; its default block is not a GEP-713 inherited default.",
        documented: RESOURCES_DOC,
        ..BASE
    },
    Entry {
        kind: "GCPGatewayPolicy",
        status_shape: "conditions",
        // Names no Kubernetes object: `sslPolicy` is a Google Cloud SSL policy's name.
        references: &[],
        targeting: REF,
        target_kinds: GATEWAY,
        // GKE's docs: the policy must be in the Gateway's namespace.
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        label: Some("Direct"),
        note: "Load balancer settings for a whole Gateway, in the Gateway's namespace, applied directly with no combining.",
        documented: RESOURCES_DOC,
        ..BASE
    },
    Entry {
        kind: "GCPTrafficDistributionPolicy",
        // Names no object: traffic distribution settings.
        references: &[],
        targeting: REFS,
        target_kinds: SERVICE,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::DefaultOnly,
        label: Some("Direct"),
        note: "Traffic distribution (load balancing across zones and backends) for a Service; one policy per Service.",
        documented: RESOURCES_DOC,
        ..BASE
    },
    Entry {
        kind: "GCPSessionAffinityPolicy",
        // Names no object: affinity settings.
        references: &[],
        targeting: REF,
        target_kinds: SERVICE,
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        note: "Session affinity for a Service (route rules use the GCPSessionAffinityFilter instead, by ExtensionRef).",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources#configure_session_affinity",
        ..BASE
    },
    Entry {
        kind: "GCPTrafficExtension",
        // Its callout Services.
        references: EXTENSION_REFS,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        note: "A policy kind whose name does not end in Policy: callouts chained on a Gateway's traffic; every extension applies, the first whose match fits handles a request.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gke-service-extensions",
        ..BASE
    },
    Entry {
        kind: "GCPRoutingExtension",
        // Its callout Services.
        references: EXTENSION_REFS,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("true"),
        note: "A policy kind whose name does not end in Policy, labelled with the non-standard value \"true\": routing callouts on a Gateway, chained as GCPTrafficExtension's.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gke-service-extensions",
        ..BASE
    },
    Entry {
        kind: "GCPAuthzPolicy",
        references: AUTHZ_POLICY_REFS,
        targeting: REFS_OR_POD_SELECTOR,
        target_kinds: &["Gateway", "Pod"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        note: "Authorization for a Gateway or for the Pods a label selector picks; every policy is evaluated (ALLOW, DENY, CUSTOM, DENY_BY_DEFAULT), none replaces another.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        ..BASE
    },
    Entry {
        kind: "GCPClientTLSPolicy",
        // Names no object: SANs and a TLS mode (gcpclienttlspolicy_types.go).
        references: &[],
        targeting: REFS,
        target_kinds: &["Service", "Namespace"],
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        note: "Backend TLS for a Service (or one of its ports) or a whole Namespace: a port's beats its Service's, which beats its Namespace's; at one level the oldest applies.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        ..BASE
    },
    Entry {
        kind: "GCPServerTLSPolicy",
        // Names no object: an mTLS mode and port overrides (gcpservertlspolicy_types.go).
        references: &[],
        targeting: REFS_OR_POD_SELECTOR,
        target_kinds: &["Pod", "Namespace"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        note: "Server TLS for the Pods a label selector picks (or a whole Namespace with an empty selector), exactly one targetRef: a workload port's beats its workload's, which beats its Namespace's; at one level the oldest creationTimestamp applies.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        ..BASE
    },
];
