//! Blast radius: what changes if a policy is deleted, or if some objects are applied.
//! Builds the world as it would be after the change and compares, node by node and
//! context by context, the effective spec of every policy kind involved.

use super::{PolicyKindRef, Rebuildable, World};
use crate::catalog::Declared;
use crate::effective::{Acc, KindFold, PathStep, PolicyStatus};
use crate::model::FastMap;
use crate::model::{plural, GroupKind, ObjRef, Text};
use crate::model::{BlindSpot, Held, Object, ObjectId};
use crate::topology::{Finding, NodeId, PolicyId, Resolution, Severity, Topology};
use serde::Serialize;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

/// One object (or section) whose effective spec of one kind changes, on the contexts
/// that share the same before and after.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Change {
    pub target: ObjRef,
    #[serde(rename = "policyKind")]
    pub policy_kind: PolicyKindRef,
    pub contexts: Vec<Vec<ObjRef>>,
    /// Shared: many objects change from and to the same spec.
    pub before: Option<Arc<Value>>,
    pub after: Option<Arc<Value>>,
}

/// What a blast radius touches, counted: objects, their namespaces, objects by kind.
#[derive(Clone, Debug, Serialize, PartialEq, Default)]
pub struct Summary {
    pub objects: usize,
    pub namespaces: Vec<String>,
    #[serde(rename = "byKind")]
    pub by_kind: BTreeMap<String, usize>,
}

/// `blast-radius`: every object (or section) whose effective spec changes if a policy
/// is deleted or the objects of `--apply` are applied, before and after, per context.
#[derive(Clone, Debug, Serialize)]
pub struct BlastRadius {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<ObjRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub apply: Option<Vec<String>>,
    /// An object policies' specs name (a Secret, a ConfigMap, a Service), deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjRef>,
    /// The policies its deletion makes Invalid (their controller refuses them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalidated: Option<Vec<ObjRef>>,
    pub changes: Vec<Change>,
    pub summary: Summary,
    /// `--apply`: the findings the applied objects would bring (a new Conflicted,
    /// Invalid, TargetNotFound, a missing ReferenceGrant…): those of the world after
    /// that the world before did not have. None for a deletion.
    pub findings: Vec<Finding>,
    #[serde(rename = "blindSpots")]
    pub blind_spots: Vec<BlindSpot>,
    /// One sentence for people: what the change does.
    #[serde(skip)]
    pub headline: String,
}

/// What changes if `policy` is deleted.
///
/// Only what lies at or below the policy's attachment points can change, so only
/// that is folded again, without the policy; everything above is shared with the
/// world as it is. (`declared` kinds are already in the world's catalog.) A kind
/// whose vendor refuses a policy for what the others of its kind are aimed at or set,
/// or translates a route's policy merged with its parent's
/// (`PolicyKind::others_turn_on_it`), is answered by rebuilding: deleting one may
/// accept or refuse another; hence a `Rebuildable` world, whose links are kept
/// (`analyze`, not `analyze_once`).
pub fn delete_policy(world: &Rebuildable, policy: PolicyId, declared: &[Declared]) -> BlastRadius {
    let topology = &world.topology;
    let pol = topology.policy(policy);
    if topology.kind_of(policy).others_turn_on_it() {
        return delete_policy_by_reanalysis(world, policy, declared);
    }
    let reach = reach_of_policy(topology, policy);
    let mut below = vec![false; topology.nodes().len()];
    for &n in &reach {
        below[n] = true;
    }
    let present = reach;
    // The before side first: the contexts it folds above the policy are then shared.
    let mut before = KindFold::new(topology, &pol.kind);
    for &n in &present {
        before.contexts(n);
    }
    let mut after = before.without(policy, &below);
    let mut specs = Specs::default();
    let mut changes = Vec::new();
    for &n in &present {
        let sb = specs.by_path(&mut before, n);
        let sa = specs.by_path(&mut after, n);
        let target = &topology.node(n).obj_ref;
        for (paths, b, a) in diff(sb, sa, |x, y| specs.same(*x, *y)) {
            let mut contexts: Vec<Vec<ObjRef>> = paths
                .iter()
                .map(|path| PathStep::refs(topology, path))
                .collect();
            contexts.sort();
            changes.push(Change {
                target: target.clone(),
                policy_kind: (&pol.kind).into(),
                contexts,
                before: b.map(|i| specs.values[i].clone()),
                after: a.map(|i| specs.values[i].clone()),
            });
        }
    }
    sort_changes(&mut changes);
    deleted(world, policy, changes)
}

