//! `get -w`: every list the read made, watched with kube-rs's watcher (a list, then a
//! watch from its resourceVersion; a fresh list when the server answers 410 Gone),
//! reported as changes to the objects in batches; the kinds of policy CRDs (labelled, or
//! of a kind the registry knows or `--policy-kind` declares) and the Pods of
//! Pod-picking policies that appear are watched from then on (`grow`).
//!
//! Only GET requests are sent (list and watch). A kind the user may no longer list or
//! watch (403, 404) is reported once as a blind spot and its objects stay as last seen;
//! a server that cannot be reached again within the give-up time ends the watch.

use super::grow::{Growth, Running};
use super::retry_after::RetryAfters;
use super::{complete_item, Cluster, LiveError};
use crate::model::read::Resource;
pub use crate::model::watch::{Change, WatchList};
use crate::model::{BlindReason, BlindSpot, MalformedObject, ObjRef, Object, Origin};
use crate::source::document::{Doc, MapOr};
use crate::source::objects_from_document;
use futures::StreamExt;
use kube::api::{Api as KubeApi, ApiResource, DynamicObject, PartialObjectMeta};
use kube::runtime::watcher::{self, Event};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

enum Message {
    /// A change seen by the watch of that number.
    Change(u64, Change),
    /// The watches end: the server cannot be reached again, or rejects the credentials.
    Fatal(LiveError),
}

/// How long events keep coming in one batch: a change that touches several objects
/// (an `apply -f` of a directory) is answered once.
const SETTLE: Duration = Duration::from_millis(60);
/// At most this long between the first change of a batch and its answer.
const MAX_BATCH: Duration = Duration::from_millis(500);
/// At most this long is waited for a server that asks, in `Retry-After`, to be tried
/// again later (a longer wait would outlast most proxies' idea of a live client).
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// Watches `lists` until Ctrl-C (Ok) or until the server cannot be reached again within
/// `give_up` (Err), handing each batch of changes to `on_changes`; and, from then on, the
/// kinds and Pods `growth` says the changes call for.
pub(crate) async fn watch<E: From<LiveError>>(
    cluster: &Cluster,
    lists: &[WatchList],
    mut growth: Growth,
    give_up: Duration,
    mut on_changes: impl FnMut(Vec<Change>) -> Result<(), E>,
) -> Result<(), E> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut watches = Watches {
        tasks: tokio::task::JoinSet::new(),
        next: 0,
        stopped: std::collections::HashSet::new(),
        client: cluster.api.client(),
        server: cluster.server.clone(),
        give_up,
        tx: tx.downgrade(),
        retry_after: cluster.retry_after.clone(),
    };
    for list in lists {
        let task = watches.start(list.clone(), tx.clone());
        growth.watching(list, Some(task));
    }
    // The watches hold the only senders: once all have ended, nothing is watched.
    drop(tx);
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    loop {
        let first = tokio::select! {
            _ = &mut interrupted => return Ok(()),
            m = rx.recv() => m,
        };
        let mut batch = Vec::new();
        let mut next = first;
        let started = Instant::now();
        loop {
            match next {
                None if batch.is_empty() => {
                    return Err(LiveError::NothingWatched {
                        server: cluster.server.clone(),
                    }
                    .into())
                }
                None => break,
                Some(Message::Fatal(error)) => return Err(error.into()),
                // What a watch stopped saw before it stopped is no longer wanted.
                Some(Message::Change(id, _)) if watches.stopped.contains(&id) => {}
                Some(Message::Change(_, c)) => batch.push(c),
            }
            let until = (Instant::now() + SETTLE).min(started + MAX_BATCH);
            next = tokio::select! {
                _ = &mut interrupted => return Ok(()),
                m = rx.recv() => m,
                _ = tokio::time::sleep_until(until) => break,
            };
        }
        let grown = growth.grow(&mut batch);
        for (running, list) in grown.stop {
            running.abort.abort();
            watches.stopped.insert(running.id);
            batch.extend(list.map(Change::Unwatched));
        }
        for list in grown.start {
            if let Some(tx) = watches.tx.upgrade() {
                let task = watches.start(list.clone(), tx);
                growth.watching(&list, Some(task));
            }
        }
        on_changes(batch)?;
    }
}

