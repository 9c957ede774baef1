//! `describe` of an object (or a Namespace): that, which and what — the policies that
//! reach it, how each reaches it, the effective settings with the policy behind each,
//! and the findings on it.

use super::*;
use crate::topology::Role;

/// How a policy reaches an object: attached to it, to one of its sections, or from an
/// ancestor (or its namespace) above.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    Direct,
    Section,
    Inherited,
}

/// One policy that reaches the described object, how, and its status there.
#[derive(Clone, Debug, Serialize)]
pub struct ReachingPolicy {
    pub(crate) policy: ObjRef,
    pub(crate) class: Class,
    #[serde(rename = "attachedTo")]
    pub(crate) attached_to: ObjRef,
    pub(crate) relation: Relation,
    pub(crate) status: PolicyStatus,
    /// What controllers say of the policy's current generation: where it refuses the
    /// policy, STATUS shows that (`shown_status`), as `get` does.
    #[serde(skip_serializing_if = "Reported::is_none")]
    pub(crate) reported: Option<Reported>,
    /// Every section of the described object it attaches to (`attached_to` names the
    /// first): a page of one section's settings says the section the policy is on.
    #[serde(skip)]
    pub(crate) attached_sections: Vec<ObjRef>,
}

/// `describe` of an object: that policies reach it, which and how, and what they make
/// together (the effective spec per policy kind, with the policy behind each setting).
#[derive(Clone, Debug, Serialize)]
pub struct TargetDescription {
    pub(crate) kind: &'static str,
    pub(crate) target: ObjRef,
    pub policies: Vec<ReachingPolicy>,
    pub(crate) effective: Vec<Effective>,
    /// The sections whose effective spec differs from the object's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) sections: Vec<super::SectionEffective>,
    pub findings: Vec<Finding>,
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: Vec<BlindSpot>,
    /// What controllers wrote on the target: `<Kind>PolicyAffected` (or `...Affected`)
    /// conditions and annotations (GEP-713's "on targeted resources").
    #[serde(rename = "reportedAffected", skip_serializing_if = "Vec::is_empty")]
    pub reported_affected: Vec<ReportedCondition>,
    /// A Gateway's or ListenerSet's listeners (a listener's own, when the listener is
    /// described), none for other objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) listeners: Option<Vec<ListenerInfo>>,
    /// The routes attached to those listeners (or to the object itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) routes: Option<Vec<AttachedRoute>>,
    /// The policies whose spec names the object (an ext-auth Service, a Backend).
    #[serde(rename = "referencedBy", skip_serializing_if = "Vec::is_empty")]
    pub referenced_by: Vec<super::dependents::Dependent>,
    #[serde(skip)]
    pub parents: Vec<ObjRef>,
    #[serde(skip)]
    pub children: Vec<ObjRef>,
    /// The Pods among `children` that policies pick (a Service's, GKE), each with the
    /// policies attached to it: they reach the Pods, not the object.
    #[serde(skip)]
    pub(crate) pod_policies: Vec<(ObjRef, Vec<ObjRef>)>,
}

/// One listener of a Gateway or ListenerSet: what its spec says and how many routes
/// attach to it.
#[derive(Clone, Debug, Serialize)]
pub struct ListenerInfo {
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Value::is_null")]
    pub(crate) port: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) protocol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) hostname: Option<String>,
    /// The routes attached to it (that it admits).
    #[serde(rename = "attachedRoutes")]
    pub(crate) attached_routes: usize,
}

/// A route attached to a described Gateway or ListenerSet, and through which of its
/// listeners.
#[derive(Clone, Debug, Serialize)]
pub struct AttachedRoute {
    pub(crate) route: ObjRef,
    pub(crate) listeners: Vec<String>,
}