/// The same answer as `delete_policy`, by rebuilding the whole world without the
/// policy and comparing: slower, and obviously right. Tests hold the two equal.
pub fn delete_policy_by_reanalysis(
    world: &Rebuildable,
    policy: PolicyId,
    declared: &[Declared],
) -> BlastRadius {
    let pol = world.topology.policy(policy);
    let snapshot = world.snapshot_of(
        world
            .topology
            .objects()
            .iter()
            .zip(ObjectId::all(usize::MAX))
            .filter(|&(_, i)| i != pol.object)
            .map(|(o, _)| o.clone())
            .collect(),
    );
    let after = super::analyze(snapshot, declared, &[]);
    let mut candidates: BTreeSet<ObjRef> = reach_of_policy(&world.topology, policy)
        .into_iter()
        .map(|n| world.topology.node(n).obj_ref.clone())
        .collect();
    // A policy of its kind that its controller refused beside it, and accepts without
    // it (or the other way round: its `SharedPort` rule), changes where it reaches.
    candidates.extend(validity_changed(world, &after, &pol.kind));
    let kinds = vec![pol.kind.clone()];
    let changes = compare(world, &after, &candidates, &kinds);
    deleted(world, policy, changes)
}

/// The objects reached, before or after, by the policies of `kind` whose controller
/// accepts them in one world and refuses them in the other.
fn validity_changed(before: &World, after: &World, kind: &GroupKind) -> BTreeSet<ObjRef> {
    let mut out = BTreeSet::new();
    for (q, now) in after.topology.each_policy() {
        if &now.kind != kind {
            continue;
        }
        let Some(p) = before.topology.policy_id(&now.obj_ref) else {
            continue;
        };
        if before.topology.policy(p).rejected.is_some() == now.rejected.is_some() {
            continue;
        }
        for (t, id) in [(&before.topology, p), (&after.topology, q)] {
            out.extend(
                reach_of_policy(t, id)
                    .into_iter()
                    .map(|n| t.node(n).obj_ref.clone()),
            );
        }
    }
    out
}

/// The answer for deleting `policy`, given what changes.
fn deleted(world: &World, policy: PolicyId, changes: Vec<Change>) -> BlastRadius {
    let pol = world.topology.policy(policy);
    let summary = summarize(&changes);
    let what = format!("Deleting {} {}", pol.kind.kind, pol.obj_ref.ns_name());
    let headline = if changes.is_empty() {
        let why = if world.statuses().overall[policy] == PolicyStatus::Overridden {
            ": it is overridden everywhere it reaches"
        } else if world.statuses().overall[policy] == PolicyStatus::Conflicted {
            ": it loses to an older policy on every target (Conflicted)"
        } else if world.statuses().reached(policy).is_empty() {
            ": it reaches no object"
        } else {
            ""
        };
        format!("{what} changes nothing{why}")
    } else {
        format!(
            "{what} changes the effective {} of {}",
            pol.kind.kind,
            describe_summary(&summary)
        )
    };
    BlastRadius {
        kind: "BlastRadius",
        policy: Some(pol.obj_ref.clone()),
        apply: None,
        object: None,
        invalidated: None,
        changes,
        summary,
        findings: Vec::new(),
        blind_spots: world.topology.snapshot().blind_spots.clone(),
        headline,
    }
}

