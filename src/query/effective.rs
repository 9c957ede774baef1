//! `effective`: the effective spec of each policy kind at one object, per context path.

use super::*;

/// `effective`: the effective spec of each policy kind at one object, per context path.
#[derive(Clone, Debug, Serialize)]
pub struct EffectivePolicies {
    pub(crate) kind: &'static str,
    pub(crate) target: ObjRef,
    pub effective: Vec<Effective>,
    /// The sections whose effective spec differs from the object's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) sections: Vec<super::SectionEffective>,
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: Vec<BlindSpot>,
}

pub fn effective(world: &World, node: NodeId, kind: Option<&GroupKind>) -> EffectivePolicies {
    let topology = &world.topology;
    let (effective, sections) = super::sections::effective_with_sections(world, node, kind);
    EffectivePolicies {
        kind: "EffectivePolicies",
        target: topology.node(node).obj_ref.clone(),
        effective,
        sections,
        blind_spots: topology.snapshot().blind_spots.clone(),
    }
}
