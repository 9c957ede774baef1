//! Which resources the cluster serves: aggregated discovery (apidiscovery.k8s.io/v2,
//! one request per root) when the server offers it, else the legacy walk over every
//! group version. A group version that fails to answer (an aggregated API returning
//! 503) becomes a blind spot; the others are still discovered.

use super::api::{Api, ApiError};
use super::error::DiscoveryError;
use crate::model::read::Resource;
use crate::model::GroupKind;
use crate::model::{BlindReason, BlindSpot};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// A list of objects' metadata only, as kube-rs asks for one (`Api::list_metadata`).
pub(crate) const ACCEPT_METADATA_LIST: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

/// Asks for aggregated discovery first; a server without it answers plain JSON.
pub(crate) const ACCEPT_DISCOVERY: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

/// How the API server is asked for a list of a resource.
impl Resource {
    /// The `Accept` a list of it is asked with: metadata only, as kube-rs's
    /// `list_metadata` asks, for [`metadata_only`](Self::metadata_only) kinds.
    pub(crate) fn list_accept(&self) -> &'static str {
        match self.metadata_only() {
            true => ACCEPT_METADATA_LIST,
            false => "application/json",
        }
    }

    /// The collection path: cluster-wide when `namespace` is None.
    pub(crate) fn list_path(&self, namespace: Option<&str>) -> String {
        let root = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        match namespace {
            Some(ns) if self.namespaced => format!("{root}/namespaces/{ns}/{}", self.plural),
            _ => format!("{root}/{}", self.plural),
        }
    }
}

/// What discovery found: one resource per group and kind (the most preferred version
/// that serves it) and the group versions it could not discover.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    pub(crate) resources: BTreeMap<GroupKind, Resource>,
    pub(crate) blind_spots: Vec<BlindSpot>,
    /// True when the server answered aggregated discovery.
    pub(crate) aggregated: bool,
}

impl Discovery {
    pub(crate) fn get(&self, gk: &GroupKind) -> Option<&Resource> {
        self.resources.get(gk)
    }

    /// Adds the resources of one group version, unless a more preferred version of
    /// the same group already gave the kind.
    fn add(&mut self, group: &str, version: &str, found: impl IntoIterator<Item = Found>) {
        for resource in found {
            if resource.plural.contains('/')
                || !resource.verbs.iter().any(|v| v == "list")
                || resource.kind.is_empty()
            {
                continue;
            }
            let gk = GroupKind::new(group, &resource.kind);
            self.resources.entry(gk).or_insert_with(|| Resource {
                group: group.to_string(),
                version: version.to_string(),
                kind: resource.kind,
                plural: resource.plural,
                namespaced: resource.namespaced,
            });
        }
    }
}

struct Found {
    kind: String,
    plural: String,
    namespaced: bool,
    verbs: Vec<String>,
}

// --- aggregated discovery (apidiscovery.k8s.io/v2) ---

#[derive(Deserialize)]
struct AggList {
    #[serde(default)]
    items: Vec<AggGroup>,
}

#[derive(Deserialize)]
struct AggGroup {
    #[serde(default)]
    metadata: AggMeta,
    #[serde(default)]
    versions: Vec<AggVersion>,
}

