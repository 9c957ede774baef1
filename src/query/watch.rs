//! `get -w`: the objects as the watches last saw them, and `get`'s rows answered again
//! after each batch of changes; only the rows that changed, or whose policies' objects
//! did, are handed back (`answer`; which of them are printed: `events`).
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
//!
//! Here: the state (`Watched`: the objects as last seen, the rows last answered, what
//! changed since) and how a batch of changes is noted. How it is answered (in full, by
//! parts, by kinds): `recount`; what is kept per part: `parts`, counted by `count`;
//! what a batch did to the rows: `answer`; which rows are printed: `events`.

mod answer;
mod count;
mod entangled;
pub mod events;
mod parts;
mod recount;
mod unwatched;

pub use answer::Answer;

use super::{PolicyRow, Rebuildable, World};
use crate::catalog::Declared;
use crate::focus::{target_places, TargetPlaces};
use crate::model::watch::{Change, WatchList};
use crate::model::FastMap;
use crate::model::{BlindSpot, GroupKind, ObjRef, Object, Snapshot};
use crate::topology::Topology;
use count::{count_parts, places_now};
use parts::{Part, Parts};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// The objects the watches last saw, and the rows last answered from them.
pub struct Watched {
    /// The objects, but for those lent to the last answer in full's world (`lent`).
    objects: BTreeMap<ObjRef, Object>,
    /// The references of the objects the last answer in full's world holds (`first`),
    /// in its order: they are taken back at the next change or `forget_first`.
    lent: Vec<ObjRef>,
    blind_spots: Vec<BlindSpot>,
    /// The namespaces whose Pods the first read listed (`Snapshot::pods_read_in`).
    pods_read_in: BTreeSet<String>,
    /// The kinds the first read listed, and where (`Snapshot::listed`).
    listed: Option<BTreeSet<crate::model::Listed>>,
    declared: Vec<Declared>,
    /// Per policy, its last row (what a batch's rows are compared with).
    last: FastMap<ObjRef, PolicyRow>,
    /// What the last answer in full knew of the world: its catalog (which tells
    /// policies from the rest) and its namespaces; no objects.
    world: World,
    /// The world of the last answer in full (the first table's, or a change's), whole
    /// (its objects lent), until `forget_first` or the next change: what the answers
    /// after it are counted from is counted from it then.
    first: Option<Rebuildable>,
    /// What is counted per part; None: every change is answered in full.
    parts: Option<Parts>,
    pending: Pending,
    /// Where each policy's targets lie (read once per version of the policy).
    places: FastMap<ObjRef, TargetPlaces>,
    /// What policies name in another namespace than their own (a Secret there), as of
    /// the last answer in full: a change to one is answered in full.
    named_across: BTreeSet<(GroupKind, Option<String>)>,
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
    /// The policies whose objects changed (their items change, whatever their rows).
    edited: BTreeSet<ObjRef>,
}

impl Pending {
    fn new() -> Pending {
        Pending {
            policy_kinds: Some(BTreeSet::new()),
            ..Pending::default()
        }
    }
}

/// What the policies among `objects` name in another namespace than their own (`None`:
/// in any namespace, a kind named by name alone), and what those references rest on
/// there (`focus::resting_on`: the ReferenceGrants, a BackendTLSPolicy's CA), read on
/// every core. A reference one step further (`catalog::Further`) is among them: what a
/// kgateway GatewayExtension names, the BackendTLSPolicy on an ext-auth Service.
fn named_across(objects: &[Object]) -> BTreeSet<(GroupKind, Option<String>)> {
    objects
        .par_iter()
        .with_min_len(1024)
        .fold(BTreeSet::new, |mut out, policy| {
            let named = crate::focus::referenced(std::slice::from_ref(policy));
            for (gk, ns) in named {
                if ns.is_some() && policy.namespace.as_deref() == ns.as_deref() {
                    continue;
                }
                // What the reference rests on there (its grants, a BackendTLSPolicy's
                // CA), judged in full with it.
                if let Some(ns) = &ns {
                    out.extend(crate::focus::resting_on(&gk, ns));
                }
                out.insert((gk, ns));
            }
            out
        })
        .reduce(BTreeSet::new, |mut a, mut b| {
            a.append(&mut b);
            a
        })
}

/// What a watch keeps of a world once its hierarchy is let go: its catalog (which
/// tells policies from the rest) and its namespaces.
fn light(topology: &Topology) -> Topology {
    topology.catalog_and_namespaces()
}

