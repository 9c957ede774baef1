//! Where a policy says it attaches: `targetRef`, `targetRefs` (with their sections) and
//! `targetSelectors`, and the label selectors they carry.

use super::ports::{entry_ports, spec_ports};
use super::selector_refs::{is_selector_ref, selector_ref_target};
use crate::catalog::Sections;
use crate::model::{canonical_kind, default_group_for, is_cluster_scoped};
use crate::model::{normalize_group, GroupKind, ObjRef};
use crate::model::{Map, Text, Val};

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

/// `matchLabels` + `matchExpressions`, as Kubernetes evaluates them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSelector {
    pub match_labels: Vec<(String, String)>,
    pub match_expressions: Vec<(String, String, Vec<String>)>,
}

impl LabelSelector {
    pub fn parse(v: &Val, field: &str) -> Result<LabelSelector, (String, String)> {
        let mut sel = LabelSelector::default();
        let Some(m) = v.as_object() else {
            return Err((field.into(), "must be a mapping".into()));
        };
        if let Some(ml) = m.get("matchLabels").filter(|v| !v.is_null()) {
            let ml = ml.as_object().ok_or_else(|| {
                (
                    format!("{field}.matchLabels"),
                    "must be a map of strings".into(),
                )
            })?;
            for (k, v) in ml {
                let v = v.as_str().ok_or_else(|| {
                    (
                        format!("{field}.matchLabels.{k}"),
                        "must be a string".into(),
                    )
                })?;
                sel.match_labels.push((k.to_string(), v.to_string()));
            }
        }
        if let Some(me) = m.get("matchExpressions").filter(|v| !v.is_null()) {
            let me = me
                .as_array()
                .ok_or_else(|| (format!("{field}.matchExpressions"), "must be a list".into()))?;
            for (i, e) in me.iter().enumerate() {
                let f = format!("{field}.matchExpressions[{i}]");
                let key = e.get("key").and_then(Val::as_str);
                let op = e.get("operator").and_then(Val::as_str);
                let (Some(key), Some(op)) = (key, op) else {
                    return Err((f, "needs string key and operator".into()));
                };
                if !matches!(op, "In" | "NotIn" | "Exists" | "DoesNotExist") {
                    return Err((format!("{f}.operator"), format!("unknown operator {op:?}")));
                }
                let values = match e.get("values") {
                    None | Some(Val::Null) => Vec::new(),
                    Some(Val::Array(a)) => a
                        .iter()
                        .map(|v| v.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| {
                            (format!("{f}.values"), "must be a list of strings".into())
                        })?,
                    Some(_) => {
                        return Err((format!("{f}.values"), "must be a list of strings".into()))
                    }
                };
                sel.match_expressions.push((key.into(), op.into(), values));
            }
        }
        Ok(sel)
    }

    pub fn matches(&self, labels: &std::collections::BTreeMap<String, String>) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|(k, op, vals)| {
                let have = labels.get(k);
                match op.as_str() {
                    "In" => have.is_some_and(|h| vals.contains(h)),
                    "NotIn" => have.is_none_or(|h| !vals.contains(h)),
                    "Exists" => have.is_some(),
                    "DoesNotExist" => have.is_none(),
                    _ => false,
                }
            })
    }
}

/// Where a policy in namespace `ns` says it attaches: `targetRef`, `targetRefs` and
/// `targetSelectors`, in that order; what cannot be read goes to `invalid`. Ports a
/// reference names by number are not read: see `read_shaped_targets`.
pub(crate) fn read_targets(
    spec: &Map,
    ns: Option<&str>,
    invalid: &mut Vec<(String, String)>,
) -> Vec<TargetSpec> {
    read_shaped_targets(spec, ns, Sections::None, invalid)
}

/// `read_targets`, with the ports the references name by number as the kind's
/// registry shape (`sections`) says (`ports::entry_ports`, `ports::spec_ports`).
pub(crate) fn read_shaped_targets(
    spec: &Map,
    ns: Option<&str>,
    sections: Sections,
    invalid: &mut Vec<(String, String)>,
) -> Vec<TargetSpec> {
    let mut targets = Vec::new();
    if let Some(v) = spec.get("targetRef").filter(|v| !v.is_null()) {
        match read_ref(v, ns, || "spec.targetRef".to_string()) {
            Ok(r) => match entry_ports(v, &r, "spec.targetRef", sections, invalid) {
                Some(ports) => targets.extend(ports),
                None => push_sections(v, r, "spec.targetRef", &mut targets, invalid),
            },
            Err(e) => invalid.push(e),
        }
    }
    if let Some(v) = spec.get("targetRefs").filter(|v| !v.is_null()) {
        match v.as_array() {
            Some(list) => {
                for (i, item) in list.iter().enumerate() {
                    if is_selector_ref(item) {
                        // Picked by labels: a Namespace is resolved, Pods are not read
                        // (read_policy says so).
                        let field = format!("spec.targetRefs[{i}]");
                        targets.extend(selector_ref_target(item, ns, &field, invalid));
                        continue;
                    }
                    match read_ref(item, ns, || format!("spec.targetRefs[{i}]")) {
                        Ok(r) => {
                            let field = format!("spec.targetRefs[{i}]");
                            match entry_ports(item, &r, &field, sections, invalid) {
                                Some(ports) => targets.extend(ports),
                                None => push_sections(item, r, &field, &mut targets, invalid),
                            }
                        }
                        Err(e) => invalid.push(e),
                    }
                }
            }
            None => invalid.push((
                "spec.targetRefs".into(),
                "must be a list of references".into(),
            )),
        }
    }
    if let Some(v) = spec.get("targetSelectors").filter(|v| !v.is_null()) {
        match v.as_array() {
            Some(list) => {
                for (i, item) in list.iter().enumerate() {
                    let field = format!("spec.targetSelectors[{i}]");
                    match read_selector(item, ns, &field) {
                        Ok(t) => targets.push(t),
                        Err(e) => invalid.push(e),
                    }
                }
            }
            None => invalid.push(("spec.targetSelectors".into(), "must be a list".into())),
        }
    }
    spec_ports(spec, sections, &mut targets, invalid);
    // Kept for the life of the command, a list per policy: no room to spare.
    targets.shrink_to_fit();
    targets
}

