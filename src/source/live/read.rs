//! The reader: lists run concurrently (at most `concurrency` requests in flight), each
//! as its own task, and their results filed in a fixed order, so the snapshot does not
//! depend on timing. What to list is `plan.rs`'s.

use super::api::ApiError;
use super::blind_spots::{summarise, KindLog};
use super::connect::Cluster;
use super::discovery::Discovery;
use super::list::{list_all, ListContext, ListKey, ListRequest, Listing};
use super::{watch, Guide, LiveError, ReadScope};
use crate::model::{BlindReason, BlindSpot, GroupKind, MalformedObject, Object};
use crate::source::files::Loaded;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

impl Cluster {
    /// Reads what `scope` needs: the objects the analysis uses (Gateway API kinds,
    /// Services, Namespaces, policy CRDs and every policy kind), with the blind spots.
    pub(crate) async fn read(
        &self,
        discovery: &Discovery,
        scope: &ReadScope,
        guide: &Guide,
    ) -> Result<Loaded, LiveError> {
        let mut reader = Reader::new(self, discovery, guide);
        reader.run(scope).await?;
        Ok(reader.finish())
    }

    /// `read`, and the lists it made that succeeded, to be watched (`get -w`).
    pub(crate) async fn read_watched(
        &self,
        discovery: &Discovery,
        scope: &ReadScope,
        guide: &Guide,
    ) -> Result<(Loaded, Vec<watch::WatchList>), LiveError> {
        let mut reader = Reader::new(self, discovery, guide);
        reader.run(scope).await?;
        let lists = reader.watch_lists();
        Ok((reader.finish(), lists))
    }
}

/// One list's task, finished: which list, and what it gave.
struct FinishedList {
    request: ListRequest,
    result: Result<Listing, ApiError>,
}

/// What a list that was read gave: its objects and malformed documents, or why it failed.
type Outcome = Result<(Vec<Object>, Vec<MalformedObject>), ApiError>;

/// One read of the cluster: what was read so far, and what was tried for each kind.
pub(super) struct Reader<'a> {
    pub(crate) cluster: &'a Cluster,
    pub(crate) discovery: &'a Discovery,
    pub(crate) guide: &'a Guide,
    permits: Arc<Semaphore>,
    pub(crate) objects: Vec<Object>,
    malformed: Vec<MalformedObject>,
    pub(crate) log: BTreeMap<GroupKind, KindLog>,
    pub(crate) blind_spots: Vec<BlindSpot>,
    /// The namespaces whose Pods were listed, each with the selector they were listed
    /// with (`plan::read_pods`).
    pub(crate) pod_lists: super::PodLists,
}

impl<'a> Reader<'a> {
    fn new(cluster: &'a Cluster, discovery: &'a Discovery, guide: &'a Guide) -> Self {
        Reader {
            cluster,
            discovery,
            guide,
            permits: Arc::new(Semaphore::new(cluster.concurrency)),
            objects: Vec::new(),
            malformed: Vec::new(),
            log: BTreeMap::new(),
            blind_spots: discovery.blind_spots.clone(),
            pod_lists: BTreeMap::new(),
        }
    }

    /// Starts one list as a task of `tasks`.
    fn spawn_list(
        &self,
        tasks: &mut JoinSet<FinishedList>,
        request: ListRequest,
        shard_namespaces: usize,
    ) {
        let context = ListContext {
            api: self.cluster.api.clone(),
            permits: self.permits.clone(),
            server: self.cluster.server.clone(),
            shard_namespaces,
            concurrency: self.cluster.concurrency,
        };
        let listed = list_all(context, request.clone());
        tasks.spawn(async move {
            FinishedList {
                request,
                result: listed.await,
            }
        });
    }

    /// The namespaces read so far (for sharding long lists).
    fn namespace_names(&self) -> Vec<String> {
        self.objects
            .iter()
            .filter(|o| o.kind == "Namespace" && o.group().is_empty())
            .map(|o| o.name.to_string())
            .collect()
    }

