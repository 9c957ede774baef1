//! Vendor rules that turn on more than a policy and its target: a GatewayClass merging
//! its Gateways into one proxy (Envoy Gateway: the class's EnvoyProxy parameters with
//! `mergeGateways: true`), a section matched against the port of a route's backendRef.
//! The rules are registry data (`registry::class_parameters`, `registry::when_merged`,
//! `registry::sections_by_ref_port`);
//! this module holds their shapes and reads a parameters object with them.

use crate::model::{Object, Val};

/// A kind of GatewayClass parameters object (its `spec.parametersRef`) that can merge
/// the class's Gateways into one proxy, and the boolean of its spec that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassParameters {
    pub group: &'static str,
    pub kind: &'static str,
    /// The boolean that merges the class's Gateways, as a JSON pointer into the spec.
    pub merges_gateways: &'static str,
    /// The vendor source the rule was read from.
    pub source: &'static str,
}

impl ClassParameters {
    /// Whether `object` is of this kind.
    pub fn is(&self, object: &Object) -> bool {
        object.kind == self.kind && object.group() == self.group
    }

    /// Whether parameters object `object` merges its class's Gateways (the field
    /// unset: not merged, the vendor's default).
    pub fn merges(&self, object: &Object) -> bool {
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
pub struct WhenMerged {
    /// The target kind refused while the class merges.
    pub refused: &'static str,
    /// The kind it takes instead.
    pub instead: &'static str,
    /// The status its controller writes: (condition reason, message as it writes it).
    pub reason: &'static str,
}

/// A policy kind whose `sectionName` on a target of one kind its controller matches
/// against the port a route's backendRef names, writing its status only while it
/// translates such a backendRef: a section no backendRef names gets nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionByRefPort {
    /// The policy kind (group, kind).
    pub policy: (&'static str, &'static str),
    /// The target kind (group, kind).
    pub target: (&'static str, &'static str),
    /// The vendor source the rule was read from.
    pub source: &'static str,
}

/// A policy kind whose route-level policy with `mergeType` is translated merged with
/// its closest parent policy (Envoy Gateway's BackendTrafficPolicy), the parent owning
/// each of `fields` that the route's policy leaves unset: a reference there that does
/// not resolve fails the merged translation, and the route's policy is refused with
/// the parent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergedParentFields {
    /// The policy kind (group, kind).
    pub policy: (&'static str, &'static str),
    /// The top-level spec fields the parent owns when the route's policy leaves them
    /// unset.
    pub fields: &'static [&'static str],
    /// The vendor source the rule was read from.
    pub source: &'static str,
}

/// A policy kind some of whose settings a policy of another kind replaces where both
/// attach (kgateway: a BackendTLSPolicy on a Service replaces a BackendConfigPolicy's
/// `tls` there, and kgateway reports the BackendConfigPolicy overridden): there those
/// settings are the other kind's, and the policy is Overridden for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadowedBy {
    /// The policy kind whose settings are replaced, (group, kind).
    pub policy: (&'static str, &'static str),
    /// The kind that replaces them, (group, kind).
    pub by: (&'static str, &'static str),
    /// The top-level spec fields replaced.
    pub fields: &'static [&'static str],
    /// The vendor source the rule was read from.
    pub source: &'static str,
}