/// The watches running, and what a new one is started with.
struct Watches {
    tasks: tokio::task::JoinSet<()>,
    /// The number of the next watch started.
    next: u64,
    /// The watches stopped (what they still report is dropped).
    stopped: std::collections::HashSet<u64>,
    client: kube::Client,
    server: String,
    give_up: Duration,
    /// Where they report (held weakly: the watches running hold it).
    tx: mpsc::WeakUnboundedSender<Message>,
    retry_after: RetryAfters,
}

impl Watches {
    fn start(&mut self, list: WatchList, tx: mpsc::UnboundedSender<Message>) -> Running {
        let id = self.next;
        self.next += 1;
        let ctx = Watching {
            id,
            client: self.client.clone(),
            path: list.resource.list_path(list.namespace.as_deref()),
            list,
            server: self.server.clone(),
            give_up: self.give_up,
            tx,
            retry_after: self.retry_after.clone(),
        };
        Running {
            id,
            abort: self.tasks.spawn(ctx.run()),
        }
    }
}

/// A watch failing (429, 5xx, the connection): since when, and the pause it grows.
struct Retrying {
    give_up: Duration,
    since: Option<Instant>,
    pause: Duration,
}

impl Retrying {
    fn new(give_up: Duration) -> Retrying {
        Retrying {
            give_up,
            since: None,
            pause: Duration::from_millis(200),
        }
    }

    /// How long to wait before trying again after a failure of the list at `path`: what
    /// the server asked for in `Retry-After` (at most `MAX_RETRY_AFTER`), else a pause
    /// that grows from 0.2 s to 5 s; never past the give-up time (there it is tried once
    /// more). None: the give-up time is past.
    fn pause(&mut self, heard: &RetryAfters, path: &str) -> Option<Duration> {
        let since = *self.since.get_or_insert_with(Instant::now);
        let left = self.give_up.saturating_sub(since.elapsed());
        if left.is_zero() {
            return None;
        }
        let wait = match heard.take(path) {
            Some(asked) => asked.min(MAX_RETRY_AFTER),
            None => {
                let now = self.pause;
                self.pause = (self.pause * 2).min(Duration::from_secs(5));
                now
            }
        };
        Some(wait.min(left))
    }
}

/// One list's watcher and where it reports.
struct Watching {
    /// Its number, which its changes are reported under.
    id: u64,
    client: kube::Client,
    list: WatchList,
    /// The list's path (what the server's answers are heard by, `RetryAfters`).
    path: String,
    server: String,
    give_up: Duration,
    tx: mpsc::UnboundedSender<Message>,
    retry_after: RetryAfters,
}

/// What an error from the watcher means here.
enum Failure {
    /// 410 Gone: the watcher lists again by itself.
    Gone,
    /// 403 or 404: this list can no longer be watched.
    Denied(u16, String),
    /// 401: nothing can be trusted any more.
    Unauthorized,
    /// The connection or the server failed: tried again, until `give_up`.
    Transient(String),
}

/// A metadata-only watch's event, its object as the kind's (`PartialObjectMeta` says
/// `PartialObjectMetadata`) with nothing but its metadata.
fn event_of_metadata(
    event: Event<PartialObjectMeta<DynamicObject>>,
    resource: &Resource,
) -> Event<DynamicObject> {
    let object = |partial: PartialObjectMeta<DynamicObject>| DynamicObject {
        types: Some(kube::api::TypeMeta {
            api_version: resource.api_version(),
            kind: resource.kind.clone(),
        }),
        metadata: partial.metadata,
        data: serde_json::Value::Object(serde_json::Map::new()),
    };
    match event {
        Event::Apply(o) => Event::Apply(object(o)),
        Event::Delete(o) => Event::Delete(object(o)),
        Event::Init => Event::Init,
        Event::InitApply(o) => Event::InitApply(object(o)),
        Event::InitDone => Event::InitDone,
    }
}