    /// Runs lists concurrently and files their results. A cluster-wide list too long
    /// to page through is read again per namespace, in the same batch.
    pub(super) async fn batch(&mut self, lists: Vec<ListRequest>) {
        // The namespaces are known before a batch starts (they are read in the first).
        let namespaces = self.namespace_names();
        let mut tasks = JoinSet::new();
        for request in lists {
            self.spawn_list(&mut tasks, request, namespaces.len());
        }
        let mut done: Vec<(ListKey, Outcome)> = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            let finished = match joined {
                Ok(finished) => finished,
                Err(e) => {
                    self.blind_spots.push(task_failed(&e));
                    continue;
                }
            };
            let key = finished.request.key();
            match finished.result {
                Ok(Listing::Shard) => {
                    for namespace in &namespaces {
                        let request = ListRequest {
                            namespace: Some(namespace.clone()),
                            ..finished.request.clone()
                        };
                        self.spawn_list(&mut tasks, request, namespaces.len());
                    }
                    // The kind is covered cluster-wide once every namespace is read.
                    self.log.entry(key.gk).or_default().cluster = Some(Ok(()));
                }
                Ok(Listing::Items(objects, errors)) => done.push((key, Ok((objects, errors)))),
                Err(e) => done.push((key, Err(e))),
            }
        }
        self.file(done);
    }

    /// Files what the lists gave, in a fixed order so the snapshot does not depend on
    /// timing.
    fn file(&mut self, mut done: Vec<(ListKey, Outcome)>) {
        done.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, result) in done {
            let entry = self.log.entry(key.gk.clone()).or_default();
            let outcome = result.map(|(objects, errors)| {
                self.objects.extend(objects);
                // Nothing read is dropped in silence: every answer says what was not shown.
                self.blind_spots
                    .extend(errors.iter().map(MalformedObject::blind_spot));
                self.malformed.extend(errors);
            });
            match key.namespace {
                None => entry.cluster = Some(outcome),
                Some(ns) => {
                    entry.namespaces.insert(ns, outcome);
                }
            }
        }
    }

    /// The lists that succeeded: cluster-wide where the kind was read so (sharded
    /// lists too), else per namespace read.
    pub(super) fn watch_lists(&self) -> Vec<watch::WatchList> {
        let mut out = Vec::new();
        for (gk, log) in &self.log {
            let Some(resource) = self.discovery.get(gk) else {
                continue;
            };
            // Each list is watched with the selector it was read with (but CRDs).
            let list = |namespace: Option<String>| {
                let selector = match (resource.kind.as_str(), &namespace) {
                    // Read labelled; watched unfiltered, to see the CRDs of known
                    // kinds appear too (`grow` keeps the labelled ones for the answer).
                    ("CustomResourceDefinition", _) => None,
                    ("Pod", Some(ns)) if resource.group.is_empty() => {
                        self.pod_lists.get(ns).cloned().flatten()
                    }
                    _ => None,
                };
                watch::WatchList {
                    resource: resource.clone(),
                    namespace,
                    selector,
                }
            };
            match &log.cluster {
                Some(Ok(())) => out.push(list(None)),
                _ => out.extend(
                    log.namespaces
                        .iter()
                        .filter(|(_, r)| r.is_ok())
                        .map(|(ns, _)| list(Some(ns.clone()))),
                ),
            }
        }
        out
    }

    /// The snapshot: the objects in a fixed order, and the blind spots, one per kind
    /// and cause.
    pub(super) fn finish(mut self) -> Loaded {
        let mut spots = std::mem::take(&mut self.blind_spots);
        for (gk, log) in &self.log {
            if let Some(resource) = self.discovery.get(gk) {
                spots.extend(summarise(resource, log));
            }
        }
        spots.sort();
        spots.dedup();
        let pods_read_in = self
            .log
            .get(&GroupKind::new("", "Pod"))
            .map(|log| {
                let listed = log.namespaces.iter().filter(|(_, r)| r.is_ok());
                listed.map(|(ns, _)| ns.clone()).collect()
            })
            .unwrap_or_default();
        let mut listed = std::collections::BTreeSet::new();
        for (gk, log) in &self.log {
            let at = |namespace: Option<String>| crate::model::Listed {
                group: gk.group.to_string(),
                kind: gk.kind.to_string(),
                namespace,
                file: None,
            };
            match &log.cluster {
                Some(Ok(())) => {
                    listed.insert(at(None));
                }
                _ => listed.extend(
                    log.namespaces
                        .iter()
                        .filter(|(_, r)| r.is_ok())
                        .map(|(ns, _)| at(Some(ns.clone()))),
                ),
            }
        }
        let mut objects = self.objects;
        objects.sort_by(|a, b| {
            (a.group(), &a.kind, &a.namespace, &a.name).cmp(&(
                b.group(),
                &b.kind,
                &b.namespace,
                &b.name,
            ))
        });
        Loaded {
            snapshot: crate::model::Snapshot {
                objects,
                blind_spots: spots,
                pods_read_in,
                listed: Some(listed),
            },
            malformed: self.malformed,
        }
    }
}

/// A list's task that ended without an answer (it panicked or was cancelled).
fn task_failed(error: &tokio::task::JoinError) -> BlindSpot {
    BlindSpot {
        group: String::new(),
        kind: String::new(),
        namespace: None,
        reason: BlindReason::Error,
        message: format!("a read failed unexpectedly: {error}"),
        file: None,
        document: None,
    }
}