/// What changes if `new_objects` (read from `paths`) are applied: objects with the
/// same group, kind, namespace and name are replaced, the others added.
pub fn apply_objects(
    world: &Rebuildable,
    new_objects: Vec<Object>,
    paths: Vec<String>,
    declared: &[Declared],
) -> BlastRadius {
    let count = new_objects.len();
    let changed: Vec<ObjRef> = new_objects.iter().map(Object::obj_ref).collect();
    let mut applied_kinds: Vec<Text> = Vec::new();
    for o in &new_objects {
        if !applied_kinds.contains(&o.kind) {
            applied_kinds.push(o.kind.clone());
        }
    }
    let listed = applied_listed(world.topology.snapshot(), &new_objects);
    let snapshot = crate::model::Snapshot {
        listed,
        ..world.snapshot_of(applied(world.topology.objects(), new_objects))
    };
    let after = super::analyze(snapshot, declared, &[]);
    // A diff from the input to the input with the objects applied (`diff`'s code).
    let changes: Vec<Change> = effective_changes(world, &after, &changed)
        .into_iter()
        .map(|c| c.change)
        .collect();
    let summary = summarize(&changes);
    let findings = brought(world, &after);
    let headline = apply_headline(count, &paths, &changes, &summary, &findings, &applied_kinds);
    BlastRadius {
        kind: "BlastRadius",
        policy: None,
        apply: Some(paths),
        object: None,
        invalidated: None,
        changes,
        summary,
        findings,
        blind_spots: world.topology.snapshot().blind_spots.clone(),
        headline,
    }
}

/// What changes if `object` (a Secret, a ConfigMap, a Service… that policies' specs
/// name) is deleted: the policies its controller then refuses (Invalid), the findings
/// that brings (an entry dropped), and every effective change that follows.
pub fn delete_object(world: &Rebuildable, object: &ObjRef, declared: &[Declared]) -> BlastRadius {
    deleting_object(world, object, declared, false)
}

/// The same answer as `delete_object`, comparing every object of both worlds for every
/// kind in use: slower, and obviously right. Tests hold the two equal.
pub fn delete_object_by_reanalysis(
    world: &Rebuildable,
    object: &ObjRef,
    declared: &[Declared],
) -> BlastRadius {
    deleting_object(world, object, declared, true)
}

/// `delete_object`; `everywhere`: compared on every object for every kind, not only
/// where the object's dependents reach and below the object.
fn deleting_object(
    world: &Rebuildable,
    object: &ObjRef,
    declared: &[Declared],
    everywhere: bool,
) -> BlastRadius {
    let topology = &world.topology;
    let is_it = |o: &Object| {
        o.name == object.name
            && o.kind == object.kind
            && o.namespace.as_deref() == object.namespace.as_deref()
            && o.group() == object.group.as_str()
    };
    let found = topology.objects().iter().any(is_it);
    let snapshot = crate::model::Snapshot {
        // What files said exists still says so: the object is gone, not unknown.
        listed: Some(match &topology.snapshot().listed {
            Some(listed) => listed.clone(),
            None => crate::model::listed_in_files(topology.objects()),
        }),
        ..world.snapshot_of(
            topology
                .objects()
                .iter()
                .filter(|o| !is_it(o))
                .cloned()
                .collect(),
        )
    };
    let after = super::analyze(snapshot, declared, &[]);
    let dependents = super::dependents::dependents(world, object);
    let mut candidates = BTreeSet::new();
    let mut kinds: Vec<GroupKind> = Vec::new();
    for d in &dependents {
        let pol = topology.policy(d.policy_id);
        candidates.extend(
            reach_of_policy(topology, d.policy_id)
                .into_iter()
                .map(|n| topology.node(n).obj_ref.clone()),
        );
        kinds.push(pol.kind.clone());
    }
    if topology.lookup(object).is_some() || after.topology.lookup(object).is_some() {
        candidates.extend(may_change(world, &after, std::slice::from_ref(object)));
        kinds.extend(KindFold::kinds_in_use(topology));
        kinds.extend(KindFold::kinds_in_use(&after.topology));
    }
    if everywhere {
        for t in [topology, &after.topology] {
            candidates.extend(t.nodes().iter().map(|n| n.obj_ref.clone()));
            kinds.extend(KindFold::kinds_in_use(t));
        }
    }
    kinds.sort();
    kinds.dedup();
    let changes = compare(world, &after, &candidates, &kinds);
    let invalidated: Vec<ObjRef> = topology
        .policies()
        .iter()
        .filter(|p| p.rejected.is_none())
        .filter(|p| {
            after
                .topology
                .policy_id(&p.obj_ref)
                .is_some_and(|q| after.topology.policy(q).rejected.is_some())
        })
        .map(|p| p.obj_ref.clone())
        .collect();
    let summary = summarize(&changes);
    let findings = brought(world, &after);
    let headline = object_headline(
        object,
        found,
        (dependents.len(), findings.len()),
        &invalidated,
        &changes,
        &summary,
    );
    BlastRadius {
        kind: "BlastRadius",
        policy: None,
        apply: None,
        object: Some(object.clone()),
        invalidated: Some(invalidated),
        changes,
        summary,
        findings,
        blind_spots: topology.snapshot().blind_spots.clone(),
        headline,
    }
}