/// The reference `r` read from `item`, once, or once per name of its `sectionNames`
/// list (Azure Application Gateway for Containers' pre-GEP-2648 shape: one targetRef
/// naming several listeners or rules).
fn push_sections(
    item: &Val,
    r: ObjRef,
    field: &str,
    targets: &mut Vec<TargetSpec>,
    invalid: &mut Vec<(String, String)>,
) {
    let names = match item.get("sectionNames") {
        None | Some(Val::Null) => return targets.push(TargetSpec::Ref(r)),
        Some(Val::Array(names)) => names,
        Some(_) => {
            invalid.push((
                format!("{field}.sectionNames"),
                "must be a list of names".into(),
            ));
            return targets.push(TargetSpec::Ref(r));
        }
    };
    let mut any = false;
    for (j, n) in names.iter().enumerate() {
        match n.as_str().filter(|n| !n.is_empty()) {
            Some(n) => {
                any = true;
                targets.push(TargetSpec::Ref(r.clone().with_section(Some(n))));
            }
            None => invalid.push((
                format!("{field}.sectionNames[{j}]"),
                "must be a non-empty string".into(),
            )),
        }
    }
    // An empty list names no section: the whole object.
    if !any {
        targets.push(TargetSpec::Ref(r));
    }
}

/// `field` names the reference in messages; it is built only for one.
fn read_ref(
    v: &Val,
    policy_ns: Option<&str>,
    field: impl Fn() -> String,
) -> Result<ObjRef, (String, String)> {
    let m = v
        .as_object()
        .ok_or_else(|| (field(), "must be a mapping with kind and name".to_string()))?;
    let s = |k: &str| -> Result<Option<&str>, (String, String)> {
        match m.get(k) {
            None | Some(Val::Null) => Ok(None),
            Some(Val::String(s)) => Ok(Some(&**s)),
            Some(_) => Err((format!("{}.{k}", field()), "must be a string".into())),
        }
    };
    let kind = s("kind")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| (format!("{}.kind", field()), "is missing".to_string()))?;
    let name = s("name")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| (format!("{}.name", field()), "is missing".to_string()))?;
    // kind is matched case-insensitively for core kinds some examples write in lower case.
    let kind = canonical_kind(kind);
    let group = match s("group")? {
        Some(g) => normalize_group(g).to_string(),
        None => default_group_for(&kind).to_string(),
    };
    let namespace = ref_namespace(&kind, s("namespace")?, policy_ns).map(str::to_string);
    // Flomesh names a route rule by `rule` (LocalFilterPolicyTargetReference).
    let section = s("sectionName")?.or(s("rule")?).filter(|s| !s.is_empty());
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
    v: &Val,
    policy_ns: Option<&str>,
    field: &str,
) -> Result<TargetSpec, (String, String)> {
    let m = v
        .as_object()
        .ok_or_else(|| (field.to_string(), "must be a mapping".to_string()))?;
    let kind = m
        .get("kind")
        .and_then(Val::as_str)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| (format!("{field}.kind"), "is missing".to_string()))?;
    let kind = canonical_kind(kind);
    let group = match m.get("group").and_then(Val::as_str) {
        Some(g) => normalize_group(g).to_string(),
        None => default_group_for(&kind).to_string(),
    };
    // An empty selector selects every object of the kind in scope, as Kubernetes
    // label selectors do (Envoy Gateway relies on it with `namespaces`).
    let selector = LabelSelector::parse(v, field)?;
    let same = if is_cluster_scoped(&kind) {
        None
    } else {
        policy_ns.map(str::to_string)
    };
    let namespaces = match m.get("namespaces").filter(|n| !n.is_null()) {
        None => SelectorScope::Same(same),
        Some(n) => {
            let from = n.get("from").and_then(Val::as_str).unwrap_or("Same");
            match from {
                "Same" => SelectorScope::Same(same),
                "All" => SelectorScope::All,
                "Selector" => {
                    let sel = match n.get("selector").filter(|s| !s.is_null()) {
                        Some(s) => {
                            LabelSelector::parse(s, &format!("{field}.namespaces.selector"))?
                        }
                        None => LabelSelector::default(),
                    };
                    SelectorScope::Labelled(sel)
                }
                other => {
                    return Err((
                        format!("{field}.namespaces.from"),
                        format!("unknown value {other:?} (Same, All or Selector)"),
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
