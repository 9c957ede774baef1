//! Vendor rules that turn on more than a policy and its target: a GatewayClass merging
//! its Gateways into one proxy (Envoy Gateway: the class's EnvoyProxy parameters with
//! `mergeGateways: true`), a section matched against the port of a route's backendRef.
//! The rules are registry data: a project's `class_parameters`, an entry's
//! `when_merged`, `sections_by_ref_port`, `merged_parent_fields`, `shadowed_by` and
//! `acts_per_level`; this module holds their shapes and reads a parameters object with
//! them.

use crate::model::{Object, Val};

/// A kind of GatewayClass parameters object (its `spec.parametersRef`) that can merge
/// the class's Gateways into one proxy, and the boolean of its spec that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClassParameters {
    pub(crate) group: &'static str,
    pub(crate) kind: &'static str,
    /// The boolean that merges the class's Gateways, as a JSON pointer into the spec.
    pub(crate) merges_gateways: &'static str,
    /// The vendor source the rule was read from.
    pub(crate) cite: &'static str,
}

impl ClassParameters {
    /// Whether `object` is of this kind.
    pub(crate) fn is(&self, object: &Object) -> bool {
        object.kind == self.kind && object.group() == self.group
    }

    /// Whether parameters object `object` merges its class's Gateways (the field
    /// unset: not merged, the vendor's default).
    pub(crate) fn merges(&self, object: &Object) -> bool {
        object
            .spec
            .with(|spec| spec.pointer(self.merges_gateways).and_then(Val::as_bool))
            .unwrap_or(false)
    }
}

/// What a policy kind's controller does with a target of one kind while the target's
/// GatewayClass merges its Gateways: it refuses the policy, and takes a target of
/// another kind instead (Envoy Gateway's EnvoyPatchPolicy: a Gateway refused, its
/// GatewayClass taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WhenMerged {
    /// The target kind refused while the class merges.
    pub(crate) refused: &'static str,
    /// The kind it takes instead.
    pub(crate) instead: &'static str,
    /// The status its controller writes: (condition reason, message as it writes it).
    pub(crate) reason: &'static str,
}

/// A policy kind whose `sectionName` on a target of one kind its controller matches
/// against the port a route's backendRef names, writing its status only while it
/// translates such a backendRef: a section no backendRef names gets nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SectionByRefPort {
    /// The target kind (group, kind).
    pub(crate) target: (&'static str, &'static str),
    /// The vendor source the rule was read from.
    pub(crate) cite: &'static str,
}

/// A policy kind whose route-level policy with `mergeType` is translated merged with
/// its closest parent policy (Envoy Gateway's BackendTrafficPolicy), the parent owning
/// each of `fields` that the route's policy leaves unset: a reference there that does
/// not resolve fails the merged translation, and the route's policy is refused with
/// the parent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MergedParentFields {
    /// The top-level spec fields the parent owns when the route's policy leaves them
    /// unset.
    pub(crate) fields: &'static [&'static str],
    /// The vendor source the rule was read from.
    pub(crate) cite: &'static str,
}

/// A policy kind some of whose settings a policy of another kind replaces where both
/// attach (kgateway: a BackendTLSPolicy on a Service replaces a BackendConfigPolicy's
/// `tls` there, and kgateway reports the BackendConfigPolicy overridden): there those
/// settings are the other kind's, and the policy is Overridden for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShadowedBy {
    /// The kind that replaces them, (group, kind).
    pub(crate) by: (&'static str, &'static str),
    /// The top-level spec fields replaced.
    pub(crate) fields: &'static [&'static str],
    /// The vendor source the rule was read from.
    pub(crate) cite: &'static str,
}

/// A policy kind some of whose settings Envoy reads at every level rather than from the
/// most specific only (kgateway's TrafficPolicy: its header modifiers, and its ext-auth,
/// ext-proc, JWT and OAuth2 filters, one filter per provider). Where a less specific
/// policy and a more specific one both set such a setting, both act, unless they
/// configure the same provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ActsPerLevel {
    /// Top-level spec fields whose value at every level acts: in the effective spec each
    /// is held under the object (or section) its policy attaches to.
    pub(crate) every_level: &'static [&'static str],
    /// Top-level spec fields that configure the filter of one provider, named by the
    /// reference at `provider_ref` inside them (a name, and a namespace defaulting to
    /// the policy's): a more specific policy shadows only the same provider's. In the
    /// effective spec each is held under the provider's `namespace/name`.
    pub(crate) per_provider: &'static [&'static str],
    /// The field inside a per-provider setting that names its provider.
    pub(crate) provider_ref: &'static str,
    /// The field inside a per-provider setting that turns every provider off: where
    /// the most specific policy setting it prefers the child, the less specific
    /// levels' providers are shadowed.
    pub(crate) disables_all: &'static str,
    /// The vendor source the rule was read from.
    pub(crate) cite: &'static str,
}