/// What deleting an object policies name does, in one sentence.
fn object_headline(
    object: &ObjRef,
    found: bool,
    (named_by, brought): (usize, usize),
    invalidated: &[ObjRef],
    changes: &[Change],
    summary: &Summary,
) -> String {
    let what = format!("Deleting {} {}", object.kind, object.ns_name());
    if !found {
        let by = match named_by {
            0 => "and no policy names it".to_string(),
            1 => "and the 1 policy that names it already does without it".to_string(),
            n => format!("and the {n} policies that name it already do without it"),
        };
        return format!("{what} changes nothing: it is not in the input, {by}");
    }
    if named_by == 0 && changes.is_empty() {
        return format!("{what} changes nothing: no policy names it");
    }
    let mut parts = Vec::new();
    if !invalidated.is_empty() {
        let names: Vec<String> = invalidated
            .iter()
            .map(|p| format!("{} {}", p.kind, p.ns_name()))
            .collect();
        parts.push(format!("makes {} Invalid", join_and(&names)));
    }
    if !changes.is_empty() {
        let mut kinds: Vec<String> = changes.iter().map(|c| c.policy_kind.kind.clone()).collect();
        kinds.sort();
        kinds.dedup();
        parts.push(format!(
            "changes the effective {} of {}",
            join_and(&kinds),
            describe_summary(summary)
        ));
    }
    if parts.is_empty() {
        let by = match named_by {
            1 => "the 1 policy naming it does".to_string(),
            n => format!("the {n} policies naming it do"),
        };
        let see = if brought > 0 {
            " (see the findings)"
        } else {
            ""
        };
        return format!("{what} changes no effective spec: {by} without it{see}");
    }
    format!("{what} {}", parts.join(", and "))
}

/// What the world after applying `new_objects` says exists. Read live: what was
/// listed. From files: what each file holds, and for the applied files' policies what
/// the input holds too (they are applied to the world it describes), so a reference
/// they make to a missing Secret of a kind the input has is dangling, not unchecked.
fn applied_listed(before: &Held, new_objects: &[Object]) -> Option<BTreeSet<crate::model::Listed>> {
    if before.listed.is_some() {
        return before.listed.clone();
    }
    let input = crate::model::listed_in_files(&before.objects);
    let mut listed = crate::model::listed_in_files(new_objects);
    let files: BTreeSet<&str> = new_objects.iter().map(|o| &*o.origin.file).collect();
    for file in files {
        listed.extend(input.iter().map(|l| crate::model::Listed {
            file: Some(file.to_string()),
            ..l.clone()
        }));
    }
    listed.extend(input);
    Some(listed)
}

/// `objects` with `new_objects` applied: one with the same group, kind, namespace and
/// name replaces the object there, the others are added.
pub(super) fn applied(objects: &[Object], new_objects: Vec<Object>) -> Vec<Object> {
    let key = |o: &Object| {
        (
            o.group().to_string(),
            o.kind.clone(),
            o.namespace.clone(),
            o.name.clone(),
        )
    };
    let mut objects = objects.to_vec();
    for o in new_objects {
        let k = key(&o);
        match objects.iter_mut().find(|x| key(x) == k) {
            Some(slot) => *slot = o,
            None => objects.push(o),
        }
    }
    objects
}

