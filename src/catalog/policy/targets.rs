//! Where a policy says it attaches: `targetRef`, `targetRefs` (with their sections) and
//! `targetSelectors`, and the label selectors they carry.

use super::invalid::{FieldError, FieldProblem};
use super::ports::{entry_ports, spec_ports};
use super::selector_refs::{is_selector_ref, selector_ref_target};
use crate::catalog::Sections;
use crate::model::{canonical_kind, default_group_for, is_cluster_scoped};
use crate::model::{normalize_group, GroupKind, ObjRef};
use crate::model::{Map, Text, Val};
use kube::core::{Expression, Selector, SelectorExt};
use std::collections::{BTreeMap, BTreeSet};

/// What a target entry names.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetSpec {
    /// `targetRef` / `targetRefs[i]`, namespace filled in, group normalised.
    Ref(ObjRef),
    /// `targetSelectors[i]`: objects of this kind whose labels match, in the namespaces
    /// it names (the policy's own unless Envoy Gateway's `namespaces` says otherwise).
    Selector {
        group_kind: GroupKind,
        namespaces: SelectorScope,
        selector: LabelSelector,
    },
    /// `targetRefs[i]` picking Pods by label (`{kind: Pod, selector}`, GKE): the Pods
    /// of the policy's namespace whose labels match. Resolved for the kinds the
    /// registry says pick Pods (`Targeting::pod_selector`), when Pods are in the input.
    Pods(Box<PodSelector>),
}

/// A targetRefs entry that picks Pods by label, as read (`TargetSpec::Pods`).
#[derive(Clone, Debug, PartialEq)]
pub struct PodSelector {
    /// Where it is written: `spec.targetRefs[i]`.
    pub field: String,
    /// The policy's namespace, where the Pods are looked for (none: a cluster-scoped
    /// policy, which picks none).
    pub namespace: Option<String>,
    pub selector: LabelSelector,
    /// What it picks, for people: "Pods labelled app=payments", "every Pod of the
    /// namespace".
    pub picks: String,
}

/// The namespaces a `targetSelectors` entry looks in: Envoy Gateway's
/// `namespaces: {from: Same | All | Selector, selector}` (a match in another namespace
/// than the policy's needs a ReferenceGrant there).
#[derive(Clone, Debug, PartialEq)]
pub enum SelectorScope {
    /// The policy's namespace (none: a cluster-scoped kind).
    Same(Option<String>),
    All,
    /// Namespaces whose labels match.
    Labelled(LabelSelector),
}

/// `matchLabels` + `matchExpressions`, as Kubernetes evaluates them: kube's typed
/// selector, each label of `matchLabels` an [`Expression::Equal`] and each entry of
/// `matchExpressions` the expression of its operator. `-l` builds one from kubectl's
/// syntax.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSelector(Selector);

impl LabelSelector {
    /// Reads a `{matchLabels, matchExpressions}` mapping at `field`. An In or NotIn
    /// without values is read as an empty set (In then matches nothing, NotIn
    /// everything), as the tool always has; values beside Exists or DoesNotExist are
    /// ignored.
    pub fn parse(value: &Val, field: &str) -> Result<LabelSelector, FieldError> {
        let Some(mapping) = value.as_object() else {
            return Err(FieldError::new(field, FieldProblem::MustBe("a mapping")));
        };
        let mut expressions = Vec::new();
        if let Some(labels) = mapping.get("matchLabels").filter(|v| !v.is_null()) {
            let labels = labels.as_object().ok_or_else(|| {
                FieldError::new(
                    format!("{field}.matchLabels"),
                    FieldProblem::MustBe("a map of strings"),
                )
            })?;
            for (key, label) in labels {
                let label = label.as_str().ok_or_else(|| {
                    FieldError::new(
                        format!("{field}.matchLabels.{key}"),
                        FieldProblem::MustBe("a string"),
                    )
                })?;
                expressions.push(Expression::Equal(key.to_string(), label.to_string()));
            }
        }
        if let Some(list) = mapping.get("matchExpressions").filter(|v| !v.is_null()) {
            let list = list.as_array().ok_or_else(|| {
                FieldError::new(
                    format!("{field}.matchExpressions"),
                    FieldProblem::MustBe("a list"),
                )
            })?;
            for (i, entry) in list.iter().enumerate() {
                let entry_field = format!("{field}.matchExpressions[{i}]");
                expressions.push(read_expression(entry, &entry_field)?);
            }
        }
        Ok(LabelSelector(expressions.into_iter().collect()))
    }

    /// Whether `labels` satisfy every label and expression.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.0.matches(labels)
    }
}

impl From<Selector> for LabelSelector {
    fn from(selector: Selector) -> LabelSelector {
        LabelSelector(selector)
    }
}

impl FromIterator<Expression> for LabelSelector {
    fn from_iter<I: IntoIterator<Item = Expression>>(expressions: I) -> LabelSelector {
        LabelSelector(expressions.into_iter().collect())
    }
}

/// kubectl's syntax (`env in (prod),team=web`).
impl std::fmt::Display for LabelSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// One `matchExpressions` entry (at `field`): its key, operator and values.
fn read_expression(entry: &Val, field: &str) -> Result<Expression, FieldError> {
    let key = entry.get("key").and_then(Val::as_str);
    let operator = entry.get("operator").and_then(Val::as_str);
    let (Some(key), Some(operator)) = (key, operator) else {
        return Err(FieldError::new(field, FieldProblem::NeedsKeyAndOperator));
    };
    let values = || -> Result<BTreeSet<String>, FieldError> {
        let not_strings = || {
            FieldError::new(
                format!("{field}.values"),
                FieldProblem::MustBe("a list of strings"),
            )
        };
        match entry.get("values") {
            None | Some(Val::Null) => Ok(BTreeSet::new()),
            Some(Val::Array(values)) => values
                .iter()
                .map(|v| v.as_str().map(str::to_string).ok_or_else(not_strings))
                .collect(),
            Some(_) => Err(not_strings()),
        }
    };
    // Values are read (and refused when they are not strings) for every operator.
    let key = key.to_string();
    Ok(match operator {
        "In" => Expression::In(key, values()?),
        "NotIn" => Expression::NotIn(key, values()?),
        "Exists" => values().map(|_| Expression::Exists(key))?,
        "DoesNotExist" => values().map(|_| Expression::DoesNotExist(key))?,
        other => {
            return Err(FieldError::new(
                format!("{field}.operator"),
                FieldProblem::UnknownOperator(other.to_string()),
            ))
        }
    })
}

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
