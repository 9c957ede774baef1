//! What `get -w` comes to watch that the first read did not list, and what it stops
//! watching.
//!
//! Watched from then on: the policy kind of a CRD that appears while watching, labelled
//! or of a kind the caller knows (the registry's and the declared ones, as the read
//! lists them when discovery serves them), cluster-wide as the read lists a labelled
//! kind, and again when its CRD comes back after the kind stopped being served (the CRDs
//! are watched unfiltered, one watch, and picked here: a field selector matches one name
//! only and a label selector misses the unlabelled ones; a CRD of a kind nobody knows,
//! unlabelled, is ignored, and no CRD but a labelled one reaches the answer, as the read
//! lists the labelled ones only); the Pods a Pod-picking policy that appears (in
//! another namespace, or with another selector) picks, listed and watched as the read
//! lists them (`Guide::pod_lists`); and the objects a policy that appears names in a
//! namespace where their kind was not listed (`Guide::referenced`: a Secret in another
//! namespace), listed and watched there as the read lists them (metadata only for
//! Secrets and ConfigMaps), with the ReferenceGrants there; a kind named by name alone
//! (Consul's JWTProviders), in every namespace.
//!
//! Stopped: the Pods of a namespace no Pod-picking policy picks in any more, and the
//! lists started for what policies named once no policy names it (the read's own lists
//! are kept: why they were made is not known here). A list stopped is reported as
//! `Change::Unwatched`: what it covered is no longer known, as a fresh `get` would not
//! list it.

use super::discovery::Discovery;
use super::Guide;
use crate::model::read::PodLists;
use crate::model::read::Resource;
use crate::model::watch::{Change, WatchList};
use crate::model::{Crd, GroupKind, ObjRef, Object, CRD_GROUP, CRD_KIND};
use crate::model::{GATEWAY_GROUP, GATEWAY_X_GROUP, POLICY_LABEL};
use std::collections::{BTreeMap, BTreeSet};
use tokio::task::AbortHandle;

/// A watch running: its number (what it reports under) and how to stop it.
#[derive(Clone, Debug)]
pub(crate) struct Running {
    pub(crate) id: u64,
    pub(crate) abort: AbortHandle,
}

/// What a batch of changes calls for: the lists to start, and the watches to stop
/// (with the list each covered, when what it covered is no longer known: None for a
/// list replaced by another of the same objects).
#[derive(Default)]
pub(crate) struct Grown {
    pub(crate) start: Vec<WatchList>,
    pub(crate) stop: Vec<(Running, Option<WatchList>)>,
}

/// The kinds and Pod lists watched, and the Pod-picking policies as last seen.
pub(crate) struct Growth {
    pod_picking_kinds: Vec<GroupKind>,
    pod_lists: fn(&[Object], &[GroupKind]) -> PodLists,
    /// The Pods' resource, when the server serves them.
    pods: Option<Resource>,
    /// Every kind some list watches.
    kinds: BTreeSet<GroupKind>,
    /// Per namespace, the selector its Pods are watched with, and the watch (to stop it
    /// when another selector is needed, or none).
    pod_watches: BTreeMap<String, (Option<String>, Option<Running>)>,
    pickers: BTreeMap<ObjRef, Object>,
    referenced: fn(&[Object]) -> super::Named,
    referring_kinds: Vec<GroupKind>,
    /// The policies that may name other objects, as last seen.
    referrers: BTreeMap<ObjRef, Object>,
    /// Each (kind, namespace) a policy named that was listed or tried (the read's,
    /// and those started since; `None`: every namespace, a kind named by name alone): a
    /// list that failed is not tried again.
    named: super::Named,
    /// The lists started for what policies name, by (kind, namespace), with their
    /// watches (ReferenceGrants under their own kind): stopped once nothing is named there.
    grown: BTreeMap<(GroupKind, Option<String>), (WatchList, Option<Running>)>,
    /// Where each kind is watched: cluster-wide (None) or per namespace.
    watched: BTreeSet<(GroupKind, Option<String>)>,
    /// The kinds the server serves, to list what a policy names.
    resources: BTreeMap<GroupKind, Resource>,
    /// The policy kinds the caller knows (the registry's and the declared ones).
    known: BTreeSet<GroupKind>,
    /// The names of the labelled CRDs the answer holds (the read's, and those seen
    /// since): a CRD that loses its label leaves the answer, as a fresh `get` would not
    /// list it.
    labelled: BTreeSet<String>,
    /// The policy CRDs there now (labelled, or of a known kind), by name: the kind each
    /// declares, and the batch it was last seen changed in.
    crds: BTreeMap<String, (Resource, u64)>,
    /// The batch each policy kind of a policy CRD was last started in.
    kind_started: BTreeMap<GroupKind, u64>,
    /// How many batches were read.
    batches: u64,
}