/// The objects whose effective specs the `changed` objects may change, before or
/// after: what a changed policy reaches, what lies below a changed object, a changed
/// Namespace's objects; anything at all for any other kind (a CRD, a ReferenceGrant).
pub(super) fn may_change(world: &World, after: &World, changed: &[ObjRef]) -> BTreeSet<ObjRef> {
    let mut candidates = BTreeSet::new();
    for r in changed {
        let mut found = false;
        for topology in [&world.topology, &after.topology] {
            if let Some(p) = topology.policy_id(r) {
                candidates.extend(
                    reach_of_policy(topology, p)
                        .into_iter()
                        .map(|n| topology.node(n).obj_ref.clone()),
                );
                found = true;
            }
            if let Some(n) = topology.lookup(r) {
                add_below(topology, n, &mut candidates);
                found = true;
            }
        }
        if found {
            continue;
        }
        if r.kind == "Namespace" && r.group.is_empty() {
            for topology in [&world.topology, &after.topology] {
                let below = topology.at_or_below(topology.nodes_in_namespace(&r.name));
                candidates.extend(below.into_iter().map(|n| topology.node(n).obj_ref.clone()));
            }
        } else {
            // A CRD, a ReferenceGrant, anything else: it may change anything.
            for topology in [&world.topology, &after.topology] {
                candidates.extend(topology.nodes().iter().map(|n| n.obj_ref.clone()));
            }
        }
    }
    candidates
}

/// Every effective change `changed` objects make from `before` to `after` (`diff`, and
/// `blast-radius --apply`: from the input to the input with its objects applied), with the
/// policies behind the settings; compared only where they can change something.
pub(super) fn effective_changes(
    before: &World,
    after: &World,
    changed: &[ObjRef],
) -> Vec<SourcedChange> {
    if changed.is_empty() {
        return Vec::new();
    }
    let mut candidates = BTreeSet::new();
    let mut others = Vec::new();
    for r in changed {
        match referenced_reach(before, after, r) {
            Some(reach) => candidates.extend(reach),
            None => others.push(r.clone()),
        }
    }
    candidates.extend(may_change(before, after, &others));
    let mut kinds: Vec<GroupKind> = KindFold::kinds_in_use(&before.topology);
    kinds.extend(KindFold::kinds_in_use(&after.topology));
    kinds.sort();
    kinds.dedup();
    compare_sourced(before, after, &candidates, &kinds)
}

/// For an object outside the hierarchy and no policy, of a kind policies' specs name
/// (a Secret, a ConfigMap): what the policies naming it reach, on either side (all it
/// can change). None for any other object.
fn referenced_reach(before: &World, after: &World, r: &ObjRef) -> Option<BTreeSet<ObjRef>> {
    let mut reach = BTreeSet::new();
    for world in [before, after] {
        let t = &world.topology;
        if t.policy_id(r).is_some() || t.lookup(r).is_some() {
            return None;
        }
        if !super::dependents::is_referenced_kind(world, &r.group_kind()) {
            return None;
        }
        for d in super::dependents::dependents(world, r) {
            let nodes = reach_of_policy(t, d.policy_id);
            reach.extend(nodes.into_iter().map(|n| t.node(n).obj_ref.clone()));
        }
    }
    Some(reach)
}

/// What applying does, in one sentence: the kinds whose effective specs change (in the
/// order the applied objects name them, then the rest), of how many objects, and the
/// errors it would bring.
fn apply_headline(
    count: usize,
    paths: &[String],
    changes: &[Change],
    summary: &Summary,
    findings: &[Finding],
    applied_kinds: &[Text],
) -> String {
    let objs = if count == 1 { "object" } else { "objects" };
    let from = if paths.is_empty() {
        String::new()
    } else {
        format!(" from {}", paths.join(", "))
    };
    let what = format!("Applying {count} {objs}{from}");
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let brings = match errors {
        0 => String::new(),
        1 => ", and brings 1 error".to_string(),
        n => format!(", and brings {n} errors"),
    };
    if changes.is_empty() && brings.is_empty() {
        return format!("{what} changes nothing");
    }
    if changes.is_empty() {
        return format!("{what} changes no effective spec{brings}");
    }
    let mut changed_kinds: Vec<String> = Vec::new();
    for c in changes {
        if !changed_kinds.contains(&c.policy_kind.kind) {
            changed_kinds.push(c.policy_kind.kind.clone());
        }
    }
    changed_kinds.sort_by_key(|k| {
        (
            applied_kinds
                .iter()
                .position(|a| a == k)
                .unwrap_or(usize::MAX),
            k.clone(),
        )
    });
    format!(
        "{what} changes the effective {} of {}{brings}",
        join_and(&changed_kinds),
        describe_summary(summary)
    )
}

