//! `get -w`: the objects as the watches last saw them, and `get`'s rows answered again
//! after each batch of changes; only the rows whose status, targets or reach changed
//! are handed back.
//!
//! A change is answered incrementally. A policy's status and reach are sums over the
//! objects it reaches (its tally over the most specific ones, the objects counted), so
//! they are kept per namespace of those objects (`Contribution`s). A change to objects
//! in namespace N can only alter what is counted in N and the namespaces below it (where
//! its descendants live, `namespaces_below`): those parts are counted again on the
//! objects their answer depends on (their namespaces and every namespace above, as
//! `describe` narrows), and the other parts are kept. One thing outside those parts can
//! change: an object above them that gains its first child or loses its last stops or
//! starts being a most specific object; the edges are counted per namespace too, so
//! that is seen and its part corrected. A change that may reach anywhere (a cluster-scoped
//! object, a policy on one, a fresh list after 410) is answered in full, as is every
//! change when some policy selects targets across namespaces. Tests hold the answers
//! equal to `get`'s on the whole input after every change.

use super::get::policy_row;
use super::{analyze, get_policies, PolicyRow, World};
use crate::catalog::Declared;
use crate::effective::status::{contributions, leaf_contributions_at, Contribution, Own};
use crate::focus::{namespace_closure, namespaces_below, target_places, TargetPlaces};
use crate::model::{BlindSpot, GroupKind, NamespaceLinks, ObjRef, Object, Snapshot};
use crate::source::live::watch::Change;
use crate::topology::{NodeId, PolicyId, Topology};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Past this many namespaces, a change that reaches more than half of them is not
/// answered by namespaces.
const WIDE: usize = 8;

/// The part of a topology a node is counted in: the namespace of its object (None:
/// cluster-scoped).
type Part = Option<String>;

/// The objects the watches last saw, and the rows last answered from them.
pub struct Watched {
    objects: BTreeMap<ObjRef, Object>,
    blind_spots: Vec<BlindSpot>,
    /// The namespaces whose Pods the first read listed (`Snapshot::pods_read_in`).
    pods_read_in: BTreeSet<String>,
    declared: Vec<Declared>,
    /// Per policy, its last row (`get -w` compares their targets, status and reach).
    last: BTreeMap<ObjRef, PolicyRow>,
    /// What the last answer in full knew of the world: its catalog (which tells
    /// policies from the rest) and its namespaces; no objects.
    world: World,
    /// The world of the first answer, whole, until `forget_first`.
    first: Option<World>,
    /// What is counted per part; None: every change is answered in full.
    parts: Option<Parts>,
    pending: Pending,
    /// Where each policy's targets lie (read once per version of the policy).
    places: HashMap<ObjRef, TargetPlaces>,
    /// How many answers were computed in full, how many from the namespaces a change
    /// could touch, how many from the policies of the kinds changed.
    pub answered: (usize, usize, usize),
}

/// What changed since the last answer.
#[derive(Default)]
struct Pending {
    /// Some object changed.
    any: bool,
    /// Everything must be answered in full (a fresh list, a cluster-scoped object).
    full: bool,
    /// A policy on a cluster-scoped target changed: what it reaches is not a few
    /// namespaces.
    wide: bool,
    /// The namespaces of the objects changed (and of the targets of the policies).
    starts: BTreeSet<String>,
    /// What the changed objects were.
    before: Vec<Object>,
    /// The kinds of the policies changed; None once another object changed.
    policy_kinds: Option<BTreeSet<GroupKind>>,
}

impl Pending {
    fn new() -> Pending {
        Pending {
            policy_kinds: Some(BTreeSet::new()),
            ..Pending::default()
        }
    }
}

/// Per policy, what each part contributes to its status and reach, how its targets
/// resolved; per part, the hierarchy's edges from a node to a child counted there.
#[derive(Default)]
struct Parts {
    contrib: HashMap<ObjRef, BTreeMap<Part, Contribution>>,
    by_part: HashMap<Part, BTreeSet<ObjRef>>,
    own: HashMap<ObjRef, Own>,
    /// Per part of the children: each node of another part (by reference) with
    /// children in that part, and how many.
    edges: HashMap<Part, HashMap<ObjRef, u32>>,
}

