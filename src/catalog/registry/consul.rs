//! Consul API Gateway (hashicorp/consul-k8s @ a507b1d1, v1.9.x). No CRD carries the
//! policy label.

use super::*;

const fn gateway_policy(kind: &'static str, note: &'static str) -> KnownKind {
    KnownKind {
        group: "consul.hashicorp.com",
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REF,
        target_kinds: GATEWAY,
        // Its targetRef carries a namespace.
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::AnyNamespace,
        // In effect required: the controller looks policies up by Gateway and
        // listener name, so one without a sectionName never applies.
        sections: Sections::SectionName,
        merge: MergeModel::None,
        // One per listener: a map overwritten in list order, the last listed wins
        // (undocumented); the oldest is shown winning until that order is modelled.
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::DefaultAndOverride,
        label: None,
        project: "Consul",
        status_shape: "conditions",
        note,
        documented: "https://developer.hashicorp.com/consul/docs/connect/gateways/api-gateway/configuration/gatewaypolicy",
        source: "hashicorp/consul-k8s@a507b1d1 control-plane/api/v1alpha1/gatewaypolicy_types.go",
        // Its `default`/`override` `jwt.providers[].name` name JWTProviders, and a missing
        // one makes the policy not Accepted (binding/validation.go
        // validateGatewayPolicies @8e0f5a0e); but a provider is looked up by name alone
        // (`GetJWTProviderForGatewayJWTProvider`, a Consul config entry), not in the
        // policy's namespace as a reference here is: not checked (docs/limits.md).
        references: &[],
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    gateway_policy(
        "GatewayPolicy",
        "Settings (JWT providers in default and override blocks) for one listener of a Gateway, named by sectionName; one per listener, the controller keeping the last one it lists.",
    ),
    gateway_policy(
        "CustomGatewayPolicy",
        "The same spec as GatewayPolicy, shipped in the custom (OpenShift) CRD set consul-crd-gatewaypolicies.yaml.",
    ),
];