impl Growth {
    /// What the first read listed (`lists`) and the objects it read.
    pub(crate) fn new(
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
        let known: BTreeSet<GroupKind> =
            guide.policy_kinds.iter().map(|(k, _)| k.clone()).collect();
        let crds = objects
            .iter()
            .filter_map(|o| Some((o.name.to_string(), (policy_kind(o, &known)?, 0))))
            .collect();
        let labelled = objects
            .iter()
            .filter(|o| is_labelled_crd(o))
            .map(|o| o.name.to_string())
            .collect();
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
            grown: BTreeMap::new(),
            referrers,
            watched: BTreeSet::new(),
            resources: discovery.resources.clone(),
            known,
            labelled,
            crds,
            kind_started: BTreeMap::new(),
            batches: 0,
        };
        for list in lists {
            growth.watching(list, None);
        }
        growth
    }

    /// Notes a list now watched (with its watch, to stop it).
    pub(crate) fn watching(&mut self, list: &WatchList, task: Option<Running>) {
        self.kinds.insert(list.resource.group_kind());
        self.watched
            .insert((list.resource.group_kind(), list.namespace.clone()));
        if let (true, Some(ns)) = (list.is_pods(), &list.namespace) {
            self.pod_watches
                .insert(ns.clone(), (list.selector.clone(), task.clone()));
        }
        let key = (list.resource.group_kind(), list.namespace.clone());
        if let Some((grown, running)) = self.grown.get_mut(&key) {
            if grown == list {
                *running = task;
            }
        }
    }

    /// What `batch` calls for: the kinds of policy CRDs not watched (or watched again
    /// after their kind stopped being served), the Pods of namespaces whose Pod-picking
    /// policies now need another list or none, and what policies now name or no longer
    /// name where their kinds were not listed. The CRDs not labelled are then taken out
    /// of `batch` (`only_labelled_crds`).
    pub(crate) fn grow(&mut self, batch: &mut Vec<Change>) -> Grown {
        self.batches += 1;
        let mut grown = Grown::default();
        for change in batch.iter() {
            self.note(change);
            match change {
                Change::Applied(o) => self.crd_seen(o, &mut grown.start),
                Change::Relisted { list, objects } if is_crds(list) => {
                    self.crds.clear();
                    for o in objects {
                        self.crd_seen(o, &mut grown.start);
                    }
                }
                Change::Deleted(r) if is_crd_ref(r) => {
                    self.crds.remove(r.name.as_str());
                }
                Change::Unwatched(list) => self.unwatched(list, &mut grown.start),
                _ => {}
            }
        }
        self.pods_wanted(&mut grown);
        self.referenced_wanted(&mut grown);
        self.only_labelled_crds(batch);
        grown
    }

    /// `batch` with the CRDs the answer holds as a fresh `get` reads them: the labelled
    /// ones only. An unlabelled CRD is left out, or deleted when it was labelled before;
    /// a relisting of CRDs keeps the labelled ones.
    fn only_labelled_crds(&mut self, batch: &mut Vec<Change>) {
        batch.retain_mut(|change| match change {
            Change::Applied(o) if Crd::is_crd(o) && !is_labelled_crd(o) => {
                if !self.labelled.remove(o.name.as_str()) {
                    return false;
                }
                *change = Change::Deleted(o.obj_ref());
                true
            }
            Change::Applied(o) if Crd::is_crd(o) => {
                self.labelled.insert(o.name.to_string());
                true
            }
            Change::Deleted(r) if is_crd_ref(r) => self.labelled.remove(r.name.as_str()),
            Change::Relisted { list, objects } if is_crds(list) => {
                objects.retain(is_labelled_crd);
                self.labelled = objects.iter().map(|o| o.name.to_string()).collect();
                true
            }
            _ => true,
        });
    }

    /// A CRD added or changed: its policy kind watched if it is labelled or known, and
    /// not yet.
    fn crd_seen(&mut self, crd: &Object, start: &mut Vec<WatchList>) {
        let Some(resource) = policy_kind(crd, &self.known) else {
            self.crds.remove(crd.name.as_str());
            return;
        };
        self.crds
            .insert(crd.name.to_string(), (resource.clone(), self.batches));
        self.start_kind(resource, start);
    }

    /// `resource`'s kind watched cluster-wide, unless it is.
    fn start_kind(&mut self, resource: Resource, start: &mut Vec<WatchList>) {
        let gk = resource.group_kind();
        if self.kinds.insert(gk.clone()) {
            self.kind_started.insert(gk, self.batches);
            start.push(WatchList {
                resource,
                namespace: None,
                selector: None,
            });
        }
    }

    /// A list whose watch ended (its kind no longer served) or was stopped: no longer
    /// watched. A policy kind whose policy CRD changed since its watch started (it
    /// came back) is watched again.
    fn unwatched(&mut self, list: &WatchList, start: &mut Vec<WatchList>) {
        let gk = list.resource.group_kind();
        self.watched.remove(&(gk.clone(), list.namespace.clone()));
        self.grown.remove(&(gk.clone(), list.namespace.clone()));
        self.named.remove(&(gk.clone(), list.namespace.clone()));
        if let Some(ns) = &list.namespace {
            if list.is_pods() {
                self.pod_watches.remove(ns);
            }
            return;
        }
        self.kinds.remove(&gk);
        let started = self.kind_started.get(&gk).copied().unwrap_or(0);
        let back = self
            .crds
            .values()
            .find(|(r, seen)| r.group_kind() == gk && *seen > started)
            .map(|(r, _)| r.clone());
        if let Some(resource) = back {
            self.start_kind(resource, start);
        }
    }

    /// Keeps the Pod-picking policies and the policies that may name other objects as
    /// they are now.
    fn note(&mut self, change: &Change) {
        keep(&self.pod_picking_kinds, &mut self.pickers, change);
        keep(&self.referring_kinds, &mut self.referrers, change);
    }

    /// The lists of what the policies now name, where it was neither listed nor
    /// tried: each (kind, namespace) once; and the lists started for what no policy
    /// names any more, stopped.
    fn referenced_wanted(&mut self, grown: &mut Grown) {
        let objects: Vec<Object> = self.referrers.values().cloned().collect();
        let now = match objects.is_empty() {
            true => BTreeSet::new(),
            false => (self.referenced)(&objects),
        };
        self.stop_unnamed(&now, grown);
        for (gk, namespace) in now {
            let bad_name = namespace
                .as_deref()
                .is_some_and(|ns| crate::model::namespace_name_problem(ns).is_some());
            if bad_name
                || self.watched.contains(&(gk.clone(), None))
                || self.named.contains(&(gk.clone(), namespace.clone()))
            {
                continue;
            }
            let Some(resource) = self.resources.get(&gk).filter(|r| r.namespaced) else {
                continue;
            };
            self.named.insert((gk.clone(), namespace.clone()));
            if self.watched.contains(&(gk.clone(), namespace.clone())) {
                continue;
            }
            self.start_grown(resource.clone(), namespace.as_deref(), &mut grown.start);
            // Named by name alone: watched in every namespace, no grant asked.
            let Some(namespace) = namespace else {
                continue;
            };
            // With the ReferenceGrants there, as the read lists them.
            for group in [GATEWAY_GROUP, GATEWAY_X_GROUP] {
                let grant = GroupKind::new(group, "ReferenceGrant");
                let Some(grants) = self.resources.get(&grant).cloned() else {
                    continue;
                };
                let watched = self.watched.contains(&(grant.clone(), None))
                    || self.watched.contains(&(grant, Some(namespace.clone())));
                if !watched {
                    self.start_grown(grants, Some(&namespace), &mut grown.start);
                }
            }
        }
    }

    /// Starts `resource`'s list in `namespace` (`None`: every namespace), for what
    /// policies name there.
    fn start_grown(
        &mut self,
        resource: Resource,
        namespace: Option<&str>,
        start: &mut Vec<WatchList>,
    ) {
        let list = WatchList {
            resource,
            namespace: namespace.map(str::to_string),
            selector: None,
        };
        let gk = list.resource.group_kind();
        self.watched.insert((gk.clone(), list.namespace.clone()));
        self.grown
            .insert((gk, list.namespace.clone()), (list.clone(), None));
        start.push(list);
    }

    /// The lists started for what policies named, where nothing is named now (`now`):
    /// stopped; ReferenceGrants, once nothing else started is in their namespace.
    fn stop_unnamed(&mut self, now: &super::Named, grown: &mut Grown) {
        let is_grant = |gk: &GroupKind| gk.kind.as_str() == "ReferenceGrant";
        let needed: BTreeSet<&Option<String>> = self
            .grown
            .keys()
            .filter(|(gk, ns)| !is_grant(gk) && now.contains(&(gk.clone(), ns.clone())))
            .map(|(_, ns)| ns)
            .collect();
        let unneeded: Vec<(GroupKind, Option<String>)> = self
            .grown
            .keys()
            .filter(|(gk, ns)| match is_grant(gk) {
                true => !needed.contains(ns),
                false => !now.contains(&(gk.clone(), ns.clone())),
            })
            .cloned()
            .collect();
        for key in unneeded {
            let Some((list, running)) = self.grown.remove(&key) else {
                continue;
            };
            self.named.remove(&key);
            self.watched.remove(&key);
            if let Some(running) = running {
                grown.stop.push((running, Some(list)));
            }
        }
    }
}

