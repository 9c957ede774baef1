//! Consul API Gateway (hashicorp/consul-k8s @ a507b1d1, v1.9.x). No CRD carries the
//! policy label.

use super::*;

/// A JWTProvider named in a `default` or `override` block, looked up by name alone
/// (the controller keys JWTProviders by kind and name, no namespace); one missing makes
/// the policy not Accepted (`errNotAcceptedDueToInvalidRefs`).
const fn jwt_provider(path: &'static str) -> RefField {
    RefField {
        path,
        kinds: &[("consul.hashicorp.com", "JWTProvider")],
        kind_as_written: false,
        groups: RefGroups::AsWritten,
        namespaces: RefNamespaces::ByName,
        port: false,
        unresolved: Unresolved::RefusesPolicy,
        cite: "hashicorp/consul-k8s@8e0f5a0e control-plane/api-gateway/binding/validation.go (validateGatewayPolicies: GetJWTProviderForGatewayJWTProvider, a ResourceReference of kind and name)",
    }
}

const GATEWAY_POLICY_REFS: &[RefField] = &[
    jwt_provider("/default/jwt/providers/*"),
    jwt_provider("/override/jwt/providers/*"),
];

/// A Consul gateway policy kind: settings for one listener of a Gateway.
const GATEWAY_POLICY: Entry = Entry {
    group: "consul.hashicorp.com",
    class: Class::Direct,
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
    project: "Consul",
    status_shape: "conditions",
    documented: "https://developer.hashicorp.com/consul/docs/connect/gateways/api-gateway/configuration/gatewaypolicy",
    cite: "hashicorp/consul-k8s@a507b1d1 control-plane/api/v1alpha1/gatewaypolicy_types.go",
    // Its `default`/`override` `jwt.providers[].name` name JWTProviders (a
    // namespaced CRD, crd-jwtproviders.yaml), looked up by name in any namespace.
    references: GATEWAY_POLICY_REFS,
    ..Entry::INHERITED
};

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "GatewayPolicy",
        note: "Settings (JWT providers in default and override blocks) for one listener of a Gateway, named by sectionName; one per listener, the controller keeping the last one it lists.",
        ..GATEWAY_POLICY
    },
    Entry {
        kind: "CustomGatewayPolicy",
        note: "The same spec as GatewayPolicy, shipped in the custom (OpenShift) CRD set consul-crd-gatewaypolicies.yaml.",
        ..GATEWAY_POLICY
    },
];
