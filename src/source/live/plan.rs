//! What a read lists, and in what order. First the labelled policy CRDs and the
//! hierarchy's cluster-scoped kinds (the CRDs name the remaining policy kinds, the
//! namespaces let a long list be read per namespace); then the policy kinds and the
//! hierarchy's namespaced kinds. Cluster-wide, every kind is read in one list, and a
//! kind that may not be listed so is read in the namespaces in scope; scoped, namespaced
//! kinds are read in the namespaces the answer needs, followed round after round until
//! no new one appears. Last, the Pods the policies read pick by label, in their
//! namespaces only.

use super::discovery::Discovery;
use super::list::ListRequest;
use super::read::Reader;
use super::{Guide, LiveError, ReadScope};
use crate::model::read::Resource;
use crate::model::{namespace_name_problem, BlindReason, BlindSpot, GroupKind, ObjRef, Object};
use crate::model::{Crd, CRD_GROUP, CRD_KIND, GATEWAY_GROUP, GATEWAY_X_GROUP, POLICY_LABEL};
use std::collections::BTreeSet;

/// At most this many rounds of a scoped read follow references to new namespaces.
const MAX_ROUNDS: usize = 65;

/// The kind of CRDs, whose labelled ones name policy kinds.
fn crd_kind() -> GroupKind {
    GroupKind::new(CRD_GROUP, CRD_KIND)
}

/// Where the first list of each kind is made, for one scope.
struct Placement<'g> {
    /// Every kind cluster-wide (`ReadScope::Cluster`).
    wide: bool,
    /// The hierarchy's namespaced kinds.
    hierarchy: BTreeSet<GroupKind>,
    /// The namespace a scoped read starts from.
    start_namespace: Option<String>,
    guide: &'g Guide,
}

impl Placement<'_> {
    /// Cluster-wide: every kind in one (paginated) list. Scoped: cluster-scoped kinds
    /// whole, and policy kinds that may target a cluster-scoped object from any
    /// namespace; the other namespaced kinds (policies too: a policy attaches within its
    /// own namespace, GEP-2649) in the namespaces the answer needs.
    fn read_wide(&self, resource: &Resource) -> bool {
        self.wide
            || !resource.namespaced
            || (!self.hierarchy.contains(&resource.group_kind())
                && self.guide.may_target_cluster_scoped(resource))
    }

    /// The first list of each of `kinds`: cluster-wide, or in the start namespace (none
    /// without one).
    fn lists_for(&self, kinds: &[Resource]) -> Vec<ListRequest> {
        kinds
            .iter()
            .filter_map(
                |resource| match (self.read_wide(resource), &self.start_namespace) {
                    (true, _) => Some(ListRequest::of(resource, None)),
                    (false, Some(ns)) => Some(ListRequest::of(resource, Some(ns.clone()))),
                    (false, None) => None,
                },
            )
            .collect()
    }
}

/// The namespace a scoped read starts from (none cluster-wide). Only a namespace name
/// goes into a URL (the caller checks `-n` first).
fn start_namespace(scope: &ReadScope) -> Result<Option<String>, LiveError> {
    let namespace = match scope {
        ReadScope::Cluster { .. } => None,
        ReadScope::Namespace(ns) => Some(ns.clone()),
        ReadScope::Object(r) => r.namespace.as_deref().map(str::to_string),
    };
    if let Some(ns) = &namespace {
        if let Some(problem) = namespace_name_problem(ns) {
            return Err(LiveError::NotANamespaceName {
                namespace: ns.clone(),
                problem,
            });
        }
    }
    Ok(namespace)
}

