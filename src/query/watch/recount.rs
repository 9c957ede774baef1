//! How a batch of changes is answered: in full (everything analysed again); by the
//! namespaces it can touch (`answer_parts`: those parts counted again, the rest kept);
//! or, for a change to policies alone, by folding their kinds again over the whole
//! hierarchy (`answer_kinds`). Which one, `rows_pending` decides.

use super::count::{count_parts, lend};
use super::parts::{leaf_flips, Part};
use super::{is_named, light, Pending, Watched};
use crate::effective::status::Own;
use crate::focus::{namespace_closure, namespaces_below, TargetPlaces};
use crate::model::{BlindSpot, FastMap, GroupKind, NamespaceLinks, ObjRef, Object, Snapshot};
use crate::query::get::policy_row;
use crate::query::{analyze, policy_rows, PolicyRow, Rebuildable, World};
use crate::topology::{PolicyId, Topology};
use rayon::prelude::*;
use std::collections::BTreeSet;

/// Rows answered again, by policy (None: the policy is gone).
type Rows = Vec<(ObjRef, Option<PolicyRow>)>;

/// Past this many namespaces, a change that reaches more than half of them is not
/// answered by namespaces.
const WIDE: usize = 8;

impl Watched {
    /// The rows of the policies the changes pending may have changed (None: gone),
    /// what the changed objects were, and the policies whose objects changed.
    pub(super) fn answer_pending(&mut self) -> (Rows, Vec<Object>, BTreeSet<ObjRef>) {
        let mut pending = std::mem::replace(&mut self.pending, Pending::new());
        let rows = self.rows_pending(&pending);
        let edited = std::mem::take(&mut pending.edited);
        (rows, std::mem::take(&mut pending.before), edited)
    }

    /// The rows of the policies `pending` may have changed (None: gone).
    fn rows_pending(&mut self, pending: &Pending) -> Vec<(ObjRef, Option<PolicyRow>)> {
        if !pending.any {
            Vec::new()
        } else if pending.full || self.parts.is_none() {
            self.answer_full()
        } else {
            let by_namespaces = match pending.wide {
                true => None,
                false => self.answer_parts(&pending.starts, &pending.before),
            };
            let by_kinds = || match &pending.policy_kinds {
                Some(kinds) if !kinds.is_empty() => Some(kinds),
                _ => None,
            };
            match by_namespaces {
                Some(rows) => {
                    self.answered.1 += 1;
                    rows
                }
                None => match by_kinds().and_then(|k| self.answer_kinds(k, &pending.before)) {
                    Some(rows) => {
                        self.answered.2 += 1;
                        rows
                    }
                    None => self.answer_full(),
                },
            }
        }
    }

    /// `objects` analysed as a world of their own, with the kinds declared.
    fn analyzed(&self, objects: Vec<Object>, blind_spots: Vec<BlindSpot>) -> Rebuildable {
        let snapshot = Snapshot {
            objects,
            blind_spots,
            pods_read_in: self.pods_read_in.clone(),
            listed: self.listed.clone(),
        };
        analyze(snapshot, &self.declared, &[])
    }

    /// Everything analysed again. Returns every policy's row, and None for the
    /// policies gone. What the answers after it are counted from is counted when its
    /// world is let go (`forget_first`: once the rows are printed, or at the next change).
    pub(super) fn answer_full(&mut self) -> Vec<(ObjRef, Option<PolicyRow>)> {
        self.forget_first();
        let (keys, objects) = std::mem::take(&mut self.objects).into_iter().unzip();
        let rows = self.answered_in_full(keys, objects);
        let world = self.world();
        let mut out: Vec<(ObjRef, Option<PolicyRow>)> = self
            .last
            .keys()
            .filter(|p| world.topology.policy_id(p).is_none())
            .map(|p| (p.clone(), None))
            .collect();
        // A row the same as the last is not answered again (an edited policy's is, by
        // `answer`, from the last).
        let last = &self.last;
        out.extend(
            rows.into_iter()
                .filter(|r| last.get(&r.policy) != Some(r))
                .map(|r| (r.policy.clone(), Some(r))),
        );
        out
    }