#[derive(Deserialize, Default)]
struct AggMeta {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct AggVersion {
    version: String,
    #[serde(default)]
    resources: Vec<AggResource>,
    #[serde(default)]
    freshness: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AggResource {
    resource: String,
    #[serde(default)]
    response_kind: Option<AggKind>,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    verbs: Vec<String>,
}

#[derive(Deserialize)]
struct AggKind {
    #[serde(default)]
    kind: String,
}

// --- legacy discovery ---

#[derive(Deserialize)]
struct Kinded {
    #[serde(default)]
    kind: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GroupList {
    #[serde(default)]
    groups: Vec<LegacyGroup>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LegacyGroup {
    name: String,
    #[serde(default)]
    versions: Vec<LegacyVersion>,
    #[serde(default)]
    preferred_version: Option<LegacyVersion>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct LegacyVersion {
    version: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceList {
    #[serde(default)]
    resources: Vec<LegacyResource>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LegacyResource {
    name: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    namespaced: bool,
    #[serde(default)]
    verbs: Vec<String>,
}

fn decode<'a, T: Deserialize<'a>>(body: &'a [u8], path: &str) -> Result<T, DiscoveryError> {
    serde_json::from_slice(body).map_err(|error| DiscoveryError::Decode {
        path: path.to_string(),
        error,
    })
}

fn aggregated_found(version: AggVersion) -> Vec<Found> {
    version
        .resources
        .into_iter()
        .map(|r| Found {
            kind: r.response_kind.map(|k| k.kind).unwrap_or_default(),
            plural: r.resource,
            namespaced: r.scope == "Namespaced",
            verbs: r.verbs,
        })
        .collect()
}

fn legacy_found(list: ResourceList) -> Vec<Found> {
    list.resources
        .into_iter()
        .map(|r| Found {
            kind: r.kind,
            plural: r.name,
            namespaced: r.namespaced,
            verbs: r.verbs,
        })
        .collect()
}

fn stale_spot(group: &str, version: &str, why: &str) -> BlindSpot {
    let gv = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    BlindSpot {
        group: group.to_string(),
        kind: String::new(),
        namespace: None,
        reason: BlindReason::Error,
        message: format!("cannot discover {gv}: {why}; kinds it serves are not read"),
        file: None,
        document: None,
    }
}

fn add_aggregated(discovery: &mut Discovery, list: AggList) {
    for group in list.items {
        for entry in group.versions {
            if entry.freshness == "Stale" {
                // Its kinds would only answer 503: one warning for the group instead.
                discovery.blind_spots.push(stale_spot(
                    &group.metadata.name,
                    &entry.version,
                    "the aggregated API behind it is not answering (discovery is stale)",
                ));
                continue;
            }
            let version = entry.version.clone();
            discovery.add(&group.metadata.name, &version, aggregated_found(entry));
        }
    }
}

/// Discovers the core group and every API group. Only a failure of the roots
/// (`/api`, `/apis`) is fatal; a failing group version is a blind spot.
pub(crate) async fn discover(api: &Api, concurrency: usize) -> Result<Discovery, DiscoveryError> {
    let mut discovery = Discovery::default();
    let (core, groups) = tokio::join!(
        api.get("/api", ACCEPT_DISCOVERY),
        api.get("/apis", ACCEPT_DISCOVERY)
    );
    let core = core.map_err(|e| DiscoveryError::api("/api", e))?;
    let groups = groups.map_err(|e| DiscoveryError::api("/apis", e))?;

    let core_kind: Kinded = decode(&core, "/api")?;
    if core_kind.kind == "APIGroupDiscoveryList" {
        discovery.aggregated = true;
        add_aggregated(&mut discovery, decode(&core, "/api")?);
    } else {
        // APIVersions: the core group is v1 on every server.
        let body = api
            .get("/api/v1", "application/json")
            .await
            .map_err(|e| DiscoveryError::api("/api/v1", e))?;
        discovery.add("", "v1", legacy_found(decode(&body, "/api/v1")?));
    }

    let groups_kind: Kinded = decode(&groups, "/apis")?;
    if groups_kind.kind == "APIGroupDiscoveryList" {
        discovery.aggregated = true;
        add_aggregated(&mut discovery, decode(&groups, "/apis")?);
        return Ok(discovery);
    }
    let list: GroupList = decode(&groups, "/apis")?;
    // Every group version, preferred first within its group, fetched concurrently.
    let mut wanted: Vec<(String, String)> = Vec::new();
    for group in &list.groups {
        let mut versions: Vec<String> = group
            .preferred_version
            .iter()
            .map(|v| v.version.clone())
            .collect();
        for listed in &group.versions {
            if !versions.contains(&listed.version) {
                versions.push(listed.version.clone());
            }
        }
        for version in versions {
            wanted.push((group.name.clone(), version));
        }
    }
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (group, version)) in wanted.iter().enumerate() {
        let api = api.clone();
        let permits = permits.clone();
        let path = format!("/apis/{group}/{version}");
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            (i, api.get(&path, "application/json").await)
        });
    }
    let mut answers: Vec<Option<Result<Vec<u8>, ApiError>>> = vec![None; wanted.len()];
    while let Some(joined) = tasks.join_next().await {
        if let Ok((i, r)) = joined {
            answers[i] = Some(r);
        }
    }
    // Added in preference order, so the preferred version of each kind wins.
    for ((group, version), answer) in wanted.iter().zip(answers) {
        let path = format!("/apis/{group}/{version}");
        match answer {
            Some(Ok(body)) => match decode::<ResourceList>(&body, &path) {
                Ok(list) => discovery.add(group, version, legacy_found(list)),
                Err(e) => discovery
                    .blind_spots
                    .push(stale_spot(group, version, &e.to_string())),
            },
            Some(Err(e)) => discovery
                .blind_spots
                .push(stale_spot(group, version, &e.to_string())),
            None => {
                discovery
                    .blind_spots
                    .push(stale_spot(group, version, "the request was cancelled"))
            }
        }
    }
    Ok(discovery)
}