/// The listeners of a Gateway or ListenerSet node (or the one listener a listener node
/// is) and the routes attached to them; none for any other node.
fn listeners_and_routes(
    topology: &Topology,
    id: NodeId,
) -> (Option<Vec<ListenerInfo>>, Option<Vec<AttachedRoute>>) {
    let node = topology.node(id);
    let (owner, listeners) = match node.role {
        Role::Gateway | Role::ListenerSet => (id, super::sections::sections_of(topology, id)),
        Role::Listener => (node.owner.unwrap_or(id), vec![id]),
        _ => return (None, None),
    };
    let spec = topology
        .node(owner)
        .object
        .and_then(|o| topology.object(o).spec.get("listeners"))
        .and_then(Val::as_array);
    let spec_of = |name: &str| -> Option<&Val> {
        spec?
            .iter()
            .find(|l| l.get("name").and_then(Val::as_str) == Some(name))
    };
    let mut routes: Vec<AttachedRoute> = Vec::new();
    let mut info = Vec::new();
    let is_route = |c: &NodeId| topology.node(*c).role == Role::Route;
    for &l in &listeners {
        let name = topology
            .node(l)
            .obj_ref
            .section
            .as_deref()
            .unwrap_or_default();
        let text = |v: Option<&Val>, k: &str| {
            v.and_then(|v| v.get(k))
                .and_then(Val::as_str)
                .map(str::to_string)
        };
        let spec = spec_of(name);
        let attached: Vec<NodeId> = topology
            .node(l)
            .children
            .iter()
            .copied()
            .filter(is_route)
            .collect();
        info.push(ListenerInfo {
            name: name.to_string(),
            port: spec
                .and_then(|v| v.get("port"))
                .map(Val::to_value)
                .unwrap_or(Value::Null),
            protocol: text(spec, "protocol"),
            hostname: text(spec, "hostname"),
            attached_routes: attached.len(),
        });
        for r in attached {
            let route = &topology.node(r).obj_ref;
            match routes.iter_mut().find(|a| &a.route == route) {
                Some(a) => a.listeners.push(name.to_string()),
                None => routes.push(AttachedRoute {
                    route: route.clone(),
                    listeners: vec![name.to_string()],
                }),
            }
        }
    }
    // Routes attached to the object itself, through no listener.
    if node.role != Role::Listener {
        for &r in node.children.iter().filter(|c| is_route(c)) {
            let route = &topology.node(r).obj_ref;
            if !routes.iter().any(|a| &a.route == route) {
                routes.push(AttachedRoute {
                    route: route.clone(),
                    listeners: Vec::new(),
                });
            }
        }
    }
    routes.sort_by(|a, b| a.route.cmp(&b.route));
    (Some(info), Some(routes))
}

/// One status for several places (an object and its sections), as a policy's status
/// over the places it reaches is tallied: the same everywhere, that one; something of
/// it holding somewhere but not all of it everywhere, PartiallyEnforced; nothing of it
/// holding anywhere, Conflicted if it lost a conflict somewhere, else Overridden.
fn combined(statuses: impl Iterator<Item = PolicyStatus>) -> Option<PolicyStatus> {
    use PolicyStatus::*;
    statuses.reduce(|a, b| match (a, b) {
        _ if a == b => a,
        (Conflicted | Overridden, Conflicted | Overridden) => Conflicted,
        _ => PartiallyEnforced,
    })
}

/// Where a policy attaches: its resolved nodes, and namespace levels.
fn attachment_points(topology: &Topology, policy: PolicyId) -> (Vec<NodeId>, Vec<String>) {
    let mut nodes = Vec::new();
    let mut nss = Vec::new();
    for r in topology.targets_of(policy) {
        match &r.resolution {
            Resolution::Node(node) => nodes.push(*node),
            Resolution::Namespace(ns) => nss.push(ns.clone()),
            Resolution::NotFound(_) => {}
        }
    }
    (nodes, nss)
}