impl Reader<'_> {
    /// Reads what `scope` needs, in rounds of concurrent lists.
    pub(super) async fn run(&mut self, scope: &ReadScope) -> Result<(), LiveError> {
        let (cluster_scoped, namespaced) = structural(self.discovery);
        let placement = Placement {
            wide: matches!(scope, ReadScope::Cluster { .. }),
            hierarchy: namespaced.iter().map(Resource::group_kind).collect(),
            start_namespace: start_namespace(scope)?,
            guide: self.guide,
        };
        self.read_crds_and_cluster_scoped(&placement, &cluster_scoped)
            .await;
        self.read_policies_and_namespaced(&placement, &namespaced)
            .await;
        match scope {
            ReadScope::Cluster { fallback } => self.read_forbidden_in(fallback).await,
            ReadScope::Namespace(_) | ReadScope::Object(_) => {
                let start = placement.start_namespace.as_deref();
                self.follow_namespaces(scope, start, &namespaced).await
            }
        }
        // Last, once every policy the answer needs is read, in one batch: the Pods the
        // policies pick, and the objects they name.
        let mut last = self.pod_requests();
        last.extend(self.referenced_requests());
        self.batch(last).await;
        self.check_credentials_held()?;
        self.check_gateway_api_served();
        Ok(())
    }

    /// The first batch: the labelled policy CRDs and the hierarchy's cluster-scoped
    /// kinds.
    async fn read_crds_and_cluster_scoped(
        &mut self,
        placement: &Placement<'_>,
        cluster_scoped: &[Resource],
    ) {
        let mut first = Vec::new();
        if let Some(crd) = self.discovery.get(&crd_kind()) {
            first.push(ListRequest {
                resource: crd.clone(),
                namespace: None,
                selector: Some(POLICY_LABEL.to_string()),
            });
        }
        first.extend(placement.lists_for(cluster_scoped));
        self.batch(first).await;
    }

    /// The second batch: the policy kinds (known before, named by the labelled CRDs)
    /// and the hierarchy's namespaced kinds.
    async fn read_policies_and_namespaced(
        &mut self,
        placement: &Placement<'_>,
        namespaced: &[Resource],
    ) {
        // `*Policy` look-alikes only stand in for the labelled CRDs when those could
        // not be listed (other projects' `*Policy` kinds are not Gateway API policies).
        let crds_listed = matches!(
            self.log.get(&crd_kind()).and_then(|l| l.cluster.as_ref()),
            Some(Ok(()))
        );
        let policies = self.known_policy_kinds(!crds_listed);
        for policy in &policies {
            self.mark_policy(&policy.group_kind());
        }
        let mut second = placement.lists_for(&policies);
        let labelled = self.labelled_policy_kinds();
        for policy in &labelled {
            self.mark_policy(&policy.group_kind());
        }
        second.extend(placement.lists_for(&labelled));
        second.extend(placement.lists_for(namespaced));
        self.batch(second).await;
    }

    /// Cluster-wide: the kinds that may not be listed cluster-wide, read in the
    /// namespaces in scope instead.
    async fn read_forbidden_in(&mut self, fallback: &[String]) {
        let namespaces: BTreeSet<String> = fallback.iter().cloned().collect();
        let lists = self.per_namespace(&self.forbidden_cluster_wide(), &namespaces);
        self.batch(lists).await;
    }

    /// Scoped: the namespaces the answer needs (its own, and those its objects'
    /// ancestors live in), read round after round until no new one appears.
    async fn follow_namespaces(
        &mut self,
        scope: &ReadScope,
        start_namespace: Option<&str>,
        namespaced: &[Resource],
    ) {
        let kinds = self.kinds_read_per_namespace(namespaced);
        let mut read: BTreeSet<String> = start_namespace.map(str::to_string).into_iter().collect();
        for _ in 0..MAX_ROUNDS {
            let starts = self.starts(scope, start_namespace);
            let mut needed = (self.guide.follow)(&self.objects, &starts);
            needed.extend(read.iter().cloned());
            let lists = self.per_namespace(&kinds, &needed);
            if lists.is_empty() {
                break;
            }
            read = needed;
            self.batch(lists).await;
        }
    }

    /// Where a scoped answer starts: the object asked about, or the start namespace's
    /// own objects (their ancestors are followed through whatever the rounds read).
    fn starts(&self, scope: &ReadScope, start_namespace: Option<&str>) -> Vec<ObjRef> {
        match scope {
            ReadScope::Object(r) => vec![r.clone()],
            _ => self
                .objects
                .iter()
                .filter(|o| o.namespace.is_some() && o.namespace.as_deref() == start_namespace)
                .map(Object::obj_ref)
                .collect(),
        }
    }

    /// The namespaced kinds a scoped read reads in the namespaces the answer needs: the
    /// hierarchy's, the policy kinds that attach within their own namespace, and the
    /// kinds whose cluster-wide list was refused.
    fn kinds_read_per_namespace(&self, namespaced: &[Resource]) -> Vec<Resource> {
        let mut kinds = namespaced.to_vec();
        kinds.extend(
            self.log
                .iter()
                .filter(|(_, l)| l.policy)
                .filter_map(|(gk, _)| self.discovery.get(gk).cloned())
                .filter(|r| r.namespaced && !self.guide.may_target_cluster_scoped(r)),
        );
        // Kinds whose cluster-wide list was refused are read where the answer needs them.
        kinds.extend(self.forbidden_cluster_wide());
        kinds
    }

    /// The Pods the policies that pick Pods by label (GKE) pick, in those policies'
    /// namespaces only, each namespace in one list, with the policies' selector when
    /// they share one (`Guide::pod_lists`). No such policy read, no Pod listed.
    fn pod_requests(&mut self) -> Vec<ListRequest> {
        let Some(pods) = self.discovery.get(&GroupKind::new("", "Pod")).cloned() else {
            return Vec::new();
        };
        if self.guide.pod_picking_kinds.is_empty() {
            return Vec::new();
        }
        let wanted = (self.guide.pod_lists)(&self.objects, &self.guide.pod_picking_kinds);
        let lists = wanted
            .iter()
            // A namespace that cannot be a namespace's name never goes into a URL.
            .filter(|(ns, _)| namespace_name_problem(ns).is_none())
            .map(|(ns, selector)| ListRequest {
                resource: pods.clone(),
                namespace: Some(ns.clone()),
                selector: selector.clone(),
            })
            .collect();
        self.pod_lists = wanted;
        lists
    }

    /// The objects the policies read name in their specs (`Guide::referenced`), in the
    /// namespaces they name them in, where their kind was not listed yet: Secrets and
    /// ConfigMaps are listed there only (as metadata, `Resource::metadata_only`).
    /// With them, the ReferenceGrants of those namespaces (one there lets a policy
    /// refer in from another).
    fn referenced_requests(&self) -> Vec<ListRequest> {
        let grants: Vec<Resource> = [GATEWAY_GROUP, GATEWAY_X_GROUP]
            .iter()
            .filter_map(|group| self.discovery.get(&GroupKind::new(group, "ReferenceGrant")))
            .cloned()
            .collect();
        let mut lists = Vec::new();
        let mut named = BTreeSet::new();
        for (gk, namespace) in (self.guide.referenced)(&self.objects) {
            let Some(resource) = self.discovery.get(&gk) else {
                continue;
            };
            // Named by name alone: listed in every namespace, once.
            let Some(namespace) = namespace else {
                let log = self.log.get(&gk).and_then(|l| l.cluster.as_ref());
                if log.is_none() && resource.namespaced {
                    lists.push(ListRequest::of(resource, None));
                }
                continue;
            };
            let namespaces = BTreeSet::from([namespace]);
            lists.extend(self.per_namespace(std::slice::from_ref(resource), &namespaces));
            named.extend(namespaces);
        }
        lists.extend(self.per_namespace(&grants, &named));
        lists
    }

    /// Credentials rejected part-way is no blind spot: nothing can be trusted.
    fn check_credentials_held(&self) -> Result<(), LiveError> {
        let rejected = self.log.values().any(|l| {
            l.cluster
                .iter()
                .chain(l.namespaces.values())
                .any(|r| matches!(r, Err(e) if e.code() == Some(401)))
        });
        if rejected {
            return Err(LiveError::UnauthorizedPartWay {
                server: self.cluster.server.clone(),
            });
        }
        Ok(())
    }

    fn mark_policy(&mut self, gk: &GroupKind) {
        self.log.entry(gk.clone()).or_default().policy = true;
    }

    /// The policy kinds known before reading CRDs: the ones handed in, and the
    /// `*Policy` look-alikes the server serves.
    fn known_policy_kinds(&self, lookalikes: bool) -> Vec<Resource> {
        let mut gks: BTreeSet<GroupKind> = self
            .guide
            .policy_kinds
            .iter()
            .map(|(gk, _)| gk.clone())
            .collect();
        if lookalikes {
            gks.extend(
                self.discovery
                    .resources
                    .values()
                    .filter(|r| looks_like_policy_kind(r))
                    .map(Resource::group_kind),
            );
        }
        gks.iter()
            .filter_map(|gk| self.discovery.get(gk).cloned())
            .collect()
    }

    /// Policy kinds named by labelled CRDs that were not read yet.
    fn labelled_policy_kinds(&self) -> Vec<Resource> {
        let mut out = Vec::new();
        let labelled = |o: &&Object| o.labels.contains_key(POLICY_LABEL);
        for crd in self.objects.iter().filter(labelled).filter_map(Crd::read) {
            let gk = crd.group_kind();
            if self.log.contains_key(&gk) {
                continue;
            }
            if let Some(resource) = self.discovery.get(&gk) {
                out.push(resource.clone());
            }
        }
        out
    }

    /// Kinds whose cluster-wide list was forbidden: to be read per namespace.
    fn forbidden_cluster_wide(&self) -> Vec<Resource> {
        self.log
            .iter()
            .filter(|(_, l)| matches!(&l.cluster, Some(Err(e)) if e.code() == Some(403)))
            .filter_map(|(gk, _)| self.discovery.get(gk).cloned())
            .filter(|r| r.namespaced)
            .collect()
    }

    /// Lists of `kinds` in each of `namespaces` not read for that kind yet.
    fn per_namespace(&self, kinds: &[Resource], namespaces: &BTreeSet<String>) -> Vec<ListRequest> {
        let mut out = Vec::new();
        for resource in kinds.iter().filter(|r| r.namespaced) {
            let log = self.log.get(&resource.group_kind());
            if matches!(log.and_then(|l| l.cluster.as_ref()), Some(Ok(()))) {
                continue;
            }
            // A reference may name any text as a namespace; one that cannot be a
            // namespace's name holds nothing, and never goes into a URL.
            for ns in namespaces
                .iter()
                .filter(|ns| crate::model::namespace_name_problem(ns).is_none())
            {
                if log.is_some_and(|l| l.namespaces.contains_key(ns)) {
                    continue;
                }
                out.push(ListRequest::of(resource, Some(ns.clone())));
            }
        }
        out
    }

    /// A cluster without the Gateway API is said as a blind spot.
    fn check_gateway_api_served(&mut self) {
        let served = self
            .discovery
            .resources
            .keys()
            .any(|gk| crate::model::is_gateway_group(&gk.group));
        if !served {
            self.blind_spots.push(BlindSpot {
                group: GATEWAY_GROUP.into(),
                kind: String::new(),
                namespace: None,
                reason: BlindReason::NotFound,
                message: format!(
                    "the API server at {} does not serve {GATEWAY_GROUP}: the Gateway API CRDs are not installed, so there is no hierarchy to attach policies to",
                    self.cluster.server
                ),
                file: None,
                document: None,
            });
        }
    }
}

