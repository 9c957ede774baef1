//! What `get -w` comes to watch that the first read did not list: the policy kind of a
//! labelled CRD that appears while watching (watched cluster-wide from then on, as the
//! read lists a labelled kind), and the Pods a Pod-picking policy that appears (in
//! another namespace, or with another selector) picks, listed and watched as the read
//! lists them (`Guide::pod_lists`); and the objects a policy that appears names in a
//! namespace where their kind was not listed (`Guide::referenced`: a Secret in another
//! namespace), listed and watched there as the read lists them (metadata only for
//! Secrets and ConfigMaps).

use super::change::{Change, WatchList};
use super::discovery::{Discovery, Resource};
use super::{Guide, PodLists};
use crate::model::{GroupKind, ObjRef, Object, Val, GATEWAY_GROUP, GATEWAY_X_GROUP, POLICY_LABEL};
use std::collections::{BTreeMap, BTreeSet};
use tokio::task::AbortHandle;

/// The kinds and Pod lists watched, and the Pod-picking policies as last seen.
pub struct Growth {
    pod_picking_kinds: Vec<GroupKind>,
    pod_lists: fn(&[Object], &[GroupKind]) -> PodLists,
    /// The Pods' resource, when the server serves them.
    pods: Option<Resource>,
    /// Every kind some list watches.
    kinds: BTreeSet<GroupKind>,
    /// Per namespace, the selector its Pods are watched with, and the watch (to stop it
    /// when another selector is needed).
    pod_watches: BTreeMap<String, (Option<String>, Option<AbortHandle>)>,
    pickers: BTreeMap<ObjRef, Object>,
    referenced: fn(&[Object]) -> super::Named,
    referring_kinds: Vec<GroupKind>,
    /// The policies that may name other objects, as last seen.
    referrers: BTreeMap<ObjRef, Object>,
    /// Each (kind, namespace) a policy named that was listed or tried (the read's,
    /// and those started since): a list that failed is not tried again.
    named: BTreeSet<(GroupKind, Option<String>)>,
    /// Where each kind is watched: cluster-wide (None) or per namespace.
    watched: BTreeSet<(GroupKind, Option<String>)>,
    /// The kinds the server serves, to list what a policy names.
    resources: BTreeMap<GroupKind, Resource>,
}

impl Growth {
    /// What the first read listed (`lists`) and the objects it read.
    pub fn new(
        guide: &Guide,
        discovery: &Discovery,
        lists: &[WatchList],
        objects: &[Object],
    ) -> Growth {
        let pod_picking_kinds = guide.pod_picking_kinds.clone();
        let of_kinds = |kinds: &[GroupKind]| -> BTreeMap<ObjRef, Object> {
            objects
                .iter()
                .filter(|o| kinds.contains(&o.group_kind()))
                .map(|o| (o.obj_ref(), o.clone()))
                .collect()
        };
        let pickers = of_kinds(&pod_picking_kinds);
        let referrers = of_kinds(&guide.referring_kinds);
        let mut growth = Growth {
            pod_picking_kinds,
            pod_lists: guide.pod_lists,
            pods: discovery.get(&GroupKind::new("", "Pod")).cloned(),
            kinds: BTreeSet::new(),
            pod_watches: BTreeMap::new(),
            pickers,
            referenced: guide.referenced,
            referring_kinds: guide.referring_kinds.clone(),
            named: (guide.referenced)(objects),
            referrers,
            watched: BTreeSet::new(),
            resources: discovery.resources.clone(),
        };
        for list in lists {
            growth.watching(list, None);
        }
        growth
    }

    /// Notes a list now watched (with its task, to stop a Pod list).
    pub fn watching(&mut self, list: &WatchList, task: Option<AbortHandle>) {
        self.kinds.insert(list.resource.group_kind());
        self.watched
            .insert((list.resource.group_kind(), list.namespace.clone()));
        if let (true, Some(ns)) = (list.is_pods(), &list.namespace) {
            self.pod_watches
                .insert(ns.clone(), (list.selector.clone(), task));
        }
    }

    /// The lists to start after `batch`: the kinds of labelled CRDs not watched yet, and
    /// the Pods of namespaces whose Pod-picking policies now need another list (the
    /// list they had is stopped).
    pub fn grow(&mut self, batch: &[Change]) -> Vec<WatchList> {
        let mut start = Vec::new();
        for change in batch {
            self.note(change);
            let crds: &[Object] = match change {
                Change::Applied(o) => std::slice::from_ref(o),
                Change::Relisted { objects, .. } => objects,
                Change::Deleted(_) | Change::Blind(_) => &[],
            };
            for resource in crds.iter().filter_map(labelled_kind) {
                if self.kinds.insert(resource.group_kind()) {
                    start.push(WatchList {
                        resource,
                        namespace: None,
                        selector: None,
                    });
                }
            }
        }
        start.extend(self.pods_wanted());
        start.extend(self.referenced_wanted());
        start
    }

    /// Keeps the Pod-picking policies and the policies that may name other objects as
    /// they are now.
    fn note(&mut self, change: &Change) {
        keep(&self.pod_picking_kinds, &mut self.pickers, change);
        keep(&self.referring_kinds, &mut self.referrers, change);
    }