/// That / which / what, for one object.
pub fn describe_target(world: &World, id: NodeId) -> TargetDescription {
    let topology = &world.topology;
    let node = topology.node(id);
    let sections = super::sections::sections_of(topology, id);
    let policies = reaching_policies(world, id, &sections);
    let (effective, section_effective) = super::sections::effective_with_sections(world, id, None);
    let mut findings = findings_about(world, id, &sections);
    let reported_affected = node
        .object
        .map(|o| affected_marks(topology.object(o)))
        .unwrap_or_default();
    findings.extend(reports_unmatched(
        node.obj_ref.clone(),
        &reported_affected,
        &policies,
    ));
    let (listeners, routes) = listeners_and_routes(topology, id);
    TargetDescription {
        kind: "TargetDescription",
        target: node.obj_ref.clone(),
        policies,
        effective,
        sections: section_effective,
        findings,
        blind_spots: topology.snapshot().blind_spots.clone(),
        reported_affected,
        listeners,
        routes,
        referenced_by: match node.is_section() {
            true => Vec::new(),
            false => super::dependents::dependents(world, &node.obj_ref),
        },
        parents: node
            .parents
            .iter()
            .map(|&p| topology.node(p).obj_ref.clone())
            .collect(),
        children: node
            .children
            .iter()
            .filter(|&&c| topology.node(c).owner != Some(id))
            .map(|&c| topology.node(c).obj_ref.clone())
            .collect(),
        pod_policies: node
            .children
            .iter()
            .filter(|&&c| topology.node(c).role == Role::Pod)
            .map(|&c| {
                let policies = topology.attached_to(c).iter().map(|&p| world.policy_ref(p));
                (topology.node(c).obj_ref.clone(), policies.collect())
            })
            .collect(),
    }
}

/// The policies that reach `id` or its `sections`, each with how it reaches them
/// and its status over them, sorted by kind then policy.
fn reaching_policies(world: &World, id: NodeId, sections: &[NodeId]) -> Vec<ReachingPolicy> {
    let topology = &world.topology;
    let node = topology.node(id);
    let mut here = vec![id];
    here.extend(sections);
    // Statuses at this object and its sections only: no need to fold the whole topology.
    let st = StatusesAt::compute(topology, &here);
    let mut reaching: Vec<PolicyId> = st.per_node.keys().copied().collect();
    reaching.extend(st.conflicts.iter().map(|c| c.loser));
    reaching.sort_unstable();
    reaching.dedup();
    let none = BTreeMap::new();
    // Looked up per policy: twenty thousand may lose on one target.
    let losers: std::collections::BTreeSet<PolicyId> =
        st.conflicts.iter().map(|c| c.loser).collect();
    let mut policies = Vec::new();
    for p in reaching {
        let per_node = st.per_node.get(&p).unwrap_or(&none);
        let at_node = per_node.get(&id).copied();
        let at_section = sections
            .iter()
            .find_map(|s| per_node.get(s).map(|st| (*s, *st)));
        let conflicted_here = losers.contains(&p);
        if at_node.is_none() && at_section.is_none() && !conflicted_here {
            continue;
        }
        let (nodes, nss) = attachment_points(topology, p);
        // Its status at this object: over the object and its sections (the page shows
        // the sections' effective specs too).
        let here_status = combined(here.iter().filter_map(|m| per_node.get(m).copied()));
        let (relation, attached_to) = if nodes.contains(&id) {
            (Relation::Direct, node.obj_ref.clone())
        } else if let Some(s) = sections.iter().find(|s| nodes.contains(s)) {
            (Relation::Section, topology.node(*s).obj_ref.clone())
        } else if let Some(ns) = nss.first() {
            (Relation::Inherited, ObjRef::new("", "Namespace", None, ns))
        } else {
            let anc = topology.ancestors(id);
            let from = nodes
                .iter()
                .find(|a| anc.contains(a))
                .map(|&a| topology.node(a).obj_ref.clone())
                .unwrap_or_else(|| node.obj_ref.clone());
            (Relation::Inherited, from)
        };
        let status = if conflicted_here && here_status.is_none() {
            PolicyStatus::Conflicted
        } else {
            here_status.unwrap_or(PolicyStatus::Enforced)
        };
        let attached_sections = sections
            .iter()
            .filter(|s| nodes.contains(s))
            .map(|&s| topology.node(s).obj_ref.clone())
            .collect();
        policies.push(ReachingPolicy {
            policy: topology.policy(p).obj_ref.clone(),
            class: topology.policy(p).class,
            attached_to,
            relation,
            status,
            reported: reported_word(topology, p),
            attached_sections,
        });
    }
    policies.sort_by(|a, b| (&a.policy.kind, &a.policy).cmp(&(&b.policy.kind, &b.policy)));
    policies
}

