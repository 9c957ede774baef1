//! `describe` of a policy: its class, targets (resolved or not), what it reaches and how
//! many objects, its computed status beside what controllers report, its conflicts.

use super::reported::{generation_of, shown_reason, shown_text, summarise};
use super::*;
use crate::effective::combine::Acc;
use crate::effective::Joining;
use std::rc::Rc;

/// One target of a described policy, resolved or not (and why not).
#[derive(Clone, Debug, Serialize)]
pub struct TargetState {
    #[serde(rename = "ref")]
    pub(crate) target: ObjRef,
    pub(crate) resolved: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<Code>,
}

/// One object a described policy reaches, with its status there and the settings of
/// the policy that lose there.
#[derive(Clone, Debug, Serialize)]
pub struct Affected {
    pub target: ObjRef,
    pub status: PolicyStatus,
    /// Its settings that do not survive at this object, each with the policy it loses
    /// to (empty where it is Enforced).
    pub overridden: Vec<Overridden>,
}

/// One setting of a policy that loses at an object: its JSON pointer in the effective
/// spec (`effective`'s `sources[].path`) and the policy holding its place there; the
/// pointer `""` (the whole spec) where a policy that sets nothing is replaced whole by
/// a more specific one (Envoy Gateway).
#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Overridden {
    pub path: String,
    pub by: ObjRef,
}

/// A condition a controller wrote (on the policy's status, or on a target), as shown
/// beside the computed status.
#[derive(Clone, Debug, Serialize)]
pub struct ReportedCondition {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) controller: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ancestor: Option<ObjRef>,
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) reason: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) message: String,
    /// The generation of the policy the condition was written for (the condition's
    /// own `observedGeneration`, else the status's).
    #[serde(rename = "observedGeneration", skip_serializing_if = "Option::is_none")]
    pub(crate) observed_generation: Option<i64>,
    /// Written for another generation than the policy's (`metadata.generation`): it
    /// says nothing of the policy as it is now (docs/status.md, The controller's word).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) stale: bool,
}

/// A policy's status as the tool computes it and as controllers report it.
#[derive(Clone, Debug, Serialize)]
pub struct StatusPair {
    pub(crate) computed: PolicyStatus,
    pub(crate) reported: Vec<ReportedCondition>,
    /// What STATUS shows where a controller's refusal of the current generation
    /// replaces the computed verdict (`Invalid (reported)`); absent where it is the
    /// computed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) shown: Option<String>,
}

/// `describe` of a policy: its class, targets, what it reaches and how many objects,
/// computed vs reported status, and the conflicts it loses.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyDescription {
    pub(crate) kind: &'static str,
    pub(crate) policy: ObjRef,
    pub(crate) class: Class,
    #[serde(rename = "classSource")]
    pub class_origin: &'static str,
    /// The class the kind's `gateway.networking.k8s.io/policy` label states (its CRD's
    /// in the input, else the one its project ships), only where it differs from how
    /// the controller behaves (`class`).
    #[serde(rename = "labelClass", skip_serializing_if = "Option::is_none")]
    pub label_class: Option<Class>,
    pub(crate) targets: Vec<TargetState>,
    /// The objects its spec names besides its targets, and how each resolved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<crate::topology::PolicyReference>,
    pub affects: Vec<Affected>,
    #[serde(rename = "affectsCount")]
    pub(crate) affects_count: usize,
    pub(crate) status: StatusPair,
    pub(crate) findings: Vec<Finding>,
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: Vec<BlindSpot>,
    #[serde(skip)]
    pub strategy: String,
    #[serde(skip)]
    pub merge: &'static str,
    #[serde(skip)]
    pub(crate) project: &'static str,
    /// What several of its kind on one target do, the namespaces it may reach and
    /// the vendor source the registry read them from (empty: not a registry kind).
    #[serde(skip)]
    pub(crate) same_target: &'static str,
    #[serde(skip)]
    pub(crate) namespaces: &'static str,
    #[serde(skip)]
    pub(crate) cite: &'static str,
    /// Its own settings: its spec without the fields that say what it targets.
    pub(crate) settings: Value,
    #[serde(skip)]
    pub(crate) creation_timestamp: Option<String>,
    /// Policies this one lost to (Direct conflicts).
    #[serde(skip)]
    pub(crate) lost_to: Vec<ObjRef>,
    /// How it stands to each of `lost_to` and why, as its kind's same-target rule says
    /// (`SameTarget::conflict_words`).
    #[serde(skip)]
    pub(crate) lost_because: (&'static str, &'static str),
}