    /// `get`'s rows of the objects lent (`keys`, in their order; no copy is made),
    /// analysed in full; their world is kept (`first`) until `forget_first`.
    pub(super) fn answered_in_full(
        &mut self,
        keys: Vec<ObjRef>,
        objects: Vec<Object>,
    ) -> Vec<PolicyRow> {
        self.answered.0 += 1;
        let world = self.analyzed(objects, self.blind_spots.clone());
        let rows = policy_rows(&world, None);
        // What later answers read of this world: its catalog and namespaces.
        self.world = World::new(light(&world.topology));
        self.lent = keys;
        self.first = Some(world);
        rows
    }

    /// The parts a change in `starts` can touch counted again (see the module's
    /// comment). None: it must be answered in full.
    fn answer_parts(
        &mut self,
        starts: &BTreeSet<String>,
        before: &[Object],
    ) -> Option<Vec<(ObjRef, Option<PolicyRow>)>> {
        let (touched, keep) = self.namespaces_to_count(starts, before)?;
        let world = self.analyzed(self.objects_kept(&keep), Vec::new());
        let topology = &*world.topology;
        let parts = self.parts.as_mut()?;
        let exact = policies_judged_whole(topology, &self.places, &keep, &touched)?;
        let in_touched = |ns: Option<&str>| ns.is_some_and(|ns| touched.contains(ns));
        let counted = count_parts(topology, in_touched, true);
        let touched_parts: Vec<Part> = touched.iter().map(|ns| Some(ns.clone())).collect();
        let flips = leaf_flips(topology, parts, &counted, &touched_parts, &touched)?;
        let mut changed = parts.replace(counted, touched_parts);
        parts.apply_flips(topology, flips, &mut changed);
        let mut judged = parts.judge(topology, exact, &mut changed);
        // Policies gone.
        let mut out: Vec<(ObjRef, Option<PolicyRow>)> = Vec::new();
        for object in before {
            let gone = object.obj_ref();
            if !self.objects.contains_key(&gone) && self.last.contains_key(&gone) {
                parts.forget(&gone);
                changed.remove(&gone);
                out.push((gone, None));
            }
        }
        // Each policy counted again: its row (made anew when judged here, else the last)
        // with the status and reach its parts now sum to.
        for policy in changed {
            let Some(own) = parts.own.get(&policy).copied() else {
                continue;
            };
            let total = parts.total(&policy);
            let row = judged
                .remove(&policy)
                .or_else(|| self.last.get(&policy).cloned());
            if let Some(mut row) = row {
                row.status = own.status_of(&total);
                row.affects = total.objects as usize;
                out.push((policy, Some(row)));
            }
        }
        Some(out)
    }

    /// The namespaces a change in `starts` can touch (where it is counted again), and
    /// those whose objects their answer depends on (`keep`: they and every namespace
    /// above). None: the change reaches most namespaces (a Gateway many routes attach
    /// to), answered sooner by folding the kinds of the policies changed again, or in
    /// full.
    fn namespaces_to_count(
        &self,
        starts: &BTreeSet<String>,
        before: &[Object],
    ) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
        let mut links = NamespaceLinks::default();
        for o in self.objects.values().chain(before) {
            links.note(o);
        }
        let touched = namespaces_below(&links, starts);
        let keep = namespace_closure(&links, &touched);
        if keep.len() > WIDE && keep.len() * 2 > self.world.topology.namespaces().len() {
            return None;
        }
        Some((touched, keep))
    }

    /// The objects the parts in `keep` are counted on: the cluster-scoped ones, those
    /// in `keep`, and the policies elsewhere that target something there.
    fn objects_kept(&self, keep: &BTreeSet<String>) -> Vec<Object> {
        self.objects
            .iter()
            .filter(|(r, o)| match o.namespace.as_deref() {
                None => true,
                Some(ns) if keep.contains(ns) => true,
                // What a policy names across namespaces: its references judged as in full.
                Some(ns) if is_named(&self.named_across, o.group_kind(), ns) => true,
                // A policy elsewhere that targets something kept.
                Some(_) => match self.places.get(*r) {
                    Some(TargetPlaces::Within {
                        namespaces,
                        cluster,
                    }) => *cluster || !namespaces.is_disjoint(keep),
                    Some(TargetPlaces::Anywhere) => true,
                    None => false,
                },
            })
            .map(|(_, o)| o.clone())
            .collect()
    }
}