/// The objects `held` and those lent back (`keys`, in their order), in one ordered map.
fn taken_back(
    held: BTreeMap<ObjRef, Object>,
    keys: Vec<ObjRef>,
    objects: Vec<Object>,
) -> BTreeMap<ObjRef, Object> {
    // The analysis keeps every object in its order (their references differ, so
    // `drop_duplicates` drops none); were one dropped, or the objects lent unnamed (the
    // first read's), each is named here (the last of two copies is kept).
    let back: Box<dyn Iterator<Item = (ObjRef, Object)>> = match objects.len() == keys.len() {
        true => Box::new(keys.into_iter().zip(objects)),
        false => Box::new(objects.into_iter().map(|o| (o.obj_ref(), o))),
    };
    // Both in order: collected by merging two sorted runs.
    held.into_iter().chain(back).collect()
}

/// What `list` records as listed (`Snapshot::listed`).
fn listed_entry(list: &WatchList) -> crate::model::Listed {
    crate::model::Listed {
        group: list.resource.group.clone(),
        kind: list.resource.kind.clone(),
        namespace: list.namespace.clone(),
        file: None,
    }
}

/// Whether `named` holds (`gk`, `ns`), or `gk` named in any namespace.
fn is_named(named: &BTreeSet<(GroupKind, Option<String>)>, gk: GroupKind, ns: &str) -> bool {
    named.contains(&(gk.clone(), Some(ns.to_string()))) || named.contains(&(gk, None))
}

impl Watched {
    /// The objects of the first read (settled or not), analysed in full: the first
    /// table, as `get` answers it. What later answers are counted from is counted from
    /// this world when it is let go (`forget_first`, after the table is printed).
    pub fn new(snapshot: Snapshot, declared: &[Declared]) -> Watched {
        let mut watched = Watched {
            objects: BTreeMap::new(),
            lent: Vec::new(),
            blind_spots: snapshot.blind_spots,
            pods_read_in: snapshot.pods_read_in,
            listed: snapshot.listed,
            declared: declared.to_vec(),
            last: FastMap::default(),
            world: World::new(Topology::default()),
            first: None,
            parts: None,
            pending: Pending::new(),
            answered: (0, 0, 0),
            places: FastMap::default(),
            named_across: BTreeSet::new(),
        };
        // The first rows are all new: kept as they are (no answer of what changed).
        // The objects lent as read: named and ordered when they are taken back (an
        // object read twice: its last copy is kept, as `get` keeps it).
        watched.last = watched
            .answered_in_full(Vec::new(), snapshot.objects)
            .into_iter()
            .map(|row| (row.policy.clone(), row))
            .collect();
        watched
    }

    /// Every policy's row, as last answered, in `get`'s order.
    pub fn rows(&self) -> Vec<PolicyRow> {
        let mut rows: Vec<PolicyRow> = self.last.values().cloned().collect();
        rows.sort_by(row_order);
        rows
    }

    /// A policy's object as the watches last saw it (lent to the last answer in full's
    /// world until that is let go).
    pub fn object(&self, policy: &ObjRef) -> Option<&Object> {
        self.objects
            .get(policy)
            .or_else(|| self.first.as_ref()?.policy_object(policy))
    }

    /// The world of the last answer in full, until `forget_first` or the next change
    /// applied (what the command line's TYPE and names are first read against), else
    /// what the watch keeps of it (its catalog and namespaces).
    pub fn world(&self) -> &World {
        self.first.as_deref().unwrap_or(&self.world)
    }

    /// Lets the last answer in full's world go, its objects taken back; what the
    /// answers after it are counted from is counted first, from that world (the command
    /// line calls this once the rows are printed, else the next change does).
    pub fn forget_first(&mut self) {
        if let Some(first) = self.first.take() {
            self.count_state(&first.topology);
            let keys = std::mem::take(&mut self.lent);
            self.give_back(keys, first);
        }
    }

    /// What later answers are counted from, counted on `topology` (analysed from every
    /// object): what policies name across namespaces, where their targets lie (kept
    /// as changes came, read for the policies not known), what each part counts.
    fn count_state(&mut self, topology: &Topology) {
        let known = std::mem::take(&mut self.places);
        let ((places, across), parts) = rayon::join(
            || {
                rayon::join(
                    || places_now(known, topology),
                    || named_across(topology.objects()),
                )
            },
            || count_parts(topology, |_| true, true),
        );
        // A policy whose targets may be anywhere: no change is answered in parts.
        let anywhere = places.values().any(|p| *p == TargetPlaces::Anywhere);
        self.places = places;
        self.named_across = across;
        self.parts = (!anywhere).then_some(parts);
    }