/// What one batch of changes did to `get`'s rows.
pub struct Answer<'w> {
    /// A world the rows can be looked up in (for "not found" hints).
    pub world: &'w World,
    /// The rows that changed (new policies included), in `get`'s order.
    pub changed: Vec<PolicyRow>,
    /// Policies gone, as their last rows.
    pub deleted: Vec<PolicyRow>,
    /// The objects now held (the changed rows' policies among them).
    objects: &'w BTreeMap<ObjRef, Object>,
    /// The policies gone, as last seen.
    gone: Vec<Object>,
}

impl Answer<'_> {
    /// The object of a row answered: the policy as it is now, or as last seen if gone
    /// (what `get -w -o json` prints the row as).
    pub fn object(&self, policy: &ObjRef) -> Option<&Object> {
        self.objects
            .get(policy)
            .or_else(|| self.gone.iter().rev().find(|o| o.obj_ref() == *policy))
    }
}

impl Watched {
    /// The objects of the first read (settled or not), analysed in full.
    pub fn new(snapshot: Snapshot, declared: &[Declared]) -> Watched {
        let objects = snapshot
            .objects
            .into_iter()
            .map(|o| (o.obj_ref(), o))
            .collect();
        let mut watched = Watched {
            objects,
            blind_spots: snapshot.blind_spots,
            pods_read_in: snapshot.pods_read_in,
            declared: declared.to_vec(),
            last: BTreeMap::new(),
            world: World::new(Topology::default()),
            first: None,
            parts: None,
            pending: Pending {
                any: true,
                full: true,
                ..Pending::new()
            },
            answered: (0, 0, 0),
            places: HashMap::new(),
        };
        watched.answer();
        watched
    }

    /// Every policy's row, as last answered, in `get`'s order.
    pub fn rows(&self) -> Vec<PolicyRow> {
        let mut rows: Vec<PolicyRow> = self.last.values().cloned().collect();
        rows.sort_by(row_order);
        rows
    }

    /// A policy's object as the watches last saw it.
    pub fn object(&self, policy: &ObjRef) -> Option<&Object> {
        self.objects.get(policy)
    }

    /// The world of the first answer (what the command line's TYPE and names are read
    /// against), until `forget_first`.
    pub fn world(&self) -> &World {
        self.first.as_ref().unwrap_or(&self.world)
    }

    /// Lets the first answer's world go (a copy of every object).
    pub fn forget_first(&mut self) {
        self.first = None;
    }