fn failure(error: &watcher::Error) -> Failure {
    match error {
        watcher::Error::WatchError(status) => failure_of(status),
        watcher::Error::InitialListFailed(error)
        | watcher::Error::WatchStartFailed(error)
        | watcher::Error::WatchFailed(error) => match error {
            kube::Error::Api(status) => failure_of(status),
            other => Failure::Transient(super::api::transport_message(other)),
        },
        other => Failure::Transient(other.to_string()),
    }
}

/// What a status the server answered means here.
fn failure_of(status: &kube::core::Status) -> Failure {
    match status.code {
        410 => Failure::Gone,
        401 => Failure::Unauthorized,
        403 | 404 => Failure::Denied(status.code, status.message.clone()),
        code => Failure::Transient(format!("{code} {}", status.message)),
    }
}

impl Watching {
    fn send(&self, change: Change) -> bool {
        self.tx.send(Message::Change(self.id, change)).is_ok()
    }

    /// The list's collection, as kube's watcher reads it (as `PartialObjectMeta`: its
    /// objects' metadata only), and its label selector.
    fn collection<K>(&self) -> (KubeApi<K>, watcher::Config)
    where
        K: kube::Resource<DynamicType = ApiResource, Scope = kube::core::DynamicResourceScope>,
    {
        let resource = &self.list.resource;
        let api_resource = ApiResource {
            group: resource.group.clone(),
            version: resource.version.clone(),
            api_version: resource.api_version(),
            kind: resource.kind.clone(),
            plural: resource.plural.clone(),
        };
        let api = match &self.list.namespace {
            Some(ns) => KubeApi::namespaced_with(self.client.clone(), ns, &api_resource),
            None => KubeApi::all_with(self.client.clone(), &api_resource),
        };
        let mut config = watcher::Config::default();
        if let Some(selector) = &self.list.selector {
            config = config.labels(selector);
        }
        (api, config)
    }

    async fn run(self) {
        let resource = &self.list.resource;
        let origin = Origin {
            file: format!("{}{}", self.server, self.path).into(),
            document: 0,
        };
        // Secrets and ConfigMaps are watched as metadata only, as they are listed.
        let mut stream = match resource.metadata_only() {
            true => {
                let (api, config) = self.collection::<PartialObjectMeta<DynamicObject>>();
                watcher::watcher(api, config)
                    .map(|item| item.map(|event| event_of_metadata(event, resource)))
                    .boxed()
            }
            false => {
                let (api, config) = self.collection::<DynamicObject>();
                watcher::watcher(api, config).boxed()
            }
        };
        let mut listing: Option<Vec<Object>> = None;
        let mut retrying = Retrying::new(self.give_up);
        while let Some(item) = stream.next().await {
            let event = match item {
                Ok(event) => {
                    retrying = Retrying::new(self.give_up);
                    event
                }
                Err(e) => match failure(&e) {
                    Failure::Gone => continue,
                    // Not served any more (its CRD deleted): its objects are gone,
                    // as a fresh `get` would not find the kind.
                    Failure::Denied(404, _) => {
                        self.send(Change::Unwatched(self.list.clone()));
                        return;
                    }
                    Failure::Denied(code, message) => {
                        self.send(Change::Blind(self.denied(code, &message)));
                        return;
                    }
                    Failure::Unauthorized => {
                        let _ = self
                            .tx
                            .send(Message::Fatal(LiveError::UnauthorizedWatching {
                                server: self.server.clone(),
                                resource: resource.display(),
                            }));
                        return;
                    }
                    Failure::Transient(why) => {
                        match retrying.pause(&self.retry_after, &self.path) {
                            Some(wait) => {
                                tokio::time::sleep(wait).await;
                                continue;
                            }
                            None => {
                                let _ = self.tx.send(Message::Fatal(LiveError::WatchLost {
                                    server: self.server.clone(),
                                    resource: resource.display(),
                                    give_up: self.give_up,
                                    why,
                                }));
                                return;
                            }
                        }
                    }
                },
            };
            let sent = match event {
                Event::Init => {
                    listing = Some(Vec::new());
                    true
                }
                Event::InitApply(o) => {
                    let (objects, errors) = self.objects_of(o, &origin);
                    listing.get_or_insert_with(Vec::new).extend(objects);
                    self.report(errors)
                }
                Event::InitDone => self.send(Change::Relisted {
                    list: self.list.clone(),
                    objects: listing.take().unwrap_or_default(),
                }),
                Event::Apply(o) => {
                    let (objects, errors) = self.objects_of(o, &origin);
                    objects.into_iter().all(|o| self.send(Change::Applied(o)))
                        && self.report(errors)
                }
                Event::Delete(o) => self.send(Change::Deleted(ObjRef::new(
                    &resource.group,
                    &resource.kind,
                    o.metadata.namespace.as_deref(),
                    o.metadata.name.as_deref().unwrap_or_default(),
                ))),
            };
            if !sent {
                return;
            }
        }
    }

