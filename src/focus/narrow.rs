//! Answers about one object or one policy, computed from what they can depend on.
//!
//! `describe httproute/x` needs x's ancestors (the policies on them flow down to it),
//! its children, and the policies attached to any of those; `blast-radius` of a policy
//! needs what lies below its targets and everything above that. On files, the whole
//! input is read anyway, but building the hierarchy for 20,000 routes to answer about
//! one of them is most of the work. So before the hierarchy is built, objects in
//! namespaces the answer cannot reach are set aside, as a scoped live read would never
//! have read them. Pure.
//!
//! What is kept: every cluster-scoped object; every object in a namespace of
//! [`namespace_closure`] of the start (the namespaces linked to it by parentRefs and
//! backendRefs, whole, downwards then upwards); and every policy elsewhere that targets
//! something kept (a GatewayClass, a kept Namespace, or an object in a kept namespace
//! named across namespaces). Tests hold the answers equal to those computed on the
//! whole input, for every object and policy of every scenario.

use super::namespace_closure;
use crate::catalog::policy::{read_targets, SelectorScope, TargetSpec};
use crate::catalog::Catalog;
use crate::model::{normalize_group, ObjRef};
use crate::model::{Map, NamespaceLinks};
use crate::model::{Object, Snapshot};
use std::collections::BTreeSet;

/// Sets aside from `snapshot` the objects an answer about `focus` cannot depend on,
/// and returns them (a one-shot command need not spend time freeing them). `catalog`
/// is the whole input's (`Catalog::build` of its objects), `links` the namespace
/// links its objects make.
pub fn narrow(
    snapshot: &mut Snapshot,
    links: &NamespaceLinks,
    catalog: &Catalog,
    focus: &ObjRef,
) -> Vec<Object> {
    let Some(keep) = keep_mask(&snapshot.objects, links, catalog, focus) else {
        return Vec::new();
    };
    let mut i = 0;
    let aside = |_: &mut Object| {
        i += 1;
        !keep[i - 1]
    };
    snapshot.objects.extract_if(.., aside).collect()
}

/// Which of `objects` an answer about `focus` can depend on. `None`, everything: when
/// `focus` is not among them (its "not found" is answered from the whole), is
/// cluster-scoped, or is a policy that targets a cluster-scoped object other than a
/// Namespace (a GatewayClass reaches everywhere).
pub fn keep_mask(
    objects: &[Object],
    links: &NamespaceLinks,
    catalog: &Catalog,
    focus: &ObjRef,
) -> Option<Vec<bool>> {
    let starts = start_namespaces(objects, catalog, focus)?;
    let keep = namespace_closure(links, &starts);
    let mask = objects.iter().map(|o| match o.namespace.as_deref() {
        None => true,
        Some(ns) if keep.contains(ns) => true,
        Some(_) => catalog.is_policy(o) && targets_within(o, &keep),
    });
    Some(mask.collect())
}

/// The namespaces an answer about `focus` starts from: an object's own; a policy's
/// own and its targets'. `None`: the answer may depend on anything.
fn start_namespaces(
    objects: &[Object],
    catalog: &Catalog,
    focus: &ObjRef,
) -> Option<BTreeSet<String>> {
    let ns = focus.namespace.as_deref()?;
    let o = objects.iter().find(|o| is(o, focus))?;
    let mut starts = BTreeSet::from([ns.to_string()]);
    if !catalog.is_policy(o) {
        return Some(starts);
    }
    for t in targets(o) {
        starts.insert(target_namespace(&t)?.to_string());
    }
    Some(starts)
}

/// The namespace a target lies in: a Namespace's own name. `None`: anywhere (a
/// GatewayClass, whose Gateways may be in any namespace).
fn target_namespace(t: &TargetSpec) -> Option<&str> {
    match t {
        TargetSpec::Ref(r) => match (&r.namespace, r.kind.as_str()) {
            (Some(ns), _) => Some(ns),
            (None, "Namespace") => Some(&r.name),
            (None, _) => None,
        },
        TargetSpec::Selector { namespaces, .. } => match namespaces {
            SelectorScope::Same(ns) => ns.as_deref(),
            // Possibly in any namespace.
            SelectorScope::All | SelectorScope::Labelled(_) => None,
        },
    }
}

fn is(o: &Object, r: &ObjRef) -> bool {
    o.name == r.name
        && o.kind == r.kind
        && o.namespace == r.namespace
        && normalize_group(o.group()) == r.group
}

fn targets(o: &Object) -> Vec<TargetSpec> {
    let empty = Map::new();
    let spec = o.spec.as_object().unwrap_or(&empty);
    read_targets(spec, o.namespace.as_deref(), &mut Vec::new())
}

/// Whether a policy outside the kept namespaces targets anything kept.
fn targets_within(o: &Object, keep: &BTreeSet<String>) -> bool {
    targets(o)
        .iter()
        .any(|t| target_namespace(t).is_none_or(|ns| keep.contains(ns)))
}