    /// Applies a batch of changes to the objects; returns whether any object changed,
    /// and the blind spots it brings that were not known (each is said once).
    pub fn apply(&mut self, changes: Vec<Change>) -> (bool, Vec<BlindSpot>) {
        let mut new_spots = Vec::new();
        let mut changed = false;
        for change in changes {
            match change {
                Change::Applied(o) => {
                    let o = settled(o);
                    changed = true;
                    let now = o.clone();
                    let before = self.objects.insert(o.obj_ref(), o);
                    self.note(Some(&now), before);
                }
                Change::Deleted(r) => {
                    if let Some(before) = self.objects.remove(&r) {
                        changed = true;
                        self.note(None, Some(before));
                    }
                }
                // A fresh list (the first of a watch, or after 410 Gone) is what changed
                // since: the objects it no longer has, and those that differ.
                Change::Relisted { list, objects } => {
                    // Pods listed in a namespace for the first time (a Pod-picking
                    // policy came there): its policies now know its Pods were read.
                    if let Some(ns) = list.namespace.as_ref().filter(|_| list.is_pods()) {
                        if self.pods_read_in.insert(ns.clone()) {
                            changed = true;
                            self.pending.any = true;
                            self.pending.full = true;
                        }
                    }
                    let listed: BTreeMap<ObjRef, Object> = objects
                        .into_iter()
                        .map(|o| {
                            let o = settled(o);
                            (o.obj_ref(), o)
                        })
                        .collect();
                    let gone: Vec<ObjRef> = self
                        .objects
                        .iter()
                        .filter(|(r, o)| list.covers(o) && !listed.contains_key(*r))
                        .map(|(r, _)| r.clone())
                        .collect();
                    for r in gone {
                        if let Some(before) = self.objects.remove(&r) {
                            changed = true;
                            self.note(None, Some(before));
                        }
                    }
                    for (r, o) in listed {
                        if self.objects.get(&r).is_some_and(|old| same(old, &o)) {
                            continue;
                        }
                        changed = true;
                        let now = o.clone();
                        let before = self.objects.insert(r, o);
                        self.note(Some(&now), before);
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

    /// Notes what one object's change can touch.
    fn note(&mut self, now: Option<&Object>, before: Option<Object>) {
        let catalog = &self.world.topology.catalog;
        let pending = &mut self.pending;
        pending.any = true;
        for o in now.into_iter().chain(before.as_ref()) {
            let Some(ns) = o.namespace.as_deref() else {
                pending.full = true;
                continue;
            };
            pending.starts.insert(ns.to_string());
            if !catalog.is_policy(o) {
                pending.policy_kinds = None;
                continue;
            }
            if let Some(kinds) = &mut pending.policy_kinds {
                kinds.insert(o.group_kind());
            }
            match target_places(o) {
                TargetPlaces::Within { namespaces, .. } => pending.starts.extend(namespaces),
                // Its targets may be anywhere: no change can be answered in parts again.
                TargetPlaces::Anywhere => pending.full = true,
            }
            // A cluster-scoped target (a GatewayClass; a Namespace for a Direct kind,
            // which attaches to the Namespace itself): anywhere below it.
            let direct = catalog
                .get(&o.group_kind())
                .is_some_and(|k| k.class == crate::catalog::Class::Direct);
            if targets_cluster_scoped(o, direct) {
                pending.wide = true;
            }
        }
        pending.before.extend(before.clone());
        if let Some(o) = now.or(before.as_ref()) {
            let r = o.obj_ref();
            match now {
                Some(o) if catalog.is_policy(o) => {
                    self.places.insert(r, target_places(o));
                }
                _ => {
                    self.places.remove(&r);
                }
            }
        }
    }

    /// `get`'s rows answered again from the objects as they are now, and those of them
    /// (and the policies gone) that differ from the last answer in status, targets or
    /// reach.
    pub fn answer(&mut self) -> Answer<'_> {
        let pending = std::mem::replace(&mut self.pending, Pending::new());
        let rows = if !pending.any {
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
        };
        let mut changed = Vec::new();
        let mut deleted = Vec::new();
        for (policy, row) in rows {
            match row {
                Some(r) => {
                    let same = self.last.get(&policy).is_some_and(|old| {
                        (&old.targets, old.status, old.affects) == (&r.targets, r.status, r.affects)
                    });
                    if !same {
                        changed.push(r.clone());
                    }
                    self.last.insert(policy, r);
                }
                None => deleted.extend(self.last.remove(&policy)),
            }
        }
        changed.sort_by(row_order);
        deleted.sort_by(row_order);
        let mut gone = pending.before;
        gone.retain(|o| deleted.iter().any(|r| r.policy == o.obj_ref()));
        Answer {
            world: &self.world,
            changed,
            deleted,
            objects: &self.objects,
            gone,
        }
    }

    /// `objects` analysed as a world of their own, with the kinds declared.
    fn analyzed(&self, objects: Vec<Object>, blind_spots: Vec<BlindSpot>) -> World {
        let snapshot = Snapshot {
            objects,
            blind_spots,
            links_released: false,
            pods_read_in: self.pods_read_in.clone(),
        };
        analyze(snapshot, &self.declared, &[])
    }

    /// Everything analysed again; every part counted again. Returns every policy's row,
    /// and None for the policies gone.
    fn answer_full(&mut self) -> Vec<(ObjRef, Option<PolicyRow>)> {
        self.answered.0 += 1;
        let objects = self.objects.values().cloned().collect();
        let world = self.analyzed(objects, self.blind_spots.clone());
        let topology = &*world.topology;
        self.places = topology
            .each_policy()
            .map(|(_, p)| {
                (
                    p.obj_ref.clone(),
                    target_places(&topology.snapshot.objects[p.object]),
                )
            })
            .collect();
        let anywhere = self.places.values().any(|p| *p == TargetPlaces::Anywhere);
        self.parts =
            (!anywhere).then(|| count_parts(topology, |n| Some(part_of(topology, n)), true));
        // The rows from what was counted (the same sums a change is answered from),
        // else as `get` computes them.
        let rows = match &self.parts {
            Some(parts) => topology
                .each_policy()
                .map(|(i, p)| {
                    let total = parts.total(&p.obj_ref);
                    let own = Own::of(topology, i);
                    policy_row(topology, i, own.status_of(&total), total.objects as usize)
                })
                .collect(),
            None => get_policies(&world, None),
        };
        let mut out: Vec<(ObjRef, Option<PolicyRow>)> = self
            .last
            .keys()
            .filter(|p| !topology.policy_index.contains_key(*p))
            .map(|p| (p.clone(), None))
            .collect();
        out.extend(rows.into_iter().map(|r| (r.policy.clone(), Some(r))));
        // What later answers read of this world: its catalog and namespaces. The rest
        // (a second copy of every object, the hierarchy) is let go, but for the first
        // answer's, which `world` hands out until `forget_first`.
        let light = Topology {
            catalog: topology.catalog.clone(),
            namespaces: topology.namespaces.clone(),
            ..Topology::default()
        };
        self.world = World::new(light);
        if self.answered.0 == 1 {
            self.first = Some(world);
        }
        out
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
        let in_touched = |node: NodeId| -> Option<Part> {
            let ns = part_of(topology, node)?;
            touched.contains(&ns).then_some(Some(ns))
        };
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
        if keep.len() > WIDE && keep.len() * 2 > self.world.topology.namespaces.len() {
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

impl Parts {
    /// What every part contributes to `policy`.
    fn total(&self, policy: &ObjRef) -> Contribution {
        let mut total = Contribution::default();
        for c in self
            .contrib
            .get(policy)
            .into_iter()
            .flat_map(BTreeMap::values)
        {
            total.add(c);
        }
        total
    }

    /// The parts counted again (`touched`) replace what was counted there. Returns the
    /// policies counted in them, before or now.
    fn replace(&mut self, mut counted: Parts, touched: Vec<Part>) -> BTreeSet<ObjRef> {
        let mut changed: BTreeSet<ObjRef> = BTreeSet::new();
        for part in touched {
            for policy in self.by_part.remove(&part).unwrap_or_default() {
                if let Some(c) = self.contrib.get_mut(&policy) {
                    c.remove(&part);
                }
                changed.insert(policy);
            }
            match counted.edges.remove(&part) {
                Some(e) => self.edges.insert(part, e),
                None => self.edges.remove(&part),
            };
        }
        for (policy, per) in counted.contrib {
            for (part, c) in per {
                self.by_part
                    .entry(part.clone())
                    .or_default()
                    .insert(policy.clone());
                self.contrib
                    .entry(policy.clone())
                    .or_default()
                    .insert(part, c);
            }
            changed.insert(policy);
        }
        changed
    }

    /// A node that became, or stopped being, one of the most specific: its part gains
    /// or loses what it adds there, for each policy (noted in `changed`).
    fn apply_flips(
        &mut self,
        topology: &Topology,
        flips: Vec<Flip>,
        changed: &mut BTreeSet<ObjRef>,
    ) {
        for Flip { node, id, leaf } in flips {
            let part: Part = node.namespace.as_deref().map(str::to_string);
            for (p, c) in leaf_contributions_at(topology, id) {
                let policy = topology.policies[p].obj_ref.clone();
                let per = self.contrib.entry(policy.clone()).or_default();
                let mine = per.entry(part.clone()).or_default();
                match leaf {
                    true => mine.add(&c),
                    false => mine.subtract(&c),
                }
                if mine.is_empty() {
                    per.remove(&part);
                } else {
                    self.by_part
                        .entry(part.clone())
                        .or_default()
                        .insert(policy.clone());
                }
                changed.insert(policy);
            }
        }
    }

    /// The policies whose targets were judged whole (`exact`): what they say of
    /// themselves is read again, and their rows made anew (noted in `changed`); their
    /// status and reach are the parts' sums, set afterwards.
    fn judge(
        &mut self,
        topology: &Topology,
        exact: Vec<PolicyId>,
        changed: &mut BTreeSet<ObjRef>,
    ) -> BTreeMap<ObjRef, PolicyRow> {
        let mut rows: BTreeMap<ObjRef, PolicyRow> = BTreeMap::new();
        for i in exact {
            let policy = topology.policies[i].obj_ref.clone();
            self.own.insert(policy.clone(), Own::of(topology, i));
            rows.insert(
                policy.clone(),
                policy_row(
                    topology,
                    i,
                    Own::of(topology, i).status_of(&Contribution::default()),
                    0,
                ),
            );
            changed.insert(policy);
        }
        rows
    }

    /// A policy gone: nothing is counted for it any more.
    fn forget(&mut self, policy: &ObjRef) {
        self.contrib.remove(policy);
        self.own.remove(policy);
        for set in self.by_part.values_mut() {
            set.remove(policy);
        }
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
        let kept: Vec<Object> = self
            .objects
            .iter()
            .filter(|(r, _)| !self.places.contains_key(*r) || kinds.contains(&r.group_kind()))
            .map(|(_, o)| o.clone())
            .collect();
        let world = self.analyzed(kept, Vec::new());
        let topology = &*world.topology;
        let parts = self.parts.as_mut()?;
        let counted = count_parts(topology, |n| Some(part_of(topology, n)), false);
        let mut changed: BTreeSet<ObjRef> = BTreeSet::new();
        for (policy, per) in parts.contrib.iter_mut() {
            if !kinds.contains(&policy.group_kind()) {
                continue;
            }
            for part in per.keys() {
                if let Some(set) = parts.by_part.get_mut(part) {
                    set.remove(policy);
                }
            }
            per.clear();
            changed.insert(policy.clone());
        }
        for (policy, per) in counted.contrib {
            for part in per.keys() {
                parts
                    .by_part
                    .entry(part.clone())
                    .or_default()
                    .insert(policy.clone());
            }
            parts.contrib.insert(policy.clone(), per);
            changed.insert(policy);
        }
        parts.own.extend(counted.own);
        let mut out: Vec<(ObjRef, Option<PolicyRow>)> = Vec::new();
        for object in before {
            let gone = object.obj_ref();
            if !self.objects.contains_key(&gone) && self.last.contains_key(&gone) {
                parts.contrib.remove(&gone);
                parts.own.remove(&gone);
                changed.remove(&gone);
                out.push((gone, None));
            }
        }
        for policy in changed {
            let Some(&id) = topology.policy_index.get(&policy) else {
                continue;
            };
            let total = parts.total(&policy);
            let own = Own::of(topology, id);
            let row = policy_row(topology, id, own.status_of(&total), total.objects as usize);
            out.push((policy, Some(row)));
        }
        Some(out)
    }
}

/// The policies of `topology` (read from the namespaces in `keep`) whose targets all
/// lie in what was read: their targets are judged here. A policy whose targets lie
/// partly outside cannot have its targets judged here; None when one of them has a
/// target where things changed (`touched`): it needs them all, in full.
fn policies_judged_whole(
    topology: &Topology,
    places: &HashMap<ObjRef, TargetPlaces>,
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

/// A node outside the parts counted again that became (`leaf`), or stopped being, one
/// of the most specific objects: its children there were all it had.
struct Flip {
    node: ObjRef,
    id: NodeId,
    leaf: bool,
}

/// The nodes above the parts counted again (`touched_parts`, the namespaces
/// `touched`) that gained their first child or lost their last, from the edges into
/// those parts as last counted (`parts`) and now (`counted`). None: such a node is not
/// in what was read (nothing has been changed yet: answered otherwise).
fn leaf_flips(
    topology: &Topology,
    parts: &Parts,
    counted: &Parts,
    touched_parts: &[Part],
    touched: &BTreeSet<String>,
) -> Option<Vec<Flip>> {
    // Per node above the parts counted again: its children there, before and now.
    let mut counts: HashMap<&ObjRef, (u32, u32)> = HashMap::new();
    for part in touched_parts {
        for (parent, n) in parts.edges.get(part).into_iter().flatten() {
            counts.entry(parent).or_default().0 += n;
        }
        for (parent, n) in counted.edges.get(part).into_iter().flatten() {
            counts.entry(parent).or_default().1 += n;
        }
    }
    let mut flips: Vec<Flip> = Vec::new();
    for (parent, (old, new)) in counts {
        if parent
            .namespace
            .as_deref()
            .is_some_and(|ns| touched.contains(ns))
            || (old > 0) == (new > 0)
        {
            continue;
        }
        // Each such node is in what was read (it is above a part counted again).
        let id = topology.lookup(parent)?;
        // Its children elsewhere: in its own namespace (read whole), or counted
        // in parts not counted again.
        let mine = part_of(topology, id);
        let at_home = topology
            .skeleton
            .children(id)
            .iter()
            .any(|&c| part_of(topology, c) == mine);
        let elsewhere = parts
            .edges
            .iter()
            .filter(|(part, _)| !part.as_ref().is_some_and(|ns| touched.contains(ns)))
            .any(|(_, e)| e.contains_key(parent));
        if !at_home && !elsewhere {
            flips.push(Flip {
                node: parent.clone(),
                id,
                leaf: new == 0,
            });
        }
    }
    Some(flips)
}

/// The namespace of the object `node` is or belongs to; None: cluster-scoped.
fn part_of(topology: &Topology, node: NodeId) -> Option<String> {
    let object = topology.skeleton.object(node);
    topology.nodes[object]
        .obj_ref
        .namespace
        .as_deref()
        .map(str::to_string)
}

/// What the parts `counted` picks contribute, per policy (by reference), and the edges
/// into them.
fn count_parts(
    topology: &Topology,
    counted: impl Fn(NodeId) -> Option<Part>,
    edges: bool,
) -> Parts {
    let mut parts = Parts::default();
    // Parts by number, for the fold.
    let mut numbers: HashMap<Part, u32> = HashMap::new();
    let mut names: Vec<Part> = Vec::new();
    let part_of: Vec<Option<u32>> = NodeId::all(topology.nodes.len())
        .map(|node| {
            counted(node).map(|part| {
                *numbers.entry(part.clone()).or_insert_with(|| {
                    names.push(part);
                    names.len() as u32 - 1
                })
            })
        })
        .collect();
    for (i, per) in contributions(topology, &part_of).into_iter().enumerate() {
        let policy = topology.policies[PolicyId::at(i)].obj_ref.clone();
        let mut mine = BTreeMap::new();
        for (part, c) in per {
            let part = names[part as usize].clone();
            parts
                .by_part
                .entry(part.clone())
                .or_default()
                .insert(policy.clone());
            mine.insert(part, c);
        }
        parts
            .own
            .insert(policy.clone(), Own::of(topology, PolicyId::at(i)));
        parts.contrib.insert(policy, mine);
    }
    let mut per_part: Vec<HashMap<ObjRef, u32>> = vec![HashMap::new(); names.len()];
    for child in NodeId::all(topology.nodes.len()).filter(|_| edges) {
        let Some(part) = part_of[child.index()] else {
            continue;
        };
        for &parent in topology.skeleton.parents(child) {
            if part_of[parent.index()] != Some(part) {
                *per_part[part as usize]
                    .entry(topology.nodes[parent].obj_ref.clone())
                    .or_default() += 1;
            }
        }
    }
    parts.edges = names.into_iter().zip(per_part).collect();
    parts
}

/// Whether a policy names a cluster-scoped target: a GatewayClass; a Namespace, for a
/// `direct` kind (an inherited one applies in the namespace's objects).
fn targets_cluster_scoped(policy: &Object, direct: bool) -> bool {
    use crate::catalog::policy::{read_targets, TargetSpec};
    let empty = crate::model::Map::new();
    policy.spec.with(|spec| {
        let spec = spec.as_object().unwrap_or(&empty);
        read_targets(spec, policy.namespace.as_deref(), &mut Vec::new())
            .iter()
            .any(|t| {
                matches!(t, TargetSpec::Ref(r)
                    if r.namespace.is_none() && (direct || &*r.kind != "Namespace"))
            })
    })
}

/// `get`'s order: namespace, name, kind, group.
fn row_order(a: &PolicyRow, b: &PolicyRow) -> std::cmp::Ordering {
    let key = |r: &PolicyRow| {
        (
            r.policy.namespace.clone(),
            r.policy.name.clone(),
            r.policy.kind.clone(),
            r.policy.group.clone(),
        )
    };
    key(a).cmp(&key(b))
}

/// Whether two versions of an object say the same (a route's or backend's links, once
/// settled, stand for its spec).
fn same(a: &Object, b: &Object) -> bool {
    a.api_version == b.api_version
        && a.labels == b.labels
        && a.annotations == b.annotations
        && (&a.uid, a.generation) == (&b.uid, b.generation)
        && a.creation_timestamp == b.creation_timestamp
        && a.spec == b.spec
        && a.status == b.status
        && a.links.get() == b.links.get()
}

/// An object as the snapshot of a read holds it (`Snapshot::settle`).
fn settled(object: Object) -> Object {
    let mut s = Snapshot {
        objects: vec![object],
        ..Snapshot::default()
    };
    s.settle();
    // Settling builds each object in place: the one object is still there.
    s.objects.swap_remove(0)
}