/// The kinds of the hierarchy (besides policies).
/// Those the cluster serves: the cluster-scoped ones, then the namespaced ones.
fn structural(discovery: &Discovery) -> (Vec<Resource>, Vec<Resource>) {
    let mut wanted: Vec<GroupKind> = vec![
        GroupKind::new("", "Namespace"),
        GroupKind::new("", "Service"),
        GroupKind::new("multicluster.x-k8s.io", "ServiceImport"),
    ];
    for group in [GATEWAY_GROUP, GATEWAY_X_GROUP] {
        for kind in [
            "GatewayClass",
            "Gateway",
            "ListenerSet",
            "XListenerSet",
            "ReferenceGrant",
            "HTTPRoute",
            "GRPCRoute",
            "TLSRoute",
            "TCPRoute",
            "UDPRoute",
        ] {
            wanted.push(GroupKind::new(group, kind));
        }
    }
    let found: Vec<Resource> = wanted
        .iter()
        .filter_map(|gk| discovery.get(gk).cloned())
        .collect();
    found.into_iter().partition(|r| !r.namespaced)
}

/// A discovered kind that GEP-713 tooling would call a policy by its name alone: a
/// `*Policy` kind outside the Kubernetes built-in groups.
fn looks_like_policy_kind(resource: &Resource) -> bool {
    let group = resource.group.as_str();
    let builtin = !group.contains('.') || (group.ends_with(".k8s.io") && group != GATEWAY_GROUP);
    resource.kind.ends_with("Policy") && !builtin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_groups_do_not_look_like_policies() {
        let mut resource = Resource {
            group: "resilience.example.io".into(),
            version: "v1".into(),
            kind: "RetryPolicy".into(),
            plural: "retrypolicies".into(),
            namespaced: true,
        };
        assert!(looks_like_policy_kind(&resource));
        resource.group = "networking.k8s.io".into();
        resource.kind = "NetworkPolicy".into();
        assert!(!looks_like_policy_kind(&resource));
        resource.group = "policy".into();
        assert!(!looks_like_policy_kind(&resource));
        resource.group = GATEWAY_GROUP.into();
        resource.kind = "BackendTLSPolicy".into();
        assert!(looks_like_policy_kind(&resource));
    }
}