/// The findings of `after` that `before` does not have, by code and object: what
/// applying brings (a finding that only changes its words is not new).
pub(super) fn brought(before: &World, after: &World) -> Vec<Finding> {
    let had: BTreeSet<(crate::topology::Code, ObjRef)> = super::check(before)
        .into_iter()
        .map(|f| (f.code, f.object))
        .collect();
    super::check(after)
        .into_iter()
        .filter(|f| !had.contains(&(f.code, f.object.clone())))
        .collect()
}

/// The nodes a policy can affect: its resolved targets (namespace targets: every
/// object of the namespace) and everything below them, in node order.
pub(super) fn reach_of_policy(topology: &Topology, policy: PolicyId) -> Vec<NodeId> {
    let mut starts = Vec::new();
    for r in topology.targets_of(policy) {
        match &r.resolution {
            Resolution::Node(node) => starts.push(*node),
            Resolution::Namespace(ns) => starts.extend(topology.nodes_in_namespace(ns)),
            Resolution::NotFound(_) => {}
        }
    }
    topology.at_or_below(starts)
}

fn add_below(topology: &Topology, node: NodeId, out: &mut BTreeSet<ObjRef>) {
    out.extend(
        topology
            .at_or_below([node])
            .into_iter()
            .map(|d| topology.node(d).obj_ref.clone()),
    );
}

/// A context's effective spec, and who set each of its values.
type Sided = (Arc<Value>, Arc<Vec<super::Source>>);

/// Every context path of `node` with the spec it yields for the fold's kind, and the
/// policy behind each of its settings (`Effective::sources`).
fn specs_by_context(
    world: &World,
    fold: &mut KindFold,
    node: NodeId,
) -> BTreeMap<Vec<ObjRef>, Sided> {
    let mut out = BTreeMap::new();
    for group in fold.effective_at(node) {
        let sources = Arc::new(super::Effective::from_group(world, &group).sources);
        let spec = Arc::new(group.spec);
        for c in group.contexts {
            out.insert(c, (spec.clone(), sources.clone()));
        }
    }
    out
}

/// The effective specs of one fold's contexts (and of the fold made from it without
/// a policy, which shares its states above the policy), each computed once per
/// folded state: contexts that share a state share its spec.
#[derive(Default)]
struct Specs {
    /// A state's address → its spec in `values`. The state is kept alive in `states`,
    /// so no other state can come to have its address.
    ids: FastMap<*const Acc, usize>,
    states: Vec<Rc<Acc>>,
    values: Vec<Arc<Value>>,
}

impl Specs {
    /// Every context path of `node` (as steps, in order) with the spec it yields, for the
    /// contexts some policy of the fold's kind reaches.
    fn by_path(&mut self, fold: &mut KindFold, node: NodeId) -> Vec<(Vec<PathStep>, usize)> {
        let accs: Vec<Option<Rc<Acc>>> =
            fold.contexts(node).iter().map(|c| c.acc.clone()).collect();
        let mut out = Vec::new();
        for (i, acc) in accs.iter().enumerate() {
            let Some(acc) = acc else { continue };
            let id = *self.ids.entry(Rc::as_ptr(acc)).or_insert_with(|| {
                self.states.push(acc.clone());
                self.values.push(Arc::new(acc.result().to_value()));
                self.values.len() - 1
            });
            out.extend(fold.step_paths(node, i).into_iter().map(|p| (p, id)));
        }
        out.sort_by(|x, y| x.0.cmp(&y.0));
        out.dedup_by(|x, y| x.0 == y.0);
        out
    }