/// Whether `list` is of CRDs.
fn is_crds(list: &WatchList) -> bool {
    list.resource.kind == CRD_KIND && list.resource.group == CRD_GROUP
}

/// Whether `r` names a CRD.
fn is_crd_ref(r: &ObjRef) -> bool {
    r.kind.as_str() == CRD_KIND && r.group.as_str() == CRD_GROUP
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
        Change::Unwatched(list) => kept.retain(|_, o| !list.covers(o)),
        _ => {}
    }
}

impl Growth {
    /// The Pod lists the policies now need that are not watched as they need them (a
    /// list with another selector stopped), and those no policy needs, stopped.
    fn pods_wanted(&mut self, grown: &mut Grown) {
        let Some(pods) = self.pods.clone() else {
            return;
        };
        let objects: Vec<Object> = self.pickers.values().cloned().collect();
        let wanted: BTreeMap<String, Option<String>> = match objects.is_empty() {
            true => BTreeMap::new(),
            false => (self.pod_lists)(&objects, &self.pod_picking_kinds)
                .into_iter()
                .filter(|(ns, _)| crate::model::namespace_name_problem(ns).is_none())
                .collect(),
        };
        let unneeded: Vec<String> = self
            .pod_watches
            .keys()
            .filter(|ns| !wanted.contains_key(*ns))
            .cloned()
            .collect();
        for namespace in unneeded {
            if let Some((selector, running)) = self.pod_watches.remove(&namespace) {
                let gk = pods.group_kind();
                self.watched.remove(&(gk, Some(namespace.clone())));
                let list = WatchList {
                    resource: pods.clone(),
                    namespace: Some(namespace),
                    selector,
                };
                if let Some(running) = running {
                    grown.stop.push((running, Some(list)));
                }
            }
        }
        for (namespace, selector) in wanted {
            match self.pod_watches.get(&namespace) {
                Some((watched, _)) if *watched == selector => continue,
                Some((_, Some(running))) => grown.stop.push((running.clone(), None)),
                _ => {}
            }
            self.pod_watches
                .insert(namespace.clone(), (selector.clone(), None));
            grown.start.push(WatchList {
                resource: pods.clone(),
                namespace: Some(namespace),
                selector,
            });
        }
    }
}