/// A target that says a kind of policy affects it while none reaches it is worth a
/// look: a finding for each such mark.
fn reports_unmatched(
    target: ObjRef,
    reported: &[ReportedCondition],
    policies: &[ReachingPolicy],
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for r in reported {
        let Some(kind) = r.type_.strip_suffix("Affected") else {
            continue;
        };
        let reaches = policies.iter().any(|p| p.policy.kind == kind);
        if r.status == "True" && !reaches {
            findings.push(Finding::new(
                Code::StatusDisagrees,
                target.clone(),
                format!(
                    "the object reports {}=True but no {kind} reaches it",
                    r.type_
                ),
            ));
        }
    }
    findings
}

/// That / which / what, for a Namespace: the policies that target it (inherited ones
/// apply at its level above every object in it; Direct ones to the Namespace itself)
/// and what the Direct ones make there. None when the input knows no such namespace.
pub fn describe_namespace(world: &World, name: &str) -> Option<TargetDescription> {
    let topology = &world.topology;
    let r = ObjRef::new("", "Namespace", None, name);
    let node = topology.lookup(&r);
    if node.is_none() && !topology.namespaces().contains_key(name) {
        return None;
    }
    let mut description = match node {
        Some(n) => describe_target(world, n),
        None => TargetDescription {
            kind: "TargetDescription",
            target: r.clone(),
            policies: Vec::new(),
            effective: Vec::new(),
            sections: Vec::new(),
            findings: findings_on(world, &[&r]),
            blind_spots: topology.snapshot().blind_spots.clone(),
            reported_affected: Vec::new(),
            listeners: None,
            routes: None,
            referenced_by: Vec::new(),
            parents: Vec::new(),
            children: Vec::new(),
            pod_policies: Vec::new(),
        },
    };
    for &p in topology.attached_to_namespace(name) {
        description.policies.push(ReachingPolicy {
            policy: topology.policy(p).obj_ref.clone(),
            class: topology.policy(p).class,
            attached_to: r.clone(),
            relation: Relation::Direct,
            status: world.statuses().overall[p],
            reported: reported_word(topology, p),
            attached_sections: Vec::new(),
        });
    }
    description
        .policies
        .sort_by(|a, b| (&a.policy.kind, &a.policy).cmp(&(&b.policy.kind, &b.policy)));
    Some(description)
}

/// A metav1.Condition as the tool shows it (no controller or ancestor yet).
pub(crate) fn condition(raw: &Val) -> Option<ReportedCondition> {
    let text = |k: &str| raw.get(k).and_then(Val::as_str).map(str::to_string);
    Some(ReportedCondition {
        controller: None,
        ancestor: None,
        type_: text("type")?,
        status: text("status").unwrap_or_else(|| "Unknown".into()),
        reason: text("reason").unwrap_or_default(),
        message: text("message").unwrap_or_default(),
        observed_generation: None,
        stale: false,
    })
}

/// `status.conditions` whose type ends in `PolicyAffected`, and annotations whose key
/// does (`gateway.nginx.org/ClientSettingsPolicyAffected: "true"`, `kuadrant.io/AuthPolicyAffected`).
fn affected_marks(object: &crate::model::Object) -> Vec<ReportedCondition> {
    let mut out = Vec::new();
    for c in object
        .status
        .get("conditions")
        .and_then(Val::as_array)
        .into_iter()
        .flatten()
    {
        let Some(ty) = c.get("type").and_then(Val::as_str) else {
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
    for (k, v) in &object.annotations {
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
                observed_generation: None,
                stale: false,
            });
        }
    }
    out
}

/// Findings on the object or its sections: what `check` reports on them, without
/// checking everything else.
fn findings_about(world: &World, node: NodeId, sections: &[NodeId]) -> Vec<Finding> {
    let mut refs = vec![&world.topology.node(node).obj_ref];
    refs.extend(sections.iter().map(|&s| &world.topology.node(s).obj_ref));
    findings_on(world, &refs)
}

/// `check`'s findings whose object is one of `refs`.
pub(crate) fn findings_on(world: &World, refs: &[&ObjRef]) -> Vec<Finding> {
    let topology = &world.topology;
    let mut out: Vec<Finding> = topology
        .findings()
        .iter()
        .filter(|f| refs.contains(&&f.object))
        .cloned()
        .collect();
    for (p, pol) in topology.each_policy() {
        if refs.contains(&&pol.obj_ref) {
            out.extend(policy_findings(world, p));
        }
    }
    crate::topology::findings::sort_findings(&mut out);
    out.dedup();
    out
}