    fn report(&self, errors: Vec<MalformedObject>) -> bool {
        errors
            .iter()
            .all(|e| self.send(Change::Blind(e.blind_spot())))
    }

    /// The blind spot of a list that can no longer be watched.
    fn denied(&self, code: u16, message: &str) -> BlindSpot {
        let resource = &self.list.resource;
        let (reason, why) = match code {
            403 => (BlindReason::Forbidden, "forbidden"),
            _ => (BlindReason::NotFound, "not found"),
        };
        let place = match &self.list.namespace {
            Some(ns) => format!(" in namespace {ns}"),
            None => String::new(),
        };
        let detail = match message {
            "" => String::new(),
            m => format!(" ({m})"),
        };
        BlindSpot {
            group: resource.group.clone(),
            kind: resource.kind.clone(),
            namespace: self.list.namespace.clone(),
            reason,
            message: format!(
                "cannot watch {}{place}: {why}{detail}; changes to objects of this kind are not shown",
                resource.display()
            ),
            file: None,
            document: None,
        }
    }

    /// The objects of one watched item, read as a listed one is.
    fn objects_of(
        &self,
        mut item: DynamicObject,
        origin: &Origin,
    ) -> (Vec<Object>, Vec<MalformedObject>) {
        let (mut objects, mut errors) = (Vec::new(), Vec::new());
        if self.list.resource.kind == "CustomResourceDefinition" {
            drop_schemas(&mut item.data);
        }
        let doc = serde_json::to_vec(&item)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                serde_json::from_slice::<MapOr<Doc>>(&bytes).map_err(|e| e.to_string())
            });
        match doc {
            Ok(mut doc) => {
                complete_item(&self.list.resource, &mut doc);
                objects_from_document(doc, origin, &mut objects, &mut errors);
            }
            Err(e) => errors.push(MalformedObject {
                origin: origin.clone(),
                field: "(document)".into(),
                message: e,
                says: None,
            }),
        }
        (objects, errors)
    }
}

/// A CRD's schemas dropped, as the read drops them (`page`): the tool reads a CRD's
/// group, names, scope, versions and labels, and the CRDs are watched unfiltered, so
/// the schemas of every CRD would be copied for nothing.
fn drop_schemas(crd: &mut serde_json::Value) {
    let versions = crd
        .pointer_mut("/spec/versions")
        .and_then(serde_json::Value::as_array_mut);
    for version in versions.into_iter().flatten() {
        if let Some(fields) = version.as_object_mut() {
            fields.remove("schema");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watched_crd_keeps_all_but_its_schemas() {
        let mut crd = serde_json::json!({"spec": {"group": "example.io", "versions": [
            {"name": "v1", "served": true, "storage": true,
             "schema": {"openAPIV3Schema": {"type": "object"}}},
            {"name": "v2", "served": true}]}});
        drop_schemas(&mut crd);
        assert_eq!(
            crd,
            serde_json::json!({"spec": {"group": "example.io", "versions": [
                {"name": "v1", "served": true, "storage": true},
                {"name": "v2", "served": true}]}})
        );
    }
}
