//! Istio (istio/api @ b8f8791d, 1.30.3). No CRD carries the policy label. A
//! `targetRef(s).namespace` is rejected by the CRDs (CEL `self.size() == 0`); a GatewayClass
//! is reached only from the root namespace.

use super::*;

/// Istio's kinds.
const BASE: Entry = Entry {
    project: "Istio",
    ..Entry::INHERITED
};

/// Istio security/telemetry/extension kinds: a workload `selector`, or Gateway API refs.
const ISTIO_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    workload_selector: true,
    ..REF
};

/// EnvoyFilter and TrafficExtension: a workload selector or `targetRefs`.
const SELECTOR_OR_REFS: Targeting = Targeting {
    target_ref: false,
    ..ISTIO_TARGETING
};

/// A Wasm image's pull Secret, its name written as a bare string and looked up in the
/// policy's namespace (`toSecretResourceName`). One that istiod cannot read is logged
/// ("Failed to fetch docker credential") and the plugin sent without it: pulled
/// without credentials, a warning.
const fn pull_secret(path: &'static str) -> RefField {
    RefField::local(
        path,
        &[("", "Secret")],
        Unresolved::DropsEntry,
        "istio/istio@64c7327b pilot/pkg/xds/ecds.go (GeneratePullSecrets: GetDockerCredential error logged, the extension config built without it)",
    )
}

const WASM_PLUGIN_REFS: &[RefField] = &[pull_secret("/imagePullSecret")];

/// TrafficExtension's Wasm source takes WasmPlugin's pull Secret (presumed handled as
/// WasmPlugin's, which it supersedes).
const TRAFFIC_EXTENSION_REFS: &[RefField] = &[pull_secret("/wasm/imagePullSecret")];

const ISTIO_TARGETS: &[&str] = &["Gateway", "GatewayClass", "Service", "ServiceEntry"];

/// An Istio kind whose policies all apply side by side (the proxy evaluates them).
const SIDE_BY_SIDE: Entry = Entry {
    class: Class::Direct,
    target_kinds: ISTIO_TARGETS,
    // CEL on targetRef(s): "Support kinds are core/Service, gateway.networking.k8s.io/Gateway..." (type/v1beta1/selector.proto).
    other_target_kinds: OtherTargetKinds::RefusedByCrd,
    namespaces: NamespaceRule::OwnOrMeshRoot,
    sections: Sections::None,
    merge: MergeModel::Accumulated,
    defaults_overrides: DefaultsOverrides::None,
    status_shape: "conditions",
    ..BASE
};

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        group: "security.istio.io",
        kind: "AuthorizationPolicy",
        // Names no object: a CUSTOM action's `provider.name` is a MeshConfig extension
        // provider, not a Kubernetes object.
        references: &[],
        targeting: ISTIO_TARGETING,
        same_target: SameTarget::Stack,
        note: "All matching policies are evaluated together by the proxy (CUSTOM, then DENY, then ALLOW); nothing is merged.",
        documented: "https://istio.io/latest/docs/reference/config/security/authorization-policy/",
        cite: "istio/api@b8f8791d security/v1beta1/authorization.proto",
        ..SIDE_BY_SIDE
    },
    Entry {
        group: "security.istio.io",
        kind: "RequestAuthentication",
        // Names no object: JWKS come from `jwksUri` URLs or inline `jwks`.
        references: &[],
        targeting: ISTIO_TARGETING,
        same_target: SameTarget::Stack,
        note: "Every JWT rule that reaches a workload is accepted side by side; policies do not override each other.",
        documented: "https://istio.io/latest/docs/reference/config/security/request_authentication/",
        cite: "istio/api@b8f8791d security/v1beta1/request_authentication.proto",
        ..SIDE_BY_SIDE
    },
    Entry {
        group: "telemetry.istio.io",
        kind: "Telemetry",
        // Istio folds root namespace -> namespace -> workload/targetRef itself: a
        // namespace-wide Telemetry reaches every workload of its namespace and a more
        // specific one replaces it per telemetry type, which is inheritance.
        class: Class::Inherited,
        // Every level: a proxy's telemetry covers its listeners and the requests it
        // sends upstream alike (its metrics and access logs are per request, with
        // the upstream cluster among their labels), and a Service (waypoint) is
        // itself a target.
        flow: Flow::Down,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        // CEL on targetRef(s): "Support kinds are core/Service, gateway.networking.k8s.io/Gateway..." (type/v1beta1/selector.proto).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::OwnOrMeshRoot,
        sections: Sections::None,
        // Each top-level field (tracing, metrics, accessLogging) is one rule: the most
        // specific Telemetry that sets it wins it.
        merge: MergeModel::KeyedFields { rule_paths: &[] },
        // Only one selector-less Telemetry per namespace and one per workload is valid;
        // the extras are ignored (istio/istio#50414, analyzer IST0159).
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "conditions",
        note: "Applied root namespace, then namespace, then workload or targetRef: the most specific wins per telemetry type (tracing, metrics, accessLogging); of several on one workload (or selector-less in one namespace) only one is used, the others are ignored.",
        documented: "https://istio.io/latest/docs/reference/config/telemetry/ (istio/istio#50414; analyzer IST0159 ConflictingTelemetryWorkloadSelectors)",
        cite: "istio/api@b8f8791d telemetry/v1alpha1/telemetry.proto",
        // Names no object: its `providers` are MeshConfig extension provider names.
        references: &[],
        ..BASE
    },
    Entry {
        group: "extensions.istio.io",
        kind: "WasmPlugin",
        // `imagePullSecret` names a Secret of its namespace as a bare string.
        references: WASM_PLUGIN_REFS,
        targeting: ISTIO_TARGETING,
        // "applied by priority, in descending order" (within a phase).
        same_target: SameTarget::AllByPriority {
                field: "/priority",
                higher_first: true,
            },
        note: "Each plugin that selects a workload is loaded alongside the others, ordered by phase and priority.",
        documented: "https://istio.io/latest/docs/reference/config/proxy_extensions/wasm-plugin/",
        cite: "istio/api@b8f8791d extensions/v1alpha1/wasm.proto",
        ..SIDE_BY_SIDE
    },
    Entry {
        group: "networking.istio.io",
        kind: "EnvoyFilter",
        // Names no object: its `configPatches` are raw Envoy config.
        references: &[],
        targeting: SELECTOR_OR_REFS,
        // Lower priority first (negative before the default 0).
        same_target: SameTarget::AllByPriority {
                field: "/priority",
                higher_first: false,
            },
        note: "Every matching filter patches the generated Envoy config in turn, ordered by priority; none replaces another.",
        documented: "https://istio.io/latest/docs/reference/config/networking/envoy-filter/",
        cite: "istio/api@b8f8791d networking/v1alpha3/envoy_filter.proto",
        ..SIDE_BY_SIDE
    },
    Entry {
        group: "extensions.istio.io",
        kind: "TrafficExtension",
        // `wasm.imagePullSecret` is a bare string as in WasmPlugin; `lua` is inline code.
        references: TRAFFIC_EXTENSION_REFS,
        targeting: SELECTOR_OR_REFS,
        // As WasmPlugin, which it supersedes.
        same_target: SameTarget::AllByPriority {
                field: "/priority",
                higher_first: true,
            },
        note: "New in 1.30 (superseding WasmPlugin, Wasm or Lua): every extension that selects a workload is loaded, ordered by phase and priority.",
        documented: "https://istio.io/latest/docs/reference/config/proxy_extensions/",
        cite: "istio/api@b8f8791d extensions/v1alpha1/traffic_extension.proto",
        ..SIDE_BY_SIDE
    },
];
