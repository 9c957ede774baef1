//! What `get -w` counts per part of the hierarchy (`count_parts`), where each policy's
//! targets lie, and the objects lent to an analysis.

use super::{Part, Parts};
use crate::effective::status::{contributions, Contribution, Own};
use crate::focus::{target_places, TargetPlaces};
use crate::model::{FastMap, ObjRef, Object};
use crate::topology::{NodeId, PolicyId, Topology};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Where the targets of each policy of `topology` lie: as `known` (kept as each
/// policy changed), else read.
pub(super) fn places_now(
    mut known: FastMap<ObjRef, TargetPlaces>,
    topology: &Topology,
) -> FastMap<ObjRef, TargetPlaces> {
    let place = |p: &crate::catalog::policy::Policy| target_places(topology.object(p.object));
    let mut read: Vec<(usize, TargetPlaces)> = topology
        .policies()
        .par_iter()
        .with_min_len(256)
        .enumerate()
        .filter(|(_, p)| !known.contains_key(&p.obj_ref))
        .map(|(i, p)| (i, place(p)))
        .collect();
    read.reverse();
    let mut places = FastMap::default();
    places.reserve(topology.policies().len());
    for (i, p) in topology.policies().iter().enumerate() {
        let at = match read.last() {
            Some((j, _)) if *j == i => read.pop().map(|(_, at)| at),
            _ => known.remove(&p.obj_ref),
        };
        places.insert(p.obj_ref.clone(), at.unwrap_or_else(|| place(p)));
    }
    places
}

/// The objects `keep` picks, moved out of `objects` to be analysed (no copy), with
/// their references; `Watched::give_back` returns them.
pub(super) fn lend(
    objects: &mut BTreeMap<ObjRef, Object>,
    keep: impl Fn(&ObjRef) -> bool,
) -> (Vec<ObjRef>, Vec<Object>) {
    type Entries = Vec<(ObjRef, Object)>;
    let (kept, rest): (Entries, Entries) = std::mem::take(objects)
        .into_iter()
        .partition(|(r, _)| keep(r));
    *objects = rest.into_iter().collect();
    kept.into_iter().unzip()
}

/// What the parts `counted` picks contribute, per policy (by reference), and the edges
/// into them.
pub(super) fn count_parts(
    topology: &Topology,
    counted: impl Fn(Option<&str>) -> bool,
    edges: bool,
) -> Parts {
    let mut parts = Parts::default();
    // Parts by number, for the fold: each node's is its object's namespace's, if
    // counted (one lookup per namespace met; a section's object is the node before).
    let mut numbers: FastMap<Option<&str>, Option<u32>> = FastMap::default();
    let mut names: Vec<Part> = Vec::new();
    let mut last: Option<(NodeId, Option<u32>)> = None;
    let part_of: Vec<Option<u32>> = NodeId::all(topology.nodes().len())
        .map(|node| {
            let object = topology.skeleton().object(node);
            match last {
                Some((o, part)) if o == object => part,
                _ => {
                    let ns = topology.node(object).obj_ref.namespace.as_deref();
                    let part = *numbers.entry(ns).or_insert_with(|| {
                        counted(ns).then(|| {
                            names.push(ns.map(str::to_string));
                            names.len() as u32 - 1
                        })
                    });
                    last = Some((object, part));
                    part
                }
            }
        })
        .collect();
    // Edges into each part from a node of another, counted by node (named below) while
    // the policies fold.
    let (folded, per_node) = rayon::join(
        || contributions(topology, &part_of),
        || match edges {
            true => edges_by_node(topology, &part_of),
            false => FastMap::default(),
        },
    );
    // Each policy's parts, on every core.
    let counted: Vec<(ObjRef, BTreeMap<Part, Contribution>, Own)> = folded
        .into_par_iter()
        .with_min_len(256)
        .enumerate()
        .map(|(i, per)| {
            let id = PolicyId::at(i);
            let mine = per
                .into_iter()
                .map(|(part, c)| (names[part as usize].clone(), c))
                .collect();
            (
                topology.policy(id).obj_ref.clone(),
                mine,
                Own::of(topology, id),
            )
        })
        .collect();
    parts.contrib.reserve(counted.len());
    parts.own.reserve(counted.len());
    for (policy, mine, own) in counted {
        parts.own.insert(policy.clone(), own);
        parts.contrib.insert(policy, mine);
    }
    let mut per_part: Vec<FastMap<ObjRef, u32>> = vec![FastMap::default(); names.len()];
    for ((part, parent), n) in per_node {
        *per_part[part as usize]
            .entry(topology.node(parent).obj_ref.clone())
            .or_default() += n;
    }
    parts.edges = names.into_iter().zip(per_part).collect();
    parts
}

/// Per part (by number) and node of another part: how many of its children are in it.
fn edges_by_node(topology: &Topology, part_of: &[Option<u32>]) -> FastMap<(u32, NodeId), u32> {
    let mut per_node: FastMap<(u32, NodeId), u32> = FastMap::default();
    for child in NodeId::all(topology.nodes().len()) {
        let Some(part) = part_of[child.index()] else {
            continue;
        };
        for &parent in topology.skeleton().parents(child) {
            if part_of[parent.index()] != Some(part) {
                *per_node.entry((part, parent)).or_default() += 1;
            }
        }
    }
    per_node
}