    fn same(&self, a: usize, b: usize) -> bool {
        a == b || self.values[a] == self.values[b]
    }
}

/// The changes between two worlds, on the candidate objects present in both.
fn compare(
    before: &World,
    after: &World,
    candidates: &BTreeSet<ObjRef>,
    kinds: &[GroupKind],
) -> Vec<Change> {
    compare_sourced(before, after, candidates, kinds)
        .into_iter()
        .map(|c| c.change)
        .collect()
}

/// A change, with the policy behind each setting before and after (those of the
/// first of its contexts: its contexts share the specs, not always who set them).
pub(super) struct SourcedChange {
    pub change: Change,
    pub before: Arc<Vec<super::Source>>,
    pub after: Arc<Vec<super::Source>>,
}

/// `compare`, each change with the policies behind its settings (`diff`).
pub(super) fn compare_sourced(
    before: &World,
    after: &World,
    candidates: &BTreeSet<ObjRef>,
    kinds: &[GroupKind],
) -> Vec<SourcedChange> {
    // A node only a deleted policy made (an object outside the hierarchy it targeted,
    // a Pod it picked) is not in `after`, but its object still is: nothing applies to
    // it any more. One only an applied policy makes is not in `before`, though its
    // object was: what changes there is what the policies attached to it bring (what
    // reaches it from above reached its object before as well).
    let new_nodes: BTreeSet<ObjRef> = candidates
        .iter()
        .filter(|r| before.topology.lookup(r).is_none() && after.topology.lookup(r).is_some())
        .map(|r| r.clone().with_section(None))
        .collect();
    // Of those, the ones whose object was there before (one pass over the objects).
    let objects_before: BTreeSet<ObjRef> = match new_nodes.is_empty() {
        true => BTreeSet::new(),
        false => before
            .topology
            .objects()
            .iter()
            .map(Object::obj_ref)
            .filter(|r| new_nodes.contains(r))
            .collect(),
    };
    let pairs: Vec<(Option<NodeId>, Option<NodeId>, &ObjRef)> = candidates
        .iter()
        .filter_map(|r| {
            let (nb, na) = (before.topology.lookup(r), after.topology.lookup(r));
            let made_by_policy = || objects_before.contains(&r.clone().with_section(None));
            match (nb, na) {
                (Some(_), _) => Some((nb, na, r)),
                (None, Some(_)) if made_by_policy() => Some((nb, na, r)),
                (None, _) => None,
            }
        })
        .collect();
    let mut changes = Vec::new();
    for kind in kinds {
        let mut fb = KindFold::new(&before.topology, kind);
        let mut fa = KindFold::new(&after.topology, kind);
        for &(nb, na, r) in &pairs {
            let attached_here = |na: NodeId| {
                let attached = after.topology.attached_to(na);
                attached
                    .iter()
                    .any(|&p| &after.topology.policy(p).kind == kind)
            };
            let sb = match nb {
                Some(nb) => specs_by_context(before, &mut fb, nb),
                None if na.is_some_and(attached_here) => BTreeMap::new(),
                None => continue,
            };
            let sa = match na {
                Some(na) => specs_by_context(after, &mut fa, na),
                None => BTreeMap::new(),
            };
            let here = diff(
                sb.into_iter().collect(),
                sa.into_iter().collect(),
                |x, y| x.0 == y.0,
            );
            let none = Arc::new(Vec::new());
            changes.extend(here.into_iter().map(|(contexts, b, a)| SourcedChange {
                before: b.as_ref().map_or(none.clone(), |b| b.1.clone()),
                after: a.as_ref().map_or(none.clone(), |a| a.1.clone()),
                change: Change {
                    target: r.clone(),
                    policy_kind: kind.into(),
                    contexts,
                    before: b.map(|b| b.0),
                    after: a.map(|a| a.0),
                },
            }));
        }
    }
    changes.sort_by(|x, y| change_order(&x.change, &y.change));
    changes
}