    /// The lists of what the policies now name, where it was neither listed nor
    /// tried: each (kind, namespace) once.
    fn referenced_wanted(&mut self) -> Vec<WatchList> {
        if self.referrers.is_empty() {
            return Vec::new();
        }
        let objects: Vec<Object> = self.referrers.values().cloned().collect();
        let mut start = Vec::new();
        for (gk, namespace) in (self.referenced)(&objects) {
            if namespace
                .as_deref()
                .is_some_and(|ns| crate::model::namespace_name_problem(ns).is_some())
                || self.watched.contains(&(gk.clone(), None))
                || self.named.contains(&(gk.clone(), namespace.clone()))
            {
                continue;
            }
            let Some(resource) = self.resources.get(&gk).filter(|r| r.namespaced) else {
                continue;
            };
            self.named.insert((gk.clone(), namespace.clone()));
            // Named by name alone: watched in every namespace.
            let Some(namespace) = namespace else {
                self.watched.insert((gk, None));
                start.push(WatchList {
                    resource: resource.clone(),
                    namespace: None,
                    selector: None,
                });
                continue;
            };
            if self.watched.contains(&(gk, Some(namespace.clone()))) {
                continue;
            }
            start.push(WatchList {
                resource: resource.clone(),
                namespace: Some(namespace.clone()),
                selector: None,
            });
            // With the ReferenceGrants there, as the read lists them.
            for group in [GATEWAY_GROUP, GATEWAY_X_GROUP] {
                let grant = GroupKind::new(group, "ReferenceGrant");
                let Some(grants) = self.resources.get(&grant) else {
                    continue;
                };
                let watched = self.watched.contains(&(grant.clone(), None))
                    || !self.watched.insert((grant, Some(namespace.clone())));
                if !watched {
                    start.push(WatchList {
                        resource: grants.clone(),
                        namespace: Some(namespace.clone()),
                        selector: None,
                    });
                }
            }
        }
        start
    }
}

/// Keeps `kept`, the objects of `kinds`, as `change` leaves them.
fn keep(kinds: &[GroupKind], kept: &mut BTreeMap<ObjRef, Object>, change: &Change) {
    match change {
        Change::Applied(o) if kinds.contains(&o.group_kind()) => {
            kept.insert(o.obj_ref(), o.clone());
        }
        Change::Deleted(r) => {
            kept.remove(r);
        }
        Change::Relisted { list, objects } if kinds.contains(&list.resource.group_kind()) => {
            kept.retain(|_, o| !list.covers(o));
            for o in objects {
                kept.insert(o.obj_ref(), o.clone());
            }
        }
        _ => {}
    }
}

impl Growth {
    /// The Pod lists the policies now need that are not watched as they need them.
    fn pods_wanted(&mut self) -> Vec<WatchList> {
        let Some(pods) = &self.pods else {
            return Vec::new();
        };
        if self.pickers.is_empty() {
            return Vec::new();
        }
        let objects: Vec<Object> = self.pickers.values().cloned().collect();
        let mut start = Vec::new();
        for (namespace, selector) in (self.pod_lists)(&objects, &self.pod_picking_kinds) {
            if crate::model::namespace_name_problem(&namespace).is_some() {
                continue;
            }
            match self.pod_watches.get(&namespace) {
                Some((watched, _)) if *watched == selector => continue,
                Some((_, Some(task))) => task.abort(),
                _ => {}
            }
            self.pod_watches
                .insert(namespace.clone(), (selector.clone(), None));
            start.push(WatchList {
                resource: pods.clone(),
                namespace: Some(namespace),
                selector,
            });
        }
        start
    }
}

/// The policy kind a CRD with the policy label declares, as the API serves it: its
/// group, kind, plural, scope and the version it stores (else the first it serves).
fn labelled_kind(crd: &Object) -> Option<Resource> {
    if crd.kind != "CustomResourceDefinition" || !crd.labels.contains_key(POLICY_LABEL) {
        return None;
    }
    let spec: &Val = &crd.spec;
    let text = |pointer: &str| spec.pointer(pointer).and_then(Val::as_str);
    let versions = spec.get("versions").and_then(Val::as_array).unwrap_or(&[]);
    let flag = |v: &Val, key: &str| v.get(key).and_then(Val::as_bool) == Some(true);
    let version = versions
        .iter()
        .find(|v| flag(v, "storage"))
        .or_else(|| versions.iter().find(|v| flag(v, "served")))
        .and_then(|v| v.get("name").and_then(Val::as_str))
        .or_else(|| text("/version"))?;
    Some(Resource {
        group: text("/group")?.to_string(),
        version: version.to_string(),
        kind: text("/names/kind")?.to_string(),
        plural: text("/names/plural")?.to_string(),
        namespaced: text("/scope") != Some("Cluster"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(labelled: bool, versions: &str) -> Object {
        let labels = match labelled {
            true => "labels: {gateway.networking.k8s.io/policy: Direct}",
            false => "labels: {}",
        };
        let yaml = format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: colorpolicies.example.io, {labels}}}\nspec: {{group: example.io, scope: Namespaced, names: {{kind: ColorPolicy, plural: colorpolicies}}, versions: {versions}}}\n"
        );
        let mut loaded = crate::source::files::Loaded::default();
        crate::source::files::load_text(&yaml, "<test>", &mut loaded).unwrap();
        loaded.snapshot.objects.remove(0)
    }

    #[test]
    fn a_labelled_crd_is_watched_at_the_version_it_stores() {
        let stored = "[{name: v1alpha1, served: true}, {name: v1, served: true, storage: true}]";
        let r = labelled_kind(&crd(true, stored)).unwrap();
        assert_eq!(
            (&*r.group, &*r.version, &*r.kind, &*r.plural, r.namespaced),
            ("example.io", "v1", "ColorPolicy", "colorpolicies", true)
        );
        let served = "[{name: v2, served: true}]";
        assert_eq!(labelled_kind(&crd(true, served)).unwrap().version, "v2");
        assert!(
            labelled_kind(&crd(false, stored)).is_none(),
            "no label, no policy kind"
        );
        assert!(
            labelled_kind(&crd(true, "[]")).is_none(),
            "no version served"
        );
    }
}
