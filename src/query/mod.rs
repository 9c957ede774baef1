//! One function per question, pure, over topology + effective results. Each returns
//! a plain struct that serialises to the JSON shape of CLI.md and that the human
//! renderers print.

pub mod blast;
pub mod graph;
pub mod names;
pub mod outline;
pub mod types;
mod world;

pub use world::{analyze, analyze_yaml, LazyStatuses, World};

use crate::catalog::policy::Policy;
use crate::catalog::Class;
use crate::effective::{EffectiveGroup, KindFold, PolicyStatus, StatusesAt};
use crate::model::BlindSpot;
use crate::model::{GroupKind, ObjRef};
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, Role, Topology};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PolicyKindRef {
    pub group: String,
    pub kind: String,
}

impl From<&GroupKind> for PolicyKindRef {
    fn from(g: &GroupKind) -> Self {
        PolicyKindRef {
            group: g.group.clone(),
            kind: g.kind.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Source {
    pub path: String,
    pub policy: ObjRef,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Effective {
    #[serde(rename = "policyKind")]
    pub policy_kind: PolicyKindRef,
    /// The object or section this effective spec is for.
    pub target: ObjRef,
    pub contexts: Vec<Vec<ObjRef>>,
    pub spec: Value,
    pub sources: Vec<Source>,
}

impl Effective {
    pub fn from_group(w: &World, g: &EffectiveGroup) -> Effective {
        Effective {
            policy_kind: (&g.kind).into(),
            target: w.topology.nodes[g.node].obj_ref.clone(),
            contexts: g.contexts.clone(),
            spec: g.spec.clone(),
            sources: g
                .sources
                .iter()
                .map(|(path, p)| Source {
                    path: path.clone(),
                    policy: w.policy_ref(*p),
                })
                .collect(),
        }
    }
}

// ---------------------------------------------------------------- get policies

#[derive(Clone, Debug, Serialize)]
pub struct PolicyRow {
    pub policy: ObjRef,
    pub class: Class,
    pub targets: Vec<ObjRef>,
    pub status: PolicyStatus,
    pub affects: usize,
    #[serde(rename = "creationTimestamp", skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    #[serde(skip)]
    pub strategy: String,
    #[serde(skip)]
    pub class_source: &'static str,
}

/// Every policy in scope (`namespace` None: all namespaces), sorted.
pub fn get_policies(w: &World, namespace: Option<&str>) -> Vec<PolicyRow> {
    let mut rows: Vec<PolicyRow> = w
        .topology
        .policies
        .iter()
        .enumerate()
        .filter(|(_, p)| namespace.is_none() || p.obj_ref.namespace.as_deref() == namespace)
        .map(|(i, p)| PolicyRow {
            policy: p.obj_ref.clone(),
            class: p.class,
            targets: w.topology.targets[i]
                .iter()
                .map(|r| r.target.clone())
                .collect(),
            status: w.statuses.overall[i],
            affects: w.statuses.affects_count(&w.topology, i),
            creation_timestamp: p.creation_timestamp.clone(),
            strategy: p.strategy_name(),
            class_source: p.class_source.as_str(),
        })
        .collect();
    rows.sort_by(|a, b| {
        (
            &a.policy.namespace,
            &a.policy.name,
            &a.policy.kind,
            &a.policy.group,
        )
            .cmp(&(
                &b.policy.namespace,
                &b.policy.name,
                &b.policy.kind,
                &b.policy.group,
            ))
    });
    rows
}

// ---------------------------------------------------------------- get kinds

#[derive(Clone, Debug, Serialize)]
pub struct KindRow {
    pub kind: String,
    pub group: String,
    pub class: Class,
    pub source: &'static str,
    pub count: usize,
    #[serde(skip)]
    pub merge: &'static str,
    #[serde(skip)]
    pub project: &'static str,
}

pub fn get_kinds(w: &World) -> Vec<KindRow> {
    let mut rows: Vec<KindRow> = w
        .topology
        .catalog
        .kinds
        .values()
        .map(|k| KindRow {
            kind: k.kind.clone(),
            group: k.group.clone(),
            class: k.class,
            source: k.source.as_str(),
            count: w
                .topology
                .policies
                .iter()
                .filter(|p| p.kind == k.group_kind())
                .count(),
            merge: k.merge.describe(),
            project: k.project,
        })
        .collect();
    rows.sort_by(|a, b| (&a.kind, &a.group).cmp(&(&b.kind, &b.group)));
    rows
}

// ---------------------------------------------------------------- describe target

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    Direct,
    Section,
    Inherited,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReachingPolicy {
    pub policy: ObjRef,
    pub class: Class,
    #[serde(rename = "attachedTo")]
    pub attached_to: ObjRef,
    pub relation: Relation,
    pub status: PolicyStatus,
}

#[derive(Clone, Debug, Serialize)]
pub struct TargetDescription {
    pub kind: &'static str,
    pub target: ObjRef,
    pub policies: Vec<ReachingPolicy>,
    pub effective: Vec<Effective>,
    pub findings: Vec<Finding>,
    #[serde(rename = "blindSpots")]
    pub blind_spots: Vec<BlindSpot>,
    /// What controllers wrote on the target: `<Kind>PolicyAffected` (or `...Affected`)
    /// conditions and annotations (GEP-713's "on targeted resources").
    #[serde(rename = "reportedAffected", skip_serializing_if = "Vec::is_empty")]
    pub reported_affected: Vec<ReportedCondition>,
    #[serde(skip)]
    pub parents: Vec<ObjRef>,
    #[serde(skip)]
    pub children: Vec<ObjRef>,
}

/// Where a policy attaches: its resolved nodes, and namespace levels.
fn attachment_points(t: &Topology, p: PolicyId) -> (Vec<NodeId>, Vec<String>) {
    let mut nodes = Vec::new();
    let mut nss = Vec::new();
    for r in &t.targets[p] {
        match &r.resolution {
            Resolution::Node(n) => nodes.push(*n),
            Resolution::Namespace(ns) => nss.push(ns.clone()),
            Resolution::NotFound(_) => {}
        }
    }
    (nodes, nss)
}

/// That / which / what, for one object.
pub fn describe_target(w: &World, n: NodeId) -> TargetDescription {
    let t = &w.topology;
    let node = &t.nodes[n];
    let sections: Vec<NodeId> = node
        .children
        .iter()
        .copied()
        .filter(|&c| t.nodes[c].owner == Some(n))
        .collect();
    let mut here = vec![n];
    here.extend(&sections);
    // Statuses at this object and its sections only: no need to fold the whole topology.
    let st = StatusesAt::compute(t, &here);
    let mut reaching: Vec<PolicyId> = st.per_node.keys().copied().collect();
    reaching.extend(st.conflicts.iter().map(|c| c.0));
    reaching.sort_unstable();
    reaching.dedup();
    let none = BTreeMap::new();
    let mut policies = Vec::new();
    for p in reaching {
        let per_node = st.per_node.get(&p).unwrap_or(&none);
        let at_node = per_node.get(&n).copied();
        let at_section = sections
            .iter()
            .find_map(|s| per_node.get(s).map(|st| (*s, *st)));
        let conflicted_here = st.conflicts.iter().any(|&(l, ..)| l == p);
        if at_node.is_none() && at_section.is_none() && !conflicted_here {
            continue;
        }
        let (nodes, nss) = attachment_points(t, p);
        let (relation, attached_to, status) = if nodes.contains(&n) {
            (Relation::Direct, node.obj_ref.clone(), at_node)
        } else if let Some(s) = sections.iter().find(|s| nodes.contains(s)) {
            (
                Relation::Section,
                t.nodes[*s].obj_ref.clone(),
                per_node.get(s).copied(),
            )
        } else if let Some(ns) = nss.first() {
            (
                Relation::Inherited,
                ObjRef::new("", "Namespace", None, ns),
                at_node.or(at_section.map(|x| x.1)),
            )
        } else {
            let anc = t.ancestors(n);
            let from = nodes
                .iter()
                .find(|a| anc.contains(a))
                .map(|&a| t.nodes[a].obj_ref.clone())
                .unwrap_or_else(|| node.obj_ref.clone());
            (
                Relation::Inherited,
                from,
                at_node.or(at_section.map(|x| x.1)),
            )
        };
        let status = if conflicted_here && status.is_none() {
            PolicyStatus::Conflicted
        } else {
            status.unwrap_or(PolicyStatus::Enforced)
        };
        policies.push(ReachingPolicy {
            policy: t.policies[p].obj_ref.clone(),
            class: t.policies[p].class,
            attached_to,
            relation,
            status,
        });
    }
    policies.sort_by(|a, b| (&a.policy.kind, &a.policy).cmp(&(&b.policy.kind, &b.policy)));
    let mut effective = Vec::new();
    for kind in KindFold::kinds_in_use(t) {
        let mut f = KindFold::new(t, &kind);
        let here = f.effective_at(n);
        let mut groups: Vec<EffectiveGroup> = here.clone();
        for &s in &sections {
            let at = f.effective_at(s);
            // A section is shown when what applies there differs from its object.
            let differs = at.len() != here.len()
                || at
                    .iter()
                    .zip(&here)
                    .any(|(a, b)| a.spec != b.spec || a.sources != b.sources);
            if differs {
                groups.extend(at);
            }
        }
        effective.extend(groups.iter().map(|g| Effective::from_group(w, g)));
    }
    let mut findings = findings_about(w, n, &sections);
    let reported_affected = node
        .object
        .map(|o| affected_marks(&t.snapshot.objects[o]))
        .unwrap_or_default();
    // A target that says a kind of policy affects it while none reaches it (or the reverse
    // for a kind the computation finds) is worth a look.
    for r in &reported_affected {
        let Some(kind) = r.type_.strip_suffix("Affected") else {
            continue;
        };
        let reaches = policies.iter().any(|p| p.policy.kind == kind);
        if r.status == "True" && !reaches {
            findings.push(Finding::new(
                Code::StatusDisagrees,
                node.obj_ref.clone(),
                format!(
                    "the object reports {}=True but no {kind} reaches it",
                    r.type_
                ),
            ));
        }
    }
    TargetDescription {
        kind: "TargetDescription",
        target: node.obj_ref.clone(),
        policies,
        effective,
        findings,
        blind_spots: t.snapshot.blind_spots.clone(),
        reported_affected,
        parents: node
            .parents
            .iter()
            .map(|&p| t.nodes[p].obj_ref.clone())
            .collect(),
        children: node
            .children
            .iter()
            .filter(|&&c| t.nodes[c].owner != Some(n))
            .map(|&c| t.nodes[c].obj_ref.clone())
            .collect(),
    }
}

/// That / which / what, for a Namespace: the policies that target it (inherited ones
/// apply at its level above every object in it; Direct ones to the Namespace itself)
/// and what the Direct ones make there. None when the input knows no such namespace.
pub fn describe_namespace(w: &World, name: &str) -> Option<TargetDescription> {
    let t = &w.topology;
    let r = ObjRef::new("", "Namespace", None, name);
    let node = t.lookup(&r);
    if node.is_none() && !t.namespaces.contains_key(name) {
        return None;
    }
    let mut d = match node {
        Some(n) => describe_target(w, n),
        None => TargetDescription {
            kind: "TargetDescription",
            target: r.clone(),
            policies: Vec::new(),
            effective: Vec::new(),
            findings: findings_on(w, &[&r]),
            blind_spots: t.snapshot.blind_spots.clone(),
            reported_affected: Vec::new(),
            parents: Vec::new(),
            children: Vec::new(),
        },
    };
    for &p in t.ns_attached.get(name).into_iter().flatten() {
        d.policies.push(ReachingPolicy {
            policy: t.policies[p].obj_ref.clone(),
            class: t.policies[p].class,
            attached_to: r.clone(),
            relation: Relation::Direct,
            status: w.statuses.overall[p],
        });
    }
    d.policies
        .sort_by(|a, b| (&a.policy.kind, &a.policy).cmp(&(&b.policy.kind, &b.policy)));
    Some(d)
}

/// A metav1.Condition as the tool shows it (no controller or ancestor yet).
fn condition(c: &Value) -> Option<ReportedCondition> {
    let text = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
    Some(ReportedCondition {
        controller: None,
        ancestor: None,
        type_: text("type")?,
        status: text("status").unwrap_or_else(|| "Unknown".into()),
        reason: text("reason").unwrap_or_default(),
        message: text("message").unwrap_or_default(),
    })
}

/// `status.conditions` whose type ends in `PolicyAffected`, and annotations whose key
/// does (`gateway.nginx.org/ClientSettingsPolicyAffected: "true"`, `kuadrant.io/AuthPolicyAffected`).
fn affected_marks(o: &crate::model::Object) -> Vec<ReportedCondition> {
    let mut out = Vec::new();
    for c in o
        .status
        .get("conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(ty) = c.get("type").and_then(Value::as_str) else {
            continue;
        };
        if !ty.ends_with("PolicyAffected") {
            continue;
        }
        if let Some(r) = condition(c) {
            let kind = ty.rsplit('/').next().unwrap_or(ty).to_string();
            out.push(ReportedCondition { type_: kind, ..r });
        }
    }
    for (k, v) in &o.annotations {
        let kind = k.rsplit('/').next().unwrap_or(k);
        if kind.ends_with("PolicyAffected") {
            out.push(ReportedCondition {
                controller: None,
                ancestor: None,
                type_: kind.to_string(),
                status: if v.eq_ignore_ascii_case("true") {
                    "True".into()
                } else {
                    v.clone()
                },
                reason: String::new(),
                message: format!("annotation {k}"),
            });
        }
    }
    out
}

/// Findings on the object or its sections: what `check` reports on them, without
/// checking everything else.
fn findings_about(w: &World, n: NodeId, sections: &[NodeId]) -> Vec<Finding> {
    let mut refs = vec![&w.topology.nodes[n].obj_ref];
    refs.extend(sections.iter().map(|&s| &w.topology.nodes[s].obj_ref));
    findings_on(w, &refs)
}

/// `check`'s findings whose object is one of `refs`.
fn findings_on(w: &World, refs: &[&ObjRef]) -> Vec<Finding> {
    let t = &w.topology;
    let mut out: Vec<Finding> = t
        .findings
        .iter()
        .filter(|f| refs.contains(&&f.object))
        .cloned()
        .collect();
    for (p, pol) in t.policies.iter().enumerate() {
        if refs.contains(&&pol.obj_ref) {
            out.extend(policy_findings(w, p));
        }
    }
    crate::topology::findings::sort_findings(&mut out);
    out.dedup();
    out
}

// ---------------------------------------------------------------- describe policy

#[derive(Clone, Debug, Serialize)]
pub struct TargetState {
    #[serde(rename = "ref")]
    pub target: ObjRef,
    pub resolved: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Code>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Affected {
    pub target: ObjRef,
    pub status: PolicyStatus,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReportedCondition {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ancestor: Option<ObjRef>,
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct StatusPair {
    pub computed: PolicyStatus,
    pub reported: Vec<ReportedCondition>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PolicyDescription {
    pub kind: &'static str,
    pub policy: ObjRef,
    pub class: Class,
    #[serde(rename = "classSource")]
    pub class_source: &'static str,
    pub targets: Vec<TargetState>,
    pub affects: Vec<Affected>,
    #[serde(rename = "affectsCount")]
    pub affects_count: usize,
    pub status: StatusPair,
    pub findings: Vec<Finding>,
    #[serde(rename = "blindSpots")]
    pub blind_spots: Vec<BlindSpot>,
    #[serde(skip)]
    pub strategy: String,
    #[serde(skip)]
    pub merge: &'static str,
    #[serde(skip)]
    pub project: &'static str,
    #[serde(skip)]
    pub spec: Value,
    #[serde(skip)]
    pub creation_timestamp: Option<String>,
    /// Policies this one lost to (Direct conflicts).
    #[serde(skip)]
    pub lost_to: Vec<ObjRef>,
}

pub fn describe_policy(w: &World, p: PolicyId) -> PolicyDescription {
    let t = &w.topology;
    let pol: &Policy = &t.policies[p];
    let targets = t.targets[p]
        .iter()
        .map(|r| TargetState {
            target: r.target.clone(),
            resolved: !matches!(r.resolution, Resolution::NotFound(_)),
            reason: match r.resolution {
                Resolution::NotFound(c) => Some(c),
                _ => None,
            },
        })
        .collect();
    let mut affects: Vec<Affected> = w.statuses.per_node[p]
        .iter()
        .map(|(n, s)| Affected {
            target: t.nodes[n].obj_ref.clone(),
            status: s,
        })
        .collect();
    affects.sort_by(|a, b| a.target.cmp(&b.target));
    let pk = t.catalog.get(&pol.kind);
    let lost_to = w
        .statuses
        .conflicts
        .iter()
        .filter(|c| c.0 == p)
        .map(|c| t.policies[c.1].obj_ref.clone())
        .collect();
    PolicyDescription {
        kind: "PolicyDescription",
        policy: pol.obj_ref.clone(),
        class: pol.class,
        class_source: pol.class_source.as_str(),
        targets,
        affects_count: w.statuses.affects_count(t, p),
        affects,
        status: StatusPair {
            computed: w.statuses.overall[p],
            reported: reported_status(t, p),
        },
        findings: findings_on(w, &[&pol.obj_ref]),
        blind_spots: t.snapshot.blind_spots.clone(),
        strategy: pol.strategy_name(),
        merge: pk.map(|k| k.merge.describe()).unwrap_or_default(),
        project: pk.map(|k| k.project).unwrap_or_default(),
        spec: t.snapshot.objects[pol.object].spec.clone(),
        creation_timestamp: pol.creation_timestamp.clone(),
        lost_to,
    }
}

/// What controllers wrote: `status.ancestors[].conditions` (with ancestorRef and
/// controllerName) or plain `status.conditions`.
pub fn reported_status(t: &Topology, p: PolicyId) -> Vec<ReportedCondition> {
    let pol = &t.policies[p];
    let status = &t.snapshot.objects[pol.object].status;
    let mut out = Vec::new();
    let cond = |c: &Value, controller: Option<String>, ancestor: Option<ObjRef>| {
        condition(c).map(|r| ReportedCondition {
            controller,
            ancestor,
            ..r
        })
    };
    if let Some(ancestors) = status.get("ancestors").and_then(Value::as_array) {
        for a in ancestors {
            let controller = a
                .get("controllerName")
                .and_then(Value::as_str)
                .map(str::to_string);
            let ancestor = a.get("ancestorRef").and_then(|r| {
                let kind = r.get("kind").and_then(Value::as_str).unwrap_or("Gateway");
                let group = r
                    .get("group")
                    .and_then(Value::as_str)
                    .unwrap_or(crate::model::GATEWAY_GROUP);
                let name = r.get("name").and_then(Value::as_str)?;
                let ns = r
                    .get("namespace")
                    .and_then(Value::as_str)
                    .or(pol.obj_ref.namespace.as_deref());
                let ns = if crate::model::is_cluster_scoped(kind) {
                    None
                } else {
                    ns
                };
                Some(
                    ObjRef::new(group, kind, ns, name)
                        .with_section(r.get("sectionName").and_then(Value::as_str)),
                )
            });
            for c in a
                .get("conditions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.extend(cond(c, controller.clone(), ancestor.clone()));
            }
        }
    }
    for c in status
        .get("conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.extend(cond(c, None, None));
    }
    out
}

// ---------------------------------------------------------------- check

/// Every finding: the topology's, Direct conflicts, and controller statuses that the
/// computation contradicts. Sorted.
pub fn check(w: &World) -> Vec<Finding> {
    let mut out = w.topology.findings.clone();
    for p in 0..w.topology.policies.len() {
        out.extend(policy_findings(w, p));
    }
    crate::topology::findings::sort_findings(&mut out);
    out.dedup();
    out
}

/// The findings on policy `p` that the computation adds to the topology's: the Direct
/// conflicts it loses, and a controller status that the computed one contradicts.
fn policy_findings(w: &World, p: PolicyId) -> Vec<Finding> {
    let t = &w.topology;
    let mut out = Vec::new();
    // Conflicts are sorted, so p's losses are one run of them.
    let from = w.statuses.conflicts.partition_point(|c| c.0 < p);
    let mut seen = std::collections::BTreeSet::new();
    for &(_, winner, n) in w.statuses.conflicts[from..].iter().take_while(|c| c.0 == p) {
        if !seen.insert(n) {
            continue;
        }
        out.push(Finding::new(
            Code::Conflicted,
            t.policies[p].obj_ref.clone(),
            format!(
                "loses to {} {} on {}: the oldest policy wins (GEP-713 None)",
                t.policies[winner].kind.kind,
                t.policies[winner].obj_ref.ns_name(),
                t.nodes[n].obj_ref.short()
            ),
        ));
    }
    let computed = w.statuses.overall[p];
    for c in reported_status(t, p) {
        let says_ok = c.status == "True"
            && matches!(c.type_.as_str(), "Accepted" | "Enforced" | "Programmed");
        let says_not = c.status == "False" && c.type_ == "Accepted";
        let contradicts = (says_ok
            && matches!(
                computed,
                PolicyStatus::Conflicted
                    | PolicyStatus::Overridden
                    | PolicyStatus::TargetNotFound
                    | PolicyStatus::SectionNotFound
            )
            && !(c.type_ == "Accepted" && computed == PolicyStatus::Overridden))
            || (says_not && computed == PolicyStatus::Enforced);
        if contradicts {
            out.push(Finding::new(
                Code::StatusDisagrees,
                t.policies[p].obj_ref.clone(),
                format!(
                    "{} reports {}={}{} but the computed status is {}",
                    c.controller.as_deref().unwrap_or("a controller"),
                    c.type_,
                    c.status,
                    if c.reason.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", c.reason)
                    },
                    computed.as_str()
                ),
            ));
            break;
        }
    }
    out
}

// ---------------------------------------------------------------- effective

#[derive(Clone, Debug, Serialize)]
pub struct EffectivePolicies {
    pub kind: &'static str,
    pub target: ObjRef,
    pub effective: Vec<Effective>,
    #[serde(rename = "blindSpots")]
    pub blind_spots: Vec<BlindSpot>,
}

pub fn effective(w: &World, n: NodeId, kind: Option<&GroupKind>) -> EffectivePolicies {
    let t = &w.topology;
    let mut effective = Vec::new();
    for k in KindFold::kinds_in_use(t) {
        if kind.is_some_and(|want| *want != k) {
            continue;
        }
        let mut f = KindFold::new(t, &k);
        effective.extend(
            f.effective_at(n)
                .iter()
                .map(|g| Effective::from_group(w, g)),
        );
    }
    EffectivePolicies {
        kind: "EffectivePolicies",
        target: t.nodes[n].obj_ref.clone(),
        effective,
        blind_spots: t.snapshot.blind_spots.clone(),
    }
}

// ---------------------------------------------------------------- tree

/// One line of `tree`: a node, the policies attached to it, and its children.
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    #[serde(rename = "ref")]
    pub obj_ref: ObjRef,
    /// The status of one policy at this node, in a tree drawn for that policy
    /// (`describe POLICY -o tree`); for an unresolved target, why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<PolicyStatus>,
    pub policies: Vec<TreePolicy>,
    pub children: Vec<TreeNode>,
    /// Shown once already elsewhere in this tree (a DAG node with several parents).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub repeated: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct TreePolicy {
    pub policy: ObjRef,
    pub status: PolicyStatus,
    #[serde(rename = "viaNamespace", skip_serializing_if = "std::ops::Not::not")]
    pub via_namespace: bool,
}

/// The hierarchy from `root` (or every root in scope) down, policies hung on nodes.
pub fn tree(w: &World, root: Option<NodeId>, namespace: Option<&str>) -> Vec<TreeNode> {
    let t = &w.topology;
    let scope = scope(t, namespace);
    let scope = scope.as_deref();
    let roots: Vec<NodeId> = match root {
        Some(r) => vec![r],
        None => {
            let mut r: Vec<NodeId> = t
                .roots()
                .into_iter()
                .filter(|&n| scope.is_none_or(|s| s[n]))
                .collect();
            r.sort_by(|a, b| role_then_ref(t, *a, *b));
            r
        }
    };
    let view = TreeView {
        child: &|n, c| t.nodes[c].owner == Some(n) || scope.is_none_or(|s| s[c]),
        policy: &|p| Some(w.statuses.overall[p]),
        status: &|_| None,
    };
    let mut forest = view.forest(w, roots);
    if root.is_none() {
        forest.extend(unattached(w, namespace));
    }
    forest
}

/// The policies in scope that attach nowhere, apart after the hierarchy, each under
/// the target it names (with why it did not attach), so `tree` hides none of them.
fn unattached(w: &World, namespace: Option<&str>) -> Vec<TreeNode> {
    let t = &w.topology;
    let mut by_target: BTreeMap<ObjRef, TreeNode> = BTreeMap::new();
    for (p, pol) in t.policies.iter().enumerate() {
        let attached = pol.rejected.is_none()
            && t.targets[p]
                .iter()
                .any(|r| !matches!(r.resolution, Resolution::NotFound(_)));
        let in_scope = namespace.is_none_or(|ns| pol.obj_ref.namespace.as_deref() == Some(ns));
        if attached || !in_scope {
            continue;
        }
        let status = w.statuses.overall[p];
        let mut targets: Vec<(ObjRef, PolicyStatus)> = t.targets[p]
            .iter()
            .map(|r| match r.resolution {
                Resolution::NotFound(code) => (r.target.clone(), unresolved_status(code)),
                _ => (r.target.clone(), status),
            })
            .collect();
        if targets.is_empty() {
            // Bound by a workload selector, or naming nothing readable.
            let what = pol.workload_selector.as_deref().unwrap_or("no target");
            let r = ObjRef::new("", "Workloads", pol.obj_ref.namespace.as_deref(), what);
            targets.push((r, status));
        }
        for (target, why) in targets {
            let node = by_target.entry(target.clone()).or_insert_with(|| TreeNode {
                obj_ref: target,
                status: Some(why),
                policies: Vec::new(),
                children: Vec::new(),
                repeated: false,
            });
            node.policies.push(TreePolicy {
                policy: pol.obj_ref.clone(),
                status,
                via_namespace: false,
            });
        }
    }
    by_target.into_values().collect()
}

fn role_then_ref(t: &Topology, a: NodeId, b: NodeId) -> std::cmp::Ordering {
    (t.nodes[a].role, &t.nodes[a].obj_ref).cmp(&(t.nodes[b].role, &t.nodes[b].obj_ref))
}

/// The nodes in scope of `-n ns` (none: every node): a node is when it or anything
/// below it lives in ns. One walk up from the nodes of ns, not one walk down per node.
fn scope(t: &Topology, namespace: Option<&str>) -> Option<Vec<bool>> {
    let ns = namespace?;
    let mut in_scope = vec![false; t.nodes.len()];
    let mut stack: Vec<NodeId> = (0..t.nodes.len())
        .filter(|&n| t.nodes[n].obj_ref.namespace.as_deref() == Some(ns))
        .collect();
    while let Some(n) = stack.pop() {
        if !std::mem::replace(&mut in_scope[n], true) {
            stack.extend(t.nodes[n].parents.iter().copied());
        }
    }
    Some(in_scope)
}

/// What one drawing of the hierarchy shows: which children to go down into (given
/// the parent), which policies to hang on a node and with what status, and a status
/// for the node itself.
struct TreeView<'a> {
    child: &'a dyn Fn(NodeId, NodeId) -> bool,
    policy: &'a dyn Fn(PolicyId) -> Option<PolicyStatus>,
    status: &'a dyn Fn(NodeId) -> Option<PolicyStatus>,
}

impl TreeView<'_> {
    /// Each root drawn down; a node reached twice is expanded the first time only.
    fn forest(&self, w: &World, roots: Vec<NodeId>) -> Vec<TreeNode> {
        let mut expanded = vec![false; w.topology.nodes.len()];
        roots
            .into_iter()
            .map(|r| self.node(w, r, &mut expanded, None))
            .collect()
    }

    fn node(
        &self,
        w: &World,
        n: NodeId,
        expanded: &mut Vec<bool>,
        parent_ns: Option<&str>,
    ) -> TreeNode {
        let t = &w.topology;
        let node = &t.nodes[n];
        let hang = |p: PolicyId, via_namespace: bool| {
            (self.policy)(p).map(|status| TreePolicy {
                policy: t.policies[p].obj_ref.clone(),
                status,
                via_namespace,
            })
        };
        let mut policies: Vec<TreePolicy> = t.attached[n]
            .iter()
            .filter_map(|&p| hang(p, false))
            .collect();
        // Namespace-level policies hang on the first object of that namespace on the way down.
        if let Some(ns) = t.namespace_level(n) {
            if parent_ns != Some(ns) {
                policies.extend(
                    t.ns_attached
                        .get(ns)
                        .into_iter()
                        .flatten()
                        .filter_map(|&p| hang(p, true)),
                );
            }
        }
        let mut kids: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .filter(|&c| (self.child)(n, c))
            .collect();
        let repeated = std::mem::replace(&mut expanded[n], true) && !kids.is_empty();
        if repeated {
            kids.clear();
        }
        kids.sort_by(|a, b| role_then_ref(t, *a, *b));
        let here_ns = node.obj_ref.namespace.as_deref().or(parent_ns);
        let children = kids
            .into_iter()
            .map(|c| self.node(w, c, expanded, here_ns))
            .collect();
        TreeNode {
            obj_ref: node.obj_ref.clone(),
            status: (self.status)(n),
            policies,
            children,
            repeated,
        }
    }
}

/// The status an unresolved target stands for (what `get` shows for a policy with no
/// other target).
fn unresolved_status(code: Code) -> PolicyStatus {
    match code {
        Code::SectionNotFound => PolicyStatus::SectionNotFound,
        Code::SelectorBound => PolicyStatus::SelectorBound,
        _ => PolicyStatus::TargetNotFound,
    }
}

/// Counts for a one-line summary: objects by kind.
pub fn count_by_kind(refs: &[ObjRef]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for r in refs {
        *m.entry(r.kind.clone()).or_insert(0) += 1;
    }
    m
}

/// Whether a node is a route (for the human renderer's grouping).
pub fn is_route(t: &Topology, n: NodeId) -> bool {
    t.nodes[n].role == Role::Route
}
