//! `MergeModel::Accumulated`: evaluated by the data plane as a set, never merged:
//! every policy that reaches an object applies side by side (Istio's
//! AuthorizationPolicy, whose ALLOW and DENY policies the proxy evaluates together,
//! Istio docs, "Authorization Policy", and Istio's other kinds of that sort; Linkerd's
//! AuthorizationPolicy, NGINX Gateway Fabric's SnippetsPolicy, APISIX's HTTPRoutePolicy,
//! Envoy Gateway's EnvoyPatchPolicy: as their registry entries cite). The effective
//! spec holds each policy's spec under its `namespace/name`.

use super::{gep713, Stanzas};
use crate::catalog::policy::How;
use crate::effective::joining::Layer;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use crate::topology::{PolicyId, Topology};
use std::rc::Rc;

/// Policy `p`'s spec under its own name, merged rule by rule beside the others.
pub(super) fn enters(topology: &Topology, p: PolicyId, (defaults, overrides): Stanzas) -> Stanzas {
    let policy = topology.policy(p);
    let named = |stanza: Layer| Layer {
        how: How::Merge,
        value: Rc::new(Sourced::Object(vec![(
            policy.obj_ref.ns_name().into(),
            stanza.value,
        )])),
    };
    (defaults.or(overrides).map(named), None)
}

/// GEP-713's fold over the named specs: no two share a name, so all are kept.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Rc<Sourced> {
    gep713::fold(entries, &[])
}
