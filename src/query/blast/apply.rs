//! `--apply`: the world with some objects applied (replaced or added), what changes in
//! it, and the findings the applied objects bring.

use super::compare::effective_changes;
use super::{describe_summary, join_and, BlastRadius, Change, Outcome};
use crate::catalog::Declared;
use crate::model::{Held, ObjRef, Object, Text};
use crate::query::{Rebuildable, World};
use crate::topology::{Finding, Severity};
use std::collections::BTreeSet;

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
    let after = crate::query::analyze(snapshot, declared, &[]);
    // A diff from the input to the input with the objects applied (`diff`'s code).
    let changes: Vec<Change> = effective_changes(world, &after, &changed)
        .into_iter()
        .map(|c| c.change)
        .collect();
    let outcome = Outcome::of(world, &after, changes);
    let headline = apply_headline(count, &paths, &applied_kinds, &outcome);
    let Outcome {
        changes,
        summary,
        findings,
    } = outcome;
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
fn applied(objects: &[Object], new_objects: Vec<Object>) -> Vec<Object> {
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

/// What applying does, in one sentence: the kinds whose effective specs change (in the
/// order the applied objects name them, then the rest), of how many objects, and the
/// errors it would bring.
fn apply_headline(
    count: usize,
    paths: &[String],
    applied_kinds: &[Text],
    outcome: &Outcome,
) -> String {
    let Outcome {
        changes,
        summary,
        findings,
    } = outcome;
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
    let had: BTreeSet<(crate::topology::Code, ObjRef)> = crate::query::check(before)
        .into_iter()
        .map(|f| (f.code, f.object))
        .collect();
    crate::query::check(after)
        .into_iter()
        .filter(|f| !had.contains(&(f.code, f.object.clone())))
        .collect()
}