impl Watched {
    /// A change to policies of `kinds` alone: the hierarchy is as it was, and policies
    /// of other kinds fold on their own, so only these kinds are folded again, over
    /// the whole hierarchy. None: it must be answered in full.
    fn answer_kinds(
        &mut self,
        kinds: &BTreeSet<GroupKind>,
        before: &[Object],
    ) -> Option<Vec<(ObjRef, Option<PolicyRow>)>> {
        self.parts.as_ref()?;
        let kinds = &self.entangled(kinds);
        let gone = self.gone(before);
        // Every object but the policies of other kinds, lent to the analysis.
        self.forget_first();
        let places = &self.places;
        let (keys, kept) = lend(&mut self.objects, |r| {
            !places.contains_key(r) || kinds.contains(&r.group_kind())
        });
        let world = self.analyzed(kept, Vec::new());
        let out = self.fold_kinds(&world, kinds, gone);
        self.give_back(keys, world);
        Some(out)
    }

    /// The policies of `before` gone now, that had a row.
    fn gone(&self, before: &[Object]) -> Vec<ObjRef> {
        before
            .iter()
            .map(Object::obj_ref)
            .filter(|r| !self.objects.contains_key(r) && self.last.contains_key(r))
            .collect()
    }

    /// `answer_kinds` on the world of the hierarchy and the policies of `kinds`.
    fn fold_kinds(
        &mut self,
        world: &World,
        kinds: &BTreeSet<GroupKind>,
        gone: Vec<ObjRef>,
    ) -> Vec<(ObjRef, Option<PolicyRow>)> {
        let topology = &*world.topology;
        let Some(parts) = self.parts.as_mut() else {
            return Vec::new();
        };
        let counted = count_parts(topology, |_| true, false);
        let mut changed: BTreeSet<ObjRef> = BTreeSet::new();
        for (policy, per) in parts.contrib.iter_mut() {
            if !kinds.contains(&policy.group_kind()) {
                continue;
            }
            per.clear();
            changed.insert(policy.clone());
        }
        for (policy, per) in counted.contrib {
            parts.contrib.insert(policy.clone(), per);
            changed.insert(policy);
        }
        parts.own.extend(counted.own);
        let mut out: Vec<(ObjRef, Option<PolicyRow>)> = Vec::new();
        for gone in gone {
            parts.contrib.remove(&gone);
            parts.own.remove(&gone);
            changed.remove(&gone);
            out.push((gone, None));
        }
        let changed: Vec<ObjRef> = changed.into_iter().collect();
        let parts = &*parts;
        let rows: Vec<(ObjRef, Option<PolicyRow>)> = changed
            .into_par_iter()
            .with_min_len(256)
            .filter_map(|policy| {
                let id = topology.policy_id(&policy)?;
                let total = parts.total(&policy);
                let own = Own::of(topology, id);
                let row = policy_row(topology, id, own.status_of(&total), total.objects as usize);
                Some((policy, Some(row)))
            })
            .collect();
        out.extend(rows);
        out
    }
}

/// The policies of `topology` (read from the namespaces in `keep`) whose targets all
/// lie in what was read: their targets are judged here. A policy whose targets lie
/// partly outside cannot have its targets judged here; None when one of them has a
/// target where things changed (`touched`): it needs them all, in full.
fn policies_judged_whole(
    topology: &Topology,
    places: &FastMap<ObjRef, TargetPlaces>,
    keep: &BTreeSet<String>,
    touched: &BTreeSet<String>,
) -> Option<Vec<PolicyId>> {
    let mut exact: Vec<PolicyId> = Vec::new();
    for (i, p) in topology.each_policy() {
        match places.get(&p.obj_ref) {
            Some(TargetPlaces::Within { namespaces, .. }) if namespaces.is_subset(keep) => {
                exact.push(i)
            }
            Some(TargetPlaces::Within { namespaces, .. }) if namespaces.is_disjoint(touched) => {}
            _ => return None,
        }
    }
    Some(exact)
}
