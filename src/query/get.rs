//! `get`: every policy in scope with its computed status and reach; every policy kind
//! known. Printed as JSON, a row is the policy object as read, with the analysis under
//! `computed` (`PolicyItem`).

use super::*;
use crate::model::{Metadata, Object, Text};
use rayon::prelude::*;

/// One row of `get`: a policy, its targets, its computed status and how many objects it
/// reaches.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyRow {
    pub policy: ObjRef,
    /// The policy's apiVersion, as read.
    pub(crate) api_version: Text,
    pub(crate) class: Class,
    pub(crate) targets: Vec<ObjRef>,
    pub status: PolicyStatus,
    /// What controllers say of its current generation (`Accepted`, a refusal's reason,
    /// `Unknown`); absent where no report is of the current generation.
    pub reported: Option<Reported>,
    pub(crate) affects: usize,
    pub(crate) creation_timestamp: Option<String>,
    /// The policy's labels (what `-l` and `--show-labels` read).
    pub labels: BTreeMap<String, String>,
    pub(crate) strategy: String,
    /// Where the tool learned its kind is a policy (`ClassOrigin`).
    pub(crate) class_origin: &'static str,
}

/// `get`'s ITEM (docs/reference.md): the policy object as read (apiVersion, kind,
/// metadata, spec, the status its controllers wrote) with the analysis under
/// `computed`, so that kubectl's templates and `--sort-by` read it as they read any
/// object. It borrows the object: nothing of a spec is copied to print it.
#[derive(Clone, Copy)]
pub struct PolicyItem<'a> {
    row: &'a PolicyRow,
    /// None only for a policy no longer held anywhere (then its metadata is the row's).
    object: Option<&'a Object>,
}

/// `get`'s item of `row`, whose policy object is `object` (as read: its own spec,
/// status and metadata); every output of `get` that writes JSON (`-o json|yaml`, the
/// templates, `--sort-by`, `get -w -o json`) makes its items here.
pub fn policy_item<'a>(row: &'a PolicyRow, object: Option<&'a Object>) -> PolicyItem<'a> {
    PolicyItem { row, object }
}

impl Serialize for PolicyItem<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let row = self.row;
        let spec = self.object.map(|o| &*o.spec).filter(|v| !v.is_null());
        let status = self.object.map(|o| &*o.status).filter(|v| !v.is_null());
        let len = 4 + usize::from(spec.is_some()) + usize::from(status.is_some());
        let mut item = s.serialize_map(Some(len))?;
        item.serialize_entry("apiVersion", row.api_version.as_str())?;
        item.serialize_entry("kind", row.policy.kind.as_str())?;
        match self.object {
            Some(object) => item.serialize_entry("metadata", &Metadata(object))?,
            None => item.serialize_entry("metadata", &RowMetadata(row))?,
        }
        if let Some(spec) = spec {
            item.serialize_entry("spec", spec)?;
        }
        if let Some(status) = status {
            item.serialize_entry("status", status)?;
        }
        item.serialize_entry("computed", &Computed::of(row))?;
        item.end()
    }
}

/// What the tool worked out of a policy: `computed` in its item.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Computed<'a> {
    class: Class,
    #[serde(rename = "classSource")]
    class_origin: &'static str,
    targets: &'a [ObjRef],
    status: PolicyStatus,
    affects: usize,
    /// What controllers say of its current generation (`Accepted`, a refusal's reason,
    /// `Unknown`); null where no report is of the current generation.
    reported: Option<&'a str>,
}

impl<'a> Computed<'a> {
    fn of(row: &'a PolicyRow) -> Computed<'a> {
        Computed {
            class: row.class,
            class_origin: row.class_origin,
            targets: &row.targets,
            status: row.status,
            affects: row.affects,
            reported: row
                .reported
                .as_ref()
                .filter(|r| **r != Reported::Stale)
                .map(Reported::as_str),
        }
    }
}

impl PolicyRow {
    /// STATUS: the computed verdict, or a controller's refusal of the current
    /// generation where the computed verdict is not a failure (`Invalid (reported)`).
    pub fn shown_status(&self) -> std::borrow::Cow<'static, str> {
        shown_status(self.status, self.reported.as_ref())
    }
}

/// The metadata of a policy known by its row alone.
struct RowMetadata<'a>(&'a PolicyRow);

impl Serialize for RowMetadata<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (policy, row) = (&self.0.policy, self.0);
        let mut meta = s.serialize_map(None)?;
        meta.serialize_entry("name", policy.name.as_str())?;
        if let Some(ns) = &policy.namespace {
            meta.serialize_entry("namespace", ns.as_str())?;
        }
        if !row.labels.is_empty() {
            meta.serialize_entry("labels", &row.labels)?;
        }
        if let Some(ts) = &row.creation_timestamp {
            meta.serialize_entry("creationTimestamp", ts)?;
        }
        meta.end()
    }
}

