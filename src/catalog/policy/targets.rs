//! Where a policy says it attaches: `targetRef`, `targetRefs` (with their sections) and
//! `targetSelectors`, read into what each entry names (`target_spec`).

use super::invalid::{FieldError, FieldProblem};
use super::ports::{entry_ports, spec_ports};
use super::selector_refs::{is_selector_ref, selector_ref_target};
use super::target_spec::{LabelSelector, SelectorScope, TargetSpec};
use crate::catalog::Sections;
use crate::model::{canonical_kind, default_group_for, is_cluster_scoped};
use crate::model::{normalize_group, GroupKind, ObjRef};
use crate::model::{Map, Text, Val};

/// Where a policy in namespace `ns` says it attaches: `targetRef`, `targetRefs` and
/// `targetSelectors`, in that order; what cannot be read goes to `invalid`. Ports a
/// reference names by number are not read: see `read_shaped_targets`.
pub(crate) fn read_targets(
    spec: &Map,
    ns: Option<&str>,
    invalid: &mut Vec<FieldError>,
) -> Vec<TargetSpec> {
    read_shaped_targets(spec, ns, Sections::None, invalid)
}

/// `read_targets`, with the ports the references name by number as the kind's
/// registry shape (`sections`) says (`ports::entry_ports`, `ports::spec_ports`).
pub(crate) fn read_shaped_targets(
    spec: &Map,
    ns: Option<&str>,
    sections: Sections,
    invalid: &mut Vec<FieldError>,
) -> Vec<TargetSpec> {
    let mut targets = Vec::new();
    if let Some(entry) = spec.get("targetRef").filter(|v| !v.is_null()) {
        match read_ref(entry, ns, || "spec.targetRef".to_string()) {
            Ok(reference) => {
                match entry_ports(entry, &reference, "spec.targetRef", sections, invalid) {
                    Some(ports) => targets.extend(ports),
                    None => {
                        push_sections(entry, reference, "spec.targetRef", &mut targets, invalid)
                    }
                }
            }
            Err(e) => invalid.push(e),
        }
    }
    if let Some(refs) = spec.get("targetRefs").filter(|v| !v.is_null()) {
        match refs.as_array() {
            Some(list) => {
                for (i, item) in list.iter().enumerate() {
                    if is_selector_ref(item) {
                        // Picked by labels: a Namespace, or Pods (which read_policy
                        // keeps for the kinds the registry says pick them).
                        let field = format!("spec.targetRefs[{i}]");
                        targets.extend(selector_ref_target(item, ns, &field, invalid));
                        continue;
                    }
                    match read_ref(item, ns, || format!("spec.targetRefs[{i}]")) {
                        Ok(reference) => {
                            let field = format!("spec.targetRefs[{i}]");
                            match entry_ports(item, &reference, &field, sections, invalid) {
                                Some(ports) => targets.extend(ports),
                                None => {
                                    push_sections(item, reference, &field, &mut targets, invalid)
                                }
                            }
                        }
                        Err(e) => invalid.push(e),
                    }
                }
            }
            None => invalid.push(FieldError::new(
                "spec.targetRefs",
                FieldProblem::MustBe("a list of references"),
            )),
        }
    }
    if let Some(selectors) = spec.get("targetSelectors").filter(|v| !v.is_null()) {
        match selectors.as_array() {
            Some(list) => {
                for (i, item) in list.iter().enumerate() {
                    let field = format!("spec.targetSelectors[{i}]");
                    match read_selector(item, ns, &field) {
                        Ok(target) => targets.push(target),
                        Err(e) => invalid.push(e),
                    }
                }
            }
            None => invalid.push(FieldError::new(
                "spec.targetSelectors",
                FieldProblem::MustBe("a list"),
            )),
        }
    }
    spec_ports(spec, sections, &mut targets, invalid);
    // Kept for the life of the command, a list per policy: no room to spare.
    targets.shrink_to_fit();
    targets
}

/// The `reference` read from `item`, once, or once per name of its `sectionNames`
/// list (Azure Application Gateway for Containers' pre-GEP-2648 shape: one targetRef
/// naming several listeners or rules).
fn push_sections(
    item: &Val,
    reference: ObjRef,
    field: &str,
    targets: &mut Vec<TargetSpec>,
    invalid: &mut Vec<FieldError>,
) {
    let names = match item.get("sectionNames") {
        None | Some(Val::Null) => return targets.push(TargetSpec::Ref(reference)),
        Some(Val::Array(names)) => names,
        Some(_) => {
            invalid.push(FieldError::new(
                format!("{field}.sectionNames"),
                FieldProblem::MustBe("a list of names"),
            ));
            return targets.push(TargetSpec::Ref(reference));
        }
    };
    let mut any = false;
    for (j, name) in names.iter().enumerate() {
        match name.as_str().filter(|n| !n.is_empty()) {
            Some(section) => {
                any = true;
                targets.push(TargetSpec::Ref(
                    reference.clone().with_section(Some(section)),
                ));
            }
            None => invalid.push(FieldError::new(
                format!("{field}.sectionNames[{j}]"),
                FieldProblem::MustBe("a non-empty string"),
            )),
        }
    }
    // An empty list names no section: the whole object.
    if !any {
        targets.push(TargetSpec::Ref(reference));
    }
}

