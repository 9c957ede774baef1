//! targetRefs entries that pick their targets by a label `selector` instead of a name
//! (GKE's `PolicyTargetReferenceWithLabelSelectors`, the direction of GEP-3779):
//! `{kind: Namespace, selector: {}}` names the policy's whole namespace;
//! `{kind: Pod, selector: {matchLabels}}` picks the Pods of its namespace whose labels
//! match, which the topology resolves among the Pods in the input for the kinds the
//! registry says pick Pods (`Targeting::pod_selector`). Any other such entry binds the
//! policy outside the hierarchy the tool builds (SelectorBound), said with the labels
//! it selects by.

use super::invalid::{FieldError, FieldProblem};
use super::target_spec::{LabelSelector, PodSelector, TargetSpec};
use crate::model::{canonical_kind, Map, ObjRef, Val};

/// A targetRefs entry with a `selector` and no `name`.
pub(super) fn is_selector_ref(item: &Val) -> bool {
    item.get("selector").is_some_and(|v| !v.is_null())
        && item.get("name").is_none_or(|v| v.is_null())
}

fn kind_of(item: &Val) -> String {
    canonical_kind(item.get("kind").and_then(Val::as_str).unwrap_or("Pod")).to_string()
}

fn is_namespace(item: &Val) -> bool {
    kind_of(item) == "Namespace"
}

fn is_pod(item: &Val) -> bool {
    kind_of(item) == "Pod"
}

/// The target selector entry `item` (at `field`) of a policy in namespace `ns` names:
/// a Namespace entry the policy's own namespace (GKE: a namespace policy, its selector
/// empty; its CRD refuses `matchLabels` there), a Pod entry the Pods it picks.
pub(super) fn selector_ref_target(
    item: &Val,
    ns: Option<&str>,
    field: &str,
    invalid: &mut Vec<FieldError>,
) -> Option<TargetSpec> {
    let selector = item.get("selector")?;
    if is_pod(item) {
        return match LabelSelector::parse(selector, &format!("{field}.selector")) {
            Ok(parsed) => Some(TargetSpec::Pods(Box::new(PodSelector {
                field: field.to_string(),
                namespace: ns.map(str::to_string),
                selector: parsed,
                picks: picks(item),
            }))),
            Err(e) => {
                invalid.push(e);
                None
            }
        };
    }
    if !is_namespace(item) {
        return None;
    }
    let labels = selector.get("matchLabels");
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

/// What a selector entry picks, for people: "Pods labelled app=payments", "every Pod of
/// the namespace", with the number of its matchExpressions.
fn picks(item: &Val) -> String {
    let kind = kind_of(item);
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
        true => format!("every {kind} of the namespace"),
        false => format!("{kind}s labelled {}", labels.join(",")),
    };
    if expressions > 0 {
        picks.push_str(&format!(" and {expressions} matchExpressions"));
    }
    picks
}

/// The first targetRefs entry of `spec` that selects workloads the tool does not
/// resolve for this kind, described with the labels it selects by: Pods, unless the
/// registry says the kind picks them (`pods_resolved`), and any other kind of workload.
pub(super) fn workload_selector_ref(spec: &Map, pods_resolved: bool) -> Option<String> {
    let refs = spec.get("targetRefs").and_then(Val::as_array)?;
    let (i, item) = refs.iter().enumerate().find(|(_, item)| {
        is_selector_ref(item) && !is_namespace(item) && !(pods_resolved && is_pod(item))
    })?;
    let why = match is_pod(item) {
        true => "the registry does not say its kind picks Pods",
        false => "this tool does not read them",
    };
    Some(format!(
        "spec.targetRefs[{i}].selector ({}; {why})",
        picks(item)
    ))
}

/// The label selectors of `spec`'s targetRefs entries that pick Pods
/// (`{kind: Pod, selector}`), in kubectl's syntax (`app=payments,tier in (web)`; empty:
/// every Pod). An entry whose selector cannot be read gives none (the policy is
/// Invalid). What a live read lists Pods with (`focus::pod_lists`).
pub(crate) fn pod_selector_queries(spec: &Map) -> Vec<String> {
    let Some(refs) = spec.get("targetRefs").and_then(Val::as_array) else {
        return Vec::new();
    };
    refs.iter()
        .filter(|item| is_selector_ref(item) && is_pod(item))
        .filter_map(|item| {
            let selector = item.get("selector")?;
            LabelSelector::parse(selector, "selector").ok()
        })
        .map(|selector| selector.to_string())
        .collect()
}