/// The changes at one object (or section), from each context path's spec before and
/// after (both in path order): the paths whose spec differs, grouped where the before
/// and the after are the same (`same`), each group's paths in order. The specs are
/// taken, not copied.
#[allow(clippy::type_complexity)]
fn diff<P: Ord, S>(
    before: Vec<(P, S)>,
    after: Vec<(P, S)>,
    same: impl Fn(&S, &S) -> bool,
) -> Vec<(Vec<P>, Option<S>, Option<S>)> {
    let same_opt = |x: &Option<S>, y: &Option<S>| match (x, y) {
        (None, None) => true,
        (Some(x), Some(y)) => same(x, y),
        _ => false,
    };
    let mut here: Vec<(Vec<P>, Option<S>, Option<S>)> = Vec::new();
    // Both sides' paths in order, each once with what it had before and after.
    let (mut before, mut after) = (before.into_iter().peekable(), after.into_iter().peekable());
    loop {
        // The smaller of the two next paths comes next (both, when they are one).
        let order = match (before.peek(), after.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((path_before, _)), Some((path_after, _))) => path_before.cmp(path_after),
        };
        let (was, now) = match order {
            Ordering::Less => (before.next(), None),
            Ordering::Greater => (None, after.next()),
            Ordering::Equal => (before.next(), after.next()),
        };
        let (path, was, now) = match (was, now) {
            (Some((path, was)), now) => (path, Some(was), now.map(|(_, now)| now)),
            (None, Some((path, now))) => (path, None, Some(now)),
            (None, None) => break,
        };
        if same_opt(&was, &now) {
            continue;
        }
        match here.iter_mut().find(|(_, group_was, group_now)| {
            same_opt(group_was, &was) && same_opt(group_now, &now)
        }) {
            Some((paths, ..)) => paths.push(path),
            None => here.push((vec![path], was, now)),
        }
    }
    here
}

fn sort_changes(changes: &mut [Change]) {
    changes.sort_by(change_order);
}

/// Changes in order: target, policy kind, contexts.
fn change_order(x: &Change, y: &Change) -> Ordering {
    (
        &x.target,
        &x.policy_kind.kind,
        &x.policy_kind.group,
        &x.contexts,
    )
        .cmp(&(
            &y.target,
            &y.policy_kind.kind,
            &y.policy_kind.group,
            &y.contexts,
        ))
}

pub(super) fn summarize(changes: &[Change]) -> Summary {
    let objects: BTreeSet<ObjRef> = changes.iter().map(|c| c.target.object()).collect();
    let namespaces: BTreeSet<String> = objects
        .iter()
        .filter_map(|o| o.namespace.as_deref().map(str::to_string))
        .collect();
    let mut by_kind = BTreeMap::new();
    for o in &objects {
        *by_kind.entry(o.kind.to_string()).or_insert(0) += 1;
    }
    Summary {
        objects: objects.len(),
        namespaces: namespaces.into_iter().collect(),
        by_kind,
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `4 HTTPRoutes and 4 Services in 1 namespace (baker)`.
pub(super) fn describe_summary(summary: &Summary) -> String {
    let parts: Vec<String> = summary
        .by_kind
        .iter()
        .map(|(k, &n)| {
            if n == 1 {
                format!("1 {k}")
            } else {
                format!("{n} {}", plural(k))
            }
        })
        .collect();
    let mut out = join_and(&parts);
    match summary.namespaces.len() {
        0 => {}
        1 => out.push_str(&format!(" in 1 namespace ({})", summary.namespaces[0])),
        n => out.push_str(&format!(
            " in {n} namespaces ({})",
            summary.namespaces.join(", ")
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_lists() {
        assert_eq!(plural("HTTPRoute"), "HTTPRoutes");
        assert_eq!(plural("Service"), "Services");
        assert_eq!(plural("GatewayClass"), "GatewayClasses");
        assert_eq!(plural("Policy"), "Policies");
        assert_eq!(join_and(&["a".into()]), "a");
        assert_eq!(
            join_and(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
    }
}
