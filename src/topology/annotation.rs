//! Attachment from the target's side: for kinds whose registry entry names a
//! `target_annotation` (Kong's KongUpstreamPolicy: a Service's
//! `konghq.com/upstream-policy: <name>`), the objects whose annotation names a policy
//! become that policy's targets, as if it named them in a targetRef. Such a policy has
//! no targetRef of its own; one that no object names is a finding.

use super::{Code, Finding};
use crate::catalog::policy::{Policy, TargetSpec};
use crate::catalog::Catalog;
use crate::model::{GroupKind, ObjRef, Object};
use std::collections::BTreeMap;

/// Adds to each such policy the objects that name it; returns a finding for each one
/// that nothing names.
pub(super) fn attach_by_target_annotations(
    objects: &[Object],
    catalog: &Catalog,
    policies: &mut [Policy],
) -> Vec<Finding> {
    // (policy kind, annotation, the kinds that may carry it), usually none.
    let kinds: Vec<(GroupKind, &str, &[String])> = catalog
        .kinds
        .values()
        .filter_map(|k| {
            let a = k.targeting.target_annotation?;
            Some((k.group_kind(), a, k.target_kinds.as_slice()))
        })
        .collect();
    if kinds.is_empty() || !policies.iter().any(|p| kinds.iter().any(|k| k.0 == p.kind)) {
        return Vec::new();
    }
    // (policy kind, namespace, policy name) -> the objects that name it, in input order.
    let mut named: BTreeMap<(GroupKind, String, String), Vec<ObjRef>> = BTreeMap::new();
    for o in objects {
        let Some(ns) = o.namespace.as_deref() else {
            continue;
        };
        for (gk, annotation, carriers) in &kinds {
            let Some(name) = o.annotations.get(*annotation) else {
                continue;
            };
            if !carriers.iter().any(|c| *c == *o.kind) {
                continue;
            }
            named
                .entry((gk.clone(), ns.to_string(), name.trim().to_string()))
                .or_default()
                .push(o.obj_ref());
        }
    }
    let mut findings = Vec::new();
    for p in policies.iter_mut() {
        let Some((_, annotation, _)) = kinds.iter().find(|k| k.0 == p.kind) else {
            continue;
        };
        let key = (
            p.kind.clone(),
            p.obj_ref
                .namespace
                .as_deref()
                .unwrap_or_default()
                .to_string(),
            p.obj_ref.name.to_string(),
        );
        match named.remove(&key) {
            Some(refs) => p.targets.extend(refs.into_iter().map(TargetSpec::Ref)),
            None if p.targets.is_empty() => findings.push(Finding::new(
                Code::TargetNotFound,
                p.obj_ref.clone(),
                format!("no object's {annotation} annotation names it"),
            )),
            None => {}
        }
    }
    findings
}
