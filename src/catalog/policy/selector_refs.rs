//! targetRefs entries that pick their targets by a label `selector` instead of a name
//! (GKE's `PolicyTargetReferenceWithLabelSelectors`, the direction of GEP-3779):
//! `{kind: Pod, selector: {matchLabels}}` picks Pods, `{kind: Namespace, selector: {}}`
//! the policy's whole namespace. The tool resolves what it reads: a Namespace; it does
//! not read Pods, so a Pod selector binds the policy outside the hierarchy it builds
//! (SelectorBound), said with the labels it selects by.

use super::invalid::{FieldError, FieldProblem};
use super::TargetSpec;
use crate::model::{canonical_kind, Map, ObjRef, Val};

/// A targetRefs entry with a `selector` and no `name`.
pub(super) fn is_selector_ref(item: &Val) -> bool {
    item.get("selector").is_some_and(|v| !v.is_null())
        && item.get("name").is_none_or(|v| v.is_null())
}

fn is_namespace(item: &Val) -> bool {
    item.get("kind")
        .and_then(Val::as_str)
        .is_some_and(|k| canonical_kind(k) == "Namespace")
}

/// The target selector entry `item` (at `field`) of a policy in namespace `ns` names,
/// when the tool can see it: a Namespace entry names the policy's own namespace (GKE:
/// a namespace policy, its selector empty; its CRD refuses `matchLabels` there).
pub(super) fn selector_ref_target(
    item: &Val,
    ns: Option<&str>,
    field: &str,
    invalid: &mut Vec<FieldError>,
) -> Option<TargetSpec> {
    if !is_namespace(item) {
        return None;
    }
    let labels = item.get("selector").and_then(|s| s.get("matchLabels"));
    if labels
        .and_then(Val::as_object)
        .is_some_and(|m| !m.is_empty())
    {
        invalid.push(FieldError::new(
            format!("{field}.selector.matchLabels"),
            FieldProblem::LabelsOnNamespace,
        ));
    }
    Some(TargetSpec::Ref(ObjRef::new("", "Namespace", None, ns?)))
}

/// The first targetRefs entry of `spec` that selects workloads the tool does not read
/// (Pods), described with the labels it selects by.
pub(super) fn workload_selector_ref(spec: &Map) -> Option<String> {
    let refs = spec.get("targetRefs").and_then(Val::as_array)?;
    let (i, item) = refs
        .iter()
        .enumerate()
        .find(|(_, item)| is_selector_ref(item) && !is_namespace(item))?;
    let kind = item.get("kind").and_then(Val::as_str).unwrap_or("Pod");
    let plural = format!("{}s", canonical_kind(kind));
    let selector = item.get("selector");
    let labels: Vec<String> = selector
        .and_then(|s| s.get("matchLabels"))
        .and_then(Val::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("?")))
        .collect();
    let expressions = selector
        .and_then(|s| s.get("matchExpressions"))
        .and_then(Val::as_array)
        .map_or(0, |list| list.len());
    let mut picks = match labels.is_empty() {
        true => format!("every {} of the namespace", canonical_kind(kind)),
        false => format!("{plural} labelled {}", labels.join(",")),
    };
    if expressions > 0 {
        picks.push_str(&format!(" and {expressions} matchExpressions"));
    }
    Some(format!(
        "spec.targetRefs[{i}].selector ({picks}; this tool does not read {plural})"
    ))
}