/// `field` names the reference in messages; it is built only for one.
fn read_ref(
    entry: &Val,
    policy_ns: Option<&str>,
    field: impl Fn() -> String,
) -> Result<ObjRef, FieldError> {
    let mapping = entry.as_object().ok_or_else(|| {
        FieldError::new(
            field(),
            FieldProblem::MustBe("a mapping with kind and name"),
        )
    })?;
    let string_at = |key: &str| -> Result<Option<&str>, FieldError> {
        match mapping.get(key) {
            None | Some(Val::Null) => Ok(None),
            Some(Val::String(text)) => Ok(Some(&**text)),
            Some(_) => Err(FieldError::new(
                format!("{}.{key}", field()),
                FieldProblem::MustBe("a string"),
            )),
        }
    };
    let kind = string_at("kind")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| FieldError::new(format!("{}.kind", field()), FieldProblem::Missing))?;
    let name = string_at("name")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| FieldError::new(format!("{}.name", field()), FieldProblem::Missing))?;
    // kind is matched case-insensitively for core kinds some examples write in lower case.
    let kind = canonical_kind(kind);
    let group = match string_at("group")? {
        Some(group) => normalize_group(group).to_string(),
        None => default_group_for(&kind).to_string(),
    };
    let namespace = ref_namespace(&kind, string_at("namespace")?, policy_ns).map(str::to_string);
    // Flomesh names a route rule by `rule` (LocalFilterPolicyTargetReference).
    let section = string_at("sectionName")?
        .or(string_at("rule")?)
        .filter(|s| !s.is_empty());
    Ok(ObjRef {
        group: group.into(),
        kind: kind.into(),
        namespace: namespace.map(Text::from),
        name: name.into(),
        section: section.map(Text::from),
    })
}

/// A reference's namespace: none for a cluster-scoped kind (as `canonical_kind`
/// writes it), else the one it names, else the policy's own.
pub(crate) fn ref_namespace<'a>(
    kind: &str,
    written: Option<&'a str>,
    policy_ns: Option<&'a str>,
) -> Option<&'a str> {
    match is_cluster_scoped(kind) {
        true => None,
        false => written.or(policy_ns),
    }
}

fn read_selector(
    entry: &Val,
    policy_ns: Option<&str>,
    field: &str,
) -> Result<TargetSpec, FieldError> {
    let mapping = entry
        .as_object()
        .ok_or_else(|| FieldError::new(field, FieldProblem::MustBe("a mapping")))?;
    let kind = mapping
        .get("kind")
        .and_then(Val::as_str)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| FieldError::new(format!("{field}.kind"), FieldProblem::Missing))?;
    let kind = canonical_kind(kind);
    let group = match mapping.get("group").and_then(Val::as_str) {
        Some(group) => normalize_group(group).to_string(),
        None => default_group_for(&kind).to_string(),
    };
    // An empty selector selects every object of the kind in scope, as Kubernetes
    // label selectors do (Envoy Gateway relies on it with `namespaces`).
    let selector = LabelSelector::parse(entry, field)?;
    let same = if is_cluster_scoped(&kind) {
        None
    } else {
        policy_ns.map(str::to_string)
    };
    let namespaces = match mapping.get("namespaces").filter(|n| !n.is_null()) {
        None => SelectorScope::Same(same),
        Some(namespaces) => {
            let from = namespaces
                .get("from")
                .and_then(Val::as_str)
                .unwrap_or("Same");
            match from {
                "Same" => SelectorScope::Same(same),
                "All" => SelectorScope::All,
                "Selector" => {
                    let labels = match namespaces.get("selector").filter(|s| !s.is_null()) {
                        Some(selector) => {
                            LabelSelector::parse(selector, &format!("{field}.namespaces.selector"))?
                        }
                        None => LabelSelector::default(),
                    };
                    SelectorScope::Labelled(labels)
                }
                other => {
                    return Err(FieldError::new(
                        format!("{field}.namespaces.from"),
                        FieldProblem::UnknownValue {
                            value: other.to_string(),
                            expected: "Same, All or Selector",
                        },
                    ))
                }
            }
        }
    };
    Ok(TargetSpec::Selector {
        group_kind: GroupKind::new(&group, &kind),
        namespaces,
        selector,
    })
}