    /// The objects lent (`keys`, in their order) taken back from the world analysed
    /// from them, which is let go (the rest of its hierarchy while they are put back).
    fn give_back(&mut self, keys: Vec<ObjRef>, world: Rebuildable) {
        let (objects, rest) = match world.into_topology() {
            Ok(mut topology) => (topology.take_objects(), Some(topology)),
            Err(shared) => (shared.objects().to_vec(), None),
        };
        let held = std::mem::take(&mut self.objects);
        let (objects, ()) = rayon::join(|| taken_back(held, keys, objects), || drop(rest));
        self.objects = objects;
    }

    /// Applies a batch of changes to the objects; returns whether any object changed,
    /// and the blind spots it brings that were not known (each is said once).
    pub fn apply(&mut self, changes: Vec<Change>) -> (bool, Vec<BlindSpot>) {
        self.forget_first();
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
                            self.note_full();
                        }
                    }
                    // A kind listed where it was not (what a policy that came names,
                    // a Secret in another namespace): its references there are judged.
                    if self.note_listed(&list) {
                        changed = true;
                        self.note_full();
                    }
                    let listed: BTreeMap<ObjRef, Object> = objects
                        .into_iter()
                        .map(|o| {
                            let o = settled(o);
                            (o.obj_ref(), o)
                        })
                        .collect();
                    changed |= self.forget_covered(&list, |r| listed.contains_key(r));
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
                Change::Unwatched(list) => changed |= self.unwatched(&list),
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

    /// Records `list` as listed (`Snapshot::listed`); whether it was not before.
    fn note_listed(&mut self, list: &WatchList) -> bool {
        let Some(listed) = &mut self.listed else {
            return false;
        };
        let entry = listed_entry(list);
        let wide = crate::model::Listed {
            namespace: None,
            ..entry.clone()
        };
        !listed.contains(&wide) && listed.insert(entry)
    }

    /// Notes a change that must be answered in full (what was read or listed changed).
    fn note_full(&mut self) {
        self.pending.any = true;
        self.pending.full = true;
    }

    /// Forgets the objects `list` covers but those `kept` (each a deletion); whether
    /// any was forgotten.
    fn forget_covered(&mut self, list: &WatchList, kept: impl Fn(&ObjRef) -> bool) -> bool {
        let gone: Vec<ObjRef> = self
            .objects
            .iter()
            .filter(|(r, o)| list.covers(o) && !kept(r))
            .map(|(r, _)| r.clone())
            .collect();
        let mut changed = false;
        for r in gone {
            if let Some(before) = self.objects.remove(&r) {
                changed = true;
                self.note(None, Some(before));
            }
        }
        changed
    }

    /// Notes what one object's change can touch.
    fn note(&mut self, now: Option<&Object>, before: Option<Object>) {
        // A reference across namespaces is judged on objects a part's analysis may not
        // hold: a policy that names one, or an object one names, is answered in full.
        let across = now.into_iter().chain(before.as_ref()).any(|o| {
            let named = o
                .namespace
                .as_ref()
                .is_some_and(|ns| is_named(&self.named_across, o.group_kind(), ns));
            named || !named_across(std::slice::from_ref(o)).is_empty()
        });
        let catalog = self.world.topology.catalog();
        let pending = &mut self.pending;
        pending.any = true;
        pending.full |= across;
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
            let direct =
                catalog.kind_of(&o.group_kind()).entry.class == crate::catalog::Class::Direct;
            if targets_cluster_scoped(o, direct) {
                pending.wide = true;
            }
        }
        pending.before.extend(before.clone());
        if let Some(o) = now.or(before.as_ref()) {
            let r = o.obj_ref();
            match now {
                Some(o) if catalog.is_policy(o) => {
                    self.pending.edited.insert(r.clone());
                    self.places.insert(r, target_places(o));
                }
                _ => {
                    self.places.remove(&r);
                }
            }
        }
    }
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
    let (a, b) = (&a.policy, &b.policy);
    (&a.namespace, &a.name, &a.kind, &a.group).cmp(&(&b.namespace, &b.name, &b.kind, &b.group))
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
