//! `get -w`: the objects as the watches last saw them, and `get`'s rows answered again
//! after each batch of changes; only the rows whose status, targets or reach changed
//! are handed back.

use super::{analyze, get_policies, PolicyRow, World};
use crate::catalog::Declared;
use crate::effective::PolicyStatus;
use crate::model::{BlindSpot, ObjRef, Object, Snapshot};
use crate::source::live::watch::Change;
use std::collections::BTreeMap;

/// The objects the watches last saw, and the rows last answered from them.
pub struct Watched {
    objects: BTreeMap<ObjRef, Object>,
    blind_spots: Vec<BlindSpot>,
    declared: Vec<Declared>,
    /// Per policy, its last row (`get -w` compares their targets, status and reach).
    last: BTreeMap<ObjRef, PolicyRow>,
}

#[derive(Clone, Debug, PartialEq)]
struct Seen {
    targets: Vec<ObjRef>,
    status: PolicyStatus,
    affects: usize,
}

impl Seen {
    fn of(r: &PolicyRow) -> Seen {
        Seen {
            targets: r.targets.clone(),
            status: r.status,
            affects: r.affects,
        }
    }
}

/// What one batch of changes did to `get`'s rows.
pub struct Answer {
    /// The world the rows were answered from.
    pub world: World,
    /// The rows that changed (new policies included), in `get`'s order.
    pub changed: Vec<PolicyRow>,
    /// Policies gone, as their last rows.
    pub deleted: Vec<PolicyRow>,
}

impl Watched {
    /// The objects of the first read (settled or not) and the rows answered from them
    /// (`rows`: every policy's, whatever `get` shows).
    pub fn new(snapshot: Snapshot, declared: &[Declared], rows: &[PolicyRow]) -> Watched {
        let objects = snapshot
            .objects
            .into_iter()
            .map(|o| (o.obj_ref(), o))
            .collect();
        Watched {
            objects,
            blind_spots: snapshot.blind_spots,
            declared: declared.to_vec(),
            last: rows.iter().map(|r| (r.policy.clone(), r.clone())).collect(),
        }
    }

    /// Applies a batch of changes to the objects; returns the blind spots it brings that
    /// were not known (each is said once). Whether anything changed: `changed`.
    pub fn apply(&mut self, changes: Vec<Change>) -> (bool, Vec<BlindSpot>) {
        let mut new_spots = Vec::new();
        let mut changed = false;
        for c in changes {
            match c {
                Change::Applied(o) => {
                    let o = settled(o);
                    changed = true;
                    self.objects.insert(o.obj_ref(), o);
                }
                Change::Deleted(r) => changed |= self.objects.remove(&r).is_some(),
                Change::Relisted { list, objects } => {
                    changed = true;
                    self.objects.retain(|_, o| !list.covers(o));
                    for o in objects {
                        let o = settled(o);
                        self.objects.insert(o.obj_ref(), o);
                    }
                }
                Change::Blind(spot) => {
                    if !self.blind_spots.contains(&spot) {
                        self.blind_spots.push(spot.clone());
                        new_spots.push(spot);
                    }
                }
            }
        }
        (changed, new_spots)
    }

    /// `get`'s rows answered again from the objects as they are now, and those of them
    /// (and the policies gone) that differ from the last answer in status, targets or
    /// reach.
    pub fn answer(&mut self) -> Answer {
        let snapshot = Snapshot {
            objects: self.objects.values().cloned().collect(),
            blind_spots: self.blind_spots.clone(),
            links_released: false,
        };
        let world = analyze(snapshot, &self.declared, &[]);
        let rows = get_policies(&world, None);
        let mut now: BTreeMap<ObjRef, PolicyRow> = BTreeMap::new();
        let mut changed = Vec::new();
        for r in rows {
            let before = self.last.get(&r.policy).map(Seen::of);
            if before.as_ref() != Some(&Seen::of(&r)) {
                changed.push(r.clone());
            }
            now.insert(r.policy.clone(), r);
        }
        let old = std::mem::replace(&mut self.last, now);
        let deleted = old
            .into_iter()
            .filter(|(p, _)| !self.last.contains_key(p))
            .map(|(_, row)| row)
            .collect();
        Answer {
            world,
            changed,
            deleted,
        }
    }
}

/// An object as the snapshot of a read holds it (`Snapshot::settle`).
fn settled(o: Object) -> Object {
    let mut s = Snapshot {
        objects: vec![o],
        ..Snapshot::default()
    };
    s.settle();
    s.objects.remove(0)
}