pub fn describe_policy(world: &World, policy: PolicyId) -> PolicyDescription {
    let topology = &world.topology;
    let pol: &Policy = topology.policy(policy);
    let targets = topology
        .targets_of(policy)
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
    let reached = world.statuses().reached(policy);
    let mut lost = Losses::new(world, policy);
    let mut affects: Vec<Affected> = reached
        .iter()
        .map(|(n, s)| Affected {
            target: topology.node(n).obj_ref.clone(),
            status: s,
            overridden: match s {
                PolicyStatus::Enforced => Vec::new(),
                _ => lost.at(n),
            },
        })
        .collect();
    affects.sort_by(|a, b| a.target.cmp(&b.target));
    let pk = topology.kind_of(policy);
    let lost_to = world
        .statuses()
        .conflicts
        .iter()
        .filter(|c| c.loser == policy)
        .map(|c| topology.policy(c.winner).obj_ref.clone())
        .collect();
    PolicyDescription {
        kind: "PolicyDescription",
        policy: pol.obj_ref.clone(),
        class: pol.class,
        class_origin: pol.class_origin.as_str(),
        label_class: pk.label().filter(|&l| l != pol.class),
        targets,
        references: topology.references_of(policy).to_vec(),
        affects_count: world.statuses().affects_count(policy),
        affects,
        status: {
            let computed = world.statuses().overall[policy];
            let reported = reported_status(topology, policy);
            let shown =
                summarise(&reported).and_then(|w| shown_reason(computed, Some(&w)).map(shown_text));
            StatusPair {
                computed,
                reported,
                shown,
            }
        },
        findings: findings_on(world, &[&pol.obj_ref]),
        blind_spots: topology.snapshot().blind_spots.clone(),
        strategy: pol.strategy_name(),
        merge: pk.entry.merge.describe(),
        project: pk.entry.project,
        same_target: pk.entry.same_target.describe(),
        namespaces: pk.entry.namespaces.describe(),
        cite: pk.entry.cite,
        settings: own_settings(topology, policy),
        creation_timestamp: pol.creation_timestamp.clone(),
        lost_to,
        lost_because: pk.entry.same_target.conflict_words(),
    }
}

/// A policy's spec without its targeting fields: `targetRef`, `targetRefs`,
/// `targetSelectors`, and the workload selector of a kind that targets by one.
fn own_settings(topology: &Topology, policy: PolicyId) -> Value {
    let pol = topology.policy(policy);
    let by_selector = topology.kind_of(policy).entry.targeting.workload_selector;
    let targeting = |k: &str| match k {
        "targetRef" | "targetRefs" | "targetSelectors" => true,
        "selector" | "workloadSelector" => by_selector,
        _ => false,
    };
    match topology.object(pol.object).spec.to_value() {
        Value::Object(mut m) => {
            m.retain(|k, _| !targeting(k));
            Value::Object(m)
        }
        other => other,
    }
}

/// Which of one policy's settings lose at the objects it reaches, and to whom: its
/// kind folded only down to the objects asked about (where it is not Enforced).
struct Losses<'w> {
    world: &'w World,
    policy: PolicyId,
    /// The conflicts it loses.
    lost_to: Vec<crate::topology::Conflict>,
    fold: Option<KindFold<'w>>,
    /// Per result the fold reached (its address; the fold keeps it alive), what the
    /// policy lost in it.
    measured: crate::model::FastMap<*const Acc, Vec<(String, PolicyId)>>,
}

impl<'w> Losses<'w> {
    fn new(world: &'w World, policy: PolicyId) -> Self {
        Losses {
            world,
            policy,
            lost_to: world
                .statuses()
                .conflicts
                .iter()
                .filter(|c| c.loser == policy)
                .cloned()
                .collect(),
            fold: None,
            measured: Default::default(),
        }
    }