/// Whether `o` is a CRD with the policy label.
fn is_labelled_crd(o: &Object) -> bool {
    Crd::is_crd(o) && o.labels.contains_key(POLICY_LABEL)
}

/// The policy kind a CRD declares when it has the policy label or its kind is `known`,
/// as the API serves it.
fn policy_kind(crd: &Object, known: &BTreeSet<GroupKind>) -> Option<Resource> {
    let resource = declared_kind(crd)?;
    (is_labelled_crd(crd) || known.contains(&resource.group_kind())).then_some(resource)
}

/// The kind a CRD declares, as the API serves it: its group, kind, plural, scope and
/// the version it stores (else the first it serves).
fn declared_kind(crd: &Object) -> Option<Resource> {
    let crd = Crd::read(crd)?;
    if crd.names.plural.is_empty() {
        return None;
    }
    Some(Resource {
        version: crd.version?,
        namespaced: !crd.cluster_scoped,
        group: crd.group,
        kind: crd.names.kind,
        plural: crd.names.plural,
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
        let none = BTreeSet::new();
        let stored = "[{name: v1alpha1, served: true}, {name: v1, served: true, storage: true}]";
        let r = policy_kind(&crd(true, stored), &none).unwrap();
        assert_eq!(
            (&*r.group, &*r.version, &*r.kind, &*r.plural, r.namespaced),
            ("example.io", "v1", "ColorPolicy", "colorpolicies", true)
        );
        let served = "[{name: v2, served: true}]";
        assert_eq!(
            policy_kind(&crd(true, served), &none).unwrap().version,
            "v2"
        );
        assert!(
            policy_kind(&crd(false, stored), &none).is_none(),
            "no label, a kind nobody knows: no policy kind"
        );
        assert!(
            policy_kind(&crd(true, "[]"), &none).is_none(),
            "no version served"
        );
    }

    #[test]
    fn an_unlabelled_crd_of_a_known_kind_is_a_policy_kind() {
        let known = BTreeSet::from([GroupKind::new("example.io", "ColorPolicy")]);
        let stored = "[{name: v1, served: true, storage: true}]";
        let r = policy_kind(&crd(false, stored), &known).unwrap();
        assert_eq!((&*r.kind, &*r.version), ("ColorPolicy", "v1"));
        let other = BTreeSet::from([GroupKind::new("other.io", "ColorPolicy")]);
        assert!(
            policy_kind(&crd(false, stored), &other).is_none(),
            "known by kind and group"
        );
    }
}
