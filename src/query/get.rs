//! `get`: every policy in scope with its computed status and reach; every policy kind known.

use super::*;
use rayon::prelude::*;

/// One row of `get`: a policy, its targets, its computed status and how many objects it
/// reaches.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyRow {
    pub policy: ObjRef,
    pub class: Class,
    pub targets: Vec<ObjRef>,
    pub status: PolicyStatus,
    /// What controllers say of its current generation (`Accepted`, a refusal's reason,
    /// `Unknown`); absent where no report is of the current generation.
    #[serde(skip_serializing_if = "Reported::is_none")]
    pub reported: Option<Reported>,
    pub affects: usize,
    #[serde(rename = "creationTimestamp", skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    /// The policy's labels (what `-l` and `--show-labels` read).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(skip)]
    pub strategy: String,
    #[serde(skip)]
    pub class_source: &'static str,
}

impl PolicyRow {
    /// STATUS: the computed verdict, or a controller's refusal of the current
    /// generation where the computed verdict is not a failure (`Invalid (reported)`).
    pub fn shown_status(&self) -> std::borrow::Cow<'static, str> {
        match shown_reason(self.status, self.reported.as_ref()) {
            Some(reason) => shown_text(reason).into(),
            None => self.status.as_str().into(),
        }
    }
}

/// Every policy in scope (`namespace` None: all namespaces), sorted.
pub fn get_policies(world: &World, namespace: Option<&str>) -> Vec<PolicyRow> {
    let (topology, statuses) = (&*world.topology, world.statuses.counts());
    let in_scope: Vec<PolicyId> = topology
        .each_policy()
        .filter(|(_, p)| namespace.is_none() || p.obj_ref.namespace.as_deref() == namespace)
        .map(|(i, _)| i)
        .collect();
    // A large cluster has tens of thousands of policies: their rows are made on every core.
    let mut rows: Vec<PolicyRow> = in_scope
        .par_iter()
        .with_min_len(1024)
        .map(|&i| policy_row(topology, i, statuses.overall[i], statuses.affects_count(i)))
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

/// Whether `row` is what `policy_row` would make of policy `id` with this status and
/// reach (every field compared, none copied).
pub(crate) fn row_is(
    row: &PolicyRow,
    topology: &Topology,
    id: PolicyId,
    status: PolicyStatus,
    affects: usize,
) -> bool {
    let policy = &topology.policies[id];
    let targets = &topology.targets[id];
    let labels = topology.snapshot.objects.get(policy.object.index());
    row.status == status
        && row.affects == affects
        && row.policy == policy.obj_ref
        && row.class == policy.class
        && row.class_source == policy.class_source.as_str()
        && row.creation_timestamp == policy.creation_timestamp
        && row.targets.len() == targets.len()
        && row.targets.iter().zip(targets).all(|(a, r)| *a == r.target)
        && labels.map_or(row.labels.is_empty(), |o| o.labels == row.labels)
        && row.strategy == policy.strategy_name()
}

/// `get`'s row of policy `id`, with its status and reach.
pub(crate) fn policy_row(
    topology: &Topology,
    id: PolicyId,
    status: PolicyStatus,
    affects: usize,
) -> PolicyRow {
    let policy = &topology.policies[id];
    PolicyRow {
        policy: policy.obj_ref.clone(),
        class: policy.class,
        targets: topology.targets[id]
            .iter()
            .map(|r| r.target.clone())
            .collect(),
        status,
        reported: reported_word(topology, id),
        affects,
        creation_timestamp: policy.creation_timestamp.clone(),
        labels: topology
            .snapshot
            .objects
            .get(policy.object.index())
            .map(|o| o.labels.clone())
            .unwrap_or_default(),
        strategy: policy.strategy_name(),
        class_source: policy.class_source.as_str(),
    }
}

// ---------------------------------------------------------------- get kinds

/// One row of `get kinds`: a policy kind, where the tool learned it is one, and how
/// many policies of it are in the input.
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
    /// What several policies of the kind on one target do.
    #[serde(skip)]
    pub same_target: &'static str,
}

pub fn get_kinds(world: &World) -> Vec<KindRow> {
    let mut rows: Vec<KindRow> = world
        .topology
        .catalog
        .kinds
        .values()
        .map(|k| KindRow {
            kind: k.kind.clone(),
            group: k.group.clone(),
            class: k.class,
            source: k.source.as_str(),
            count: world
                .topology
                .policies
                .iter()
                .filter(|p| p.kind == k.group_kind())
                .count(),
            merge: k.merge.describe(),
            project: k.project,
            same_target: k.same_target.describe(),
        })
        .collect();
    rows.sort_by(|a, b| (&a.kind, &a.group).cmp(&(&b.kind, &b.group)));
    rows
}

/// `get -o json|yaml`: the rows as kubectl prints a list (`kind: List`, the rows' kind
/// in `metadata.listKind`).
#[derive(Clone, Debug, Serialize)]
pub struct ListOf<'a, T> {
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub kind: &'static str,
    pub metadata: ListMeta,
    pub items: &'a [T],
    /// What could not be read (docs/reference.md, Blind spots): the rows may be incomplete.
    #[serde(rename = "blindSpots")]
    pub blind_spots: &'a [BlindSpot],
}

/// What kind of rows a `ListOf` holds.
#[derive(Clone, Debug, Serialize)]
pub struct ListMeta {
    #[serde(rename = "listKind")]
    pub list_kind: &'static str,
}

impl<'a, T> ListOf<'a, T> {
    pub fn new(list_kind: &'static str, items: &'a [T], blind_spots: &'a [BlindSpot]) -> Self {
        ListOf {
            api_version: "v1",
            kind: "List",
            metadata: ListMeta { list_kind },
            items,
            blind_spots,
        }
    }
}