    /// The settings of the policy that lose at `node`, sorted.
    fn at(&mut self, node: NodeId) -> Vec<Overridden> {
        let (world, policy) = (self.world, self.policy);
        let topology = &*world.topology;
        let mut out: Vec<(String, PolicyId)> = Vec::new();
        // Lost on a target to an older policy (GEP-713's None): nothing of it applies here.
        let object = topology.node(node).owner.unwrap_or(node);
        let conflict = self.lost_to.iter().find(|c| c.at == node || c.at == object);
        if let Some(c) = conflict {
            let joining = Joining::new(topology, policy, node, topology.policy(policy).merge);
            let leaves = [&joining.defaults, &joining.overrides]
                .into_iter()
                .flatten()
                .flat_map(|l| l.value.set_leaf_pointers());
            out.extend(leaves.map(|l| (l, c.winner)));
        } else {
            let kind = &topology.policy(policy).kind;
            let fold = self
                .fold
                .get_or_insert_with(|| KindFold::new(topology, kind));
            for ctx in fold.contexts(node) {
                let Some(acc) = &ctx.acc else { continue };
                if !acc.applied.contains(&policy) {
                    continue;
                }
                let lost = self.measured.entry(Rc::as_ptr(acc)).or_insert_with(|| {
                    let joining =
                        Joining::new(topology, policy, node, topology.policy(policy).merge);
                    let result = acc.result();
                    // Where no other policy holds the place, the most specific other one
                    // folded in took it (a patch's null).
                    let fallback = acc.applied.iter().rev().find(|&&q| q != policy).copied();
                    let mut lost: Vec<(String, PolicyId)> = [&joining.defaults, &joining.overrides]
                        .into_iter()
                        .flatten()
                        .flat_map(|l| {
                            crate::effective::sourced::lost_leaves(&l.value, &result, policy)
                        })
                        .filter_map(|(path, by)| Some((path, by.or(fallback)?)))
                        .collect();
                    // Replaced whole by a more specific policy (Envoy Gateway) with no
                    // setting of its own to lose: the whole spec (pointer "") loses.
                    if let (true, Some(by)) = (lost.is_empty(), acc.replaced_by(policy)) {
                        lost.push((String::new(), by));
                    }
                    lost
                });
                out.extend(lost.iter().cloned());
            }
        }
        let mut out: Vec<Overridden> = out
            .into_iter()
            .map(|(path, q)| Overridden {
                path,
                by: world.policy_ref(q),
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// What controllers wrote: `status.ancestors[].conditions` (with ancestorRef and
/// controllerName) or plain `status.conditions`, each marked stale where it was written
/// for another generation of the policy.
pub fn reported_status(topology: &Topology, policy: PolicyId) -> Vec<ReportedCondition> {
    let pol = topology.policy(policy);
    let object = &topology.object(pol.object);
    let status = &object.status;
    let mut out = Vec::new();
    let of_status = status.get("observedGeneration").and_then(generation_of);
    let cond = |c: &Val, controller: Option<String>, ancestor: Option<ObjRef>| {
        condition(c).map(|r| {
            let observed = c
                .get("observedGeneration")
                .and_then(generation_of)
                .or(of_status);
            ReportedCondition {
                controller,
                ancestor,
                observed_generation: observed,
                // Stale only where known to be of another generation: a side without
                // one (a hand-written file, an old controller) cannot say so.
                stale: matches!((observed, object.generation), (Some(o), Some(g)) if o != g),
                ..r
            }
        })
    };
    if let Some(ancestors) = status.get("ancestors").and_then(Val::as_array) {
        for a in ancestors {
            let controller = a
                .get("controllerName")
                .and_then(Val::as_str)
                .map(str::to_string);
            let ancestor = a.get("ancestorRef").and_then(|r| {
                let kind = r.get("kind").and_then(Val::as_str).unwrap_or("Gateway");
                let group = r
                    .get("group")
                    .and_then(Val::as_str)
                    .unwrap_or(crate::model::GATEWAY_GROUP);
                let name = r.get("name").and_then(Val::as_str)?;
                let ns = r
                    .get("namespace")
                    .and_then(Val::as_str)
                    .or(pol.obj_ref.namespace.as_deref());
                let ns = if crate::model::is_cluster_scoped(kind) {
                    None
                } else {
                    ns
                };
                Some(
                    ObjRef::new(group, kind, ns, name)
                        .with_section(r.get("sectionName").and_then(Val::as_str)),
                )
            });
            for c in a
                .get("conditions")
                .and_then(Val::as_array)
                .into_iter()
                .flatten()
            {
                out.extend(cond(c, controller.clone(), ancestor.clone()));
            }
        }
    }
    for c in status
        .get("conditions")
        .and_then(Val::as_array)
        .into_iter()
        .flatten()
    {
        out.extend(cond(c, None, None));
    }
    out
}
