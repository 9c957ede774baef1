//! Two worlds compared: the effective spec of each candidate object, context by context,
//! for each kind, grouped where the before and the after are the same.

use super::reach::{may_change, referenced_reach};
use super::Change;
use crate::effective::{Acc, KindFold, PathStep};
use crate::model::{FastMap, GroupKind, ObjRef, Object};
use crate::query::{Effective, Source, World};
use crate::topology::NodeId;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

/// Every effective change `changed` objects make from `before` to `after` (`diff`, and
/// `blast-radius --apply`: from the input to the input with its objects applied), with the
/// policies behind the settings; compared only where they can change something.
pub(crate) fn effective_changes(
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

/// A context's effective spec, and who set each of its values.
type Sided = (Arc<Value>, Arc<Vec<Source>>);

/// Every context path of `node` with the spec it yields for the fold's kind, and the
/// policy behind each of its settings (`Effective::sources`).
fn specs_by_context(
    world: &World,
    fold: &mut KindFold,
    node: NodeId,
) -> BTreeMap<Vec<ObjRef>, Sided> {
    let mut out = BTreeMap::new();
    for group in fold.effective_at(node) {
        let sources = Arc::new(Effective::from_group(world, &group).sources);
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
pub(super) struct Specs {
    /// A state's address → its spec in `values`. The state is kept alive in `states`,
    /// so no other state can come to have its address.
    ids: FastMap<*const Acc, usize>,
    states: Vec<Rc<Acc>>,
    pub(super) values: Vec<Arc<Value>>,
}

impl Specs {
    /// Every context path of `node` (as steps, in order) with the spec it yields, for the
    /// contexts some policy of the fold's kind reaches.
    pub(super) fn by_path(
        &mut self,
        fold: &mut KindFold,
        node: NodeId,
    ) -> Vec<(Vec<PathStep>, usize)> {
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

    pub(super) fn same(&self, a: usize, b: usize) -> bool {
        a == b || self.values[a] == self.values[b]
    }
}

/// The changes between two worlds, on the candidate objects present in both.
pub(super) fn compare(
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
pub(crate) struct SourcedChange {
    pub(crate) change: Change,
    pub(crate) before: Arc<Vec<Source>>,
    pub(crate) after: Arc<Vec<Source>>,
}

/// `compare`, each change with the policies behind its settings (`diff`).
fn compare_sourced(
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
pub(super) fn diff<P: Ord, S>(
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

pub(super) fn sort_changes(changes: &mut [Change]) {
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
