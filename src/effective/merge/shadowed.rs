//! Settings of one kind that a policy of another kind replaces where both attach
//! (`catalog::merged::ShadowedBy`: kgateway's BackendConfigPolicy `tls` under a
//! BackendTLSPolicy on the same Service). There the policy enters the fold without
//! them, and counts them among what it could set: it is Overridden for them.

use crate::model::{Map, Val};
use crate::topology::{NodeId, PolicyId, Topology};

/// Policy `p`'s `spec` without the settings a policy of the replacing kind attached at
/// `at` (or at the object `at` is a section of) replaces; `None` where nothing does.
pub(crate) fn without_shadowed(
    topology: &Topology,
    p: PolicyId,
    at: NodeId,
    spec: &Val,
) -> Option<Val> {
    let rule = topology.kind_of(p).entry.shadowed_by?;
    let nodes = [Some(at), topology.node(at).owner];
    let replaced = nodes.into_iter().flatten().any(|n| {
        topology.attached_to(n).iter().any(|&q| {
            let gk = &topology.policy(q).kind;
            gk.group == rule.by.0 && gk.kind == rule.by.1
        })
    });
    let fields = spec.as_object()?;
    if !replaced || !rule.fields.iter().any(|f| fields.contains_key(f)) {
        return None;
    }
    let kept: Map = fields
        .iter()
        .filter(|(k, _)| !rule.fields.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Val::Object(kept))
}