/// `get`'s rows: every policy in scope (`namespace` None: all namespaces), sorted.
/// Printed by `render::human::policies_table`.
pub fn policy_rows(world: &World, namespace: Option<&str>) -> Vec<PolicyRow> {
    let (topology, statuses) = (&*world.topology, world.counts());
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

/// `get`'s row of policy `id`, with its status and reach.
pub(crate) fn policy_row(
    topology: &Topology,
    id: PolicyId,
    status: PolicyStatus,
    affects: usize,
) -> PolicyRow {
    let policy = topology.policy(id);
    let object = topology.objects().get(policy.object.index());
    PolicyRow {
        policy: policy.obj_ref.clone(),
        api_version: object.map(|o| o.api_version.clone()).unwrap_or_default(),
        class: policy.class,
        targets: topology
            .targets_of(id)
            .iter()
            .map(|r| r.target.clone())
            .collect(),
        status,
        reported: reported_word(topology, id),
        affects,
        creation_timestamp: policy.creation_timestamp.clone(),
        labels: object.map(|o| o.labels.clone()).unwrap_or_default(),
        strategy: policy.strategy_name(),
        class_origin: policy.class_origin.as_str(),
    }
}

// ---------------------------------------------------------------- get kinds

/// One row of `get kinds`: a policy kind, where the tool learned it is one, and how
/// many policies of it are in the input.
#[derive(Clone, Debug, Serialize)]
pub struct KindRow {
    pub(crate) kind: String,
    pub(crate) group: String,
    pub(crate) class: Class,
    /// Where the tool learned it is a policy (`ClassOrigin`).
    #[serde(rename = "source")]
    pub(crate) origin: &'static str,
    pub(crate) count: usize,
    #[serde(skip)]
    pub(crate) merge: &'static str,
    #[serde(skip)]
    pub(crate) project: &'static str,
    /// What several policies of the kind on one target do.
    #[serde(skip)]
    pub(crate) same_target: &'static str,
}

/// `get kinds`' rows: every policy kind of the catalog, with how many policies of it
/// there are. Printed by `render::human::kinds_table`.
pub fn kind_rows(world: &World) -> Vec<KindRow> {
    let mut rows: Vec<KindRow> = world
        .topology
        .catalog()
        .kinds
        .values()
        .map(|k| KindRow {
            kind: k.kind().to_string(),
            group: k.group().to_string(),
            class: k.entry.class,
            origin: k.origin.as_str(),
            count: world
                .topology
                .policies()
                .iter()
                .filter(|p| p.kind == k.group_kind())
                .count(),
            merge: k.entry.merge.describe(),
            project: k.entry.project,
            same_target: k.entry.same_target.describe(),
        })
        .collect();
    rows.sort_by(|a, b| (&a.kind, &a.group).cmp(&(&b.kind, &b.group)));
    rows
}

/// `get -o json|yaml`: the items as kubectl prints a list (`kind: List`; rows of the
/// tool's own kind say it in `metadata.listKind`).
#[derive(Clone, Debug, Serialize)]
pub struct ListOf<'a, T> {
    #[serde(rename = "apiVersion")]
    pub(crate) api_version: &'static str,
    pub(crate) kind: &'static str,
    pub(crate) metadata: ListMeta,
    pub(crate) items: &'a [T],
    /// What could not be read (docs/reference.md, Blind spots): the rows may be incomplete.
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: &'a [BlindSpot],
}

/// What kind of rows a `ListOf` holds: none for objects of their own kinds (`get`'s
/// items), as kubectl's List of objects says none.
#[derive(Clone, Debug, Serialize)]
pub struct ListMeta {
    #[serde(rename = "listKind", skip_serializing_if = "Option::is_none")]
    pub(crate) list_kind: Option<&'static str>,
}

impl<'a, T> ListOf<'a, T> {
    /// A List of rows of the tool's own (`list_kind`: `PolicyKindList`).
    pub fn new(list_kind: &'static str, items: &'a [T], blind_spots: &'a [BlindSpot]) -> Self {
        ListOf {
            metadata: ListMeta {
                list_kind: Some(list_kind),
            },
            ..ListOf::of_objects(items, blind_spots)
        }
    }

    /// A List of Kubernetes objects (`get`'s items).
    pub fn of_objects(items: &'a [T], blind_spots: &'a [BlindSpot]) -> Self {
        ListOf {
            api_version: "v1",
            kind: "List",
            metadata: ListMeta { list_kind: None },
            items,
            blind_spots,
        }
    }
}
