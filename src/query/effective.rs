//! `effective`: the effective spec of each policy kind at one object, per context path.

use super::*;

/// `effective`: the effective spec of each policy kind at one object, per context path.
#[derive(Clone, Debug, Serialize)]
pub struct EffectivePolicies {
    pub kind: &'static str,
    pub target: ObjRef,
    pub effective: Vec<Effective>,
    #[serde(rename = "blindSpots")]
    pub blind_spots: Vec<BlindSpot>,
}

pub fn effective(w: &World, n: NodeId, kind: Option<&GroupKind>) -> EffectivePolicies {
    let t = &w.topology;
    let mut effective = Vec::new();
    for k in KindFold::kinds_in_use(t) {
        if kind.is_some_and(|want| *want != k) {
            continue;
        }
        let mut f = KindFold::new(t, &k);
        effective.extend(
            f.effective_at(n)
                .iter()
                .map(|g| Effective::from_group(w, g)),
        );
    }
    EffectivePolicies {
        kind: "EffectivePolicies",
        target: t.nodes[n].obj_ref.clone(),
        effective,
        blind_spots: t.snapshot.blind_spots.clone(),
    }
}
