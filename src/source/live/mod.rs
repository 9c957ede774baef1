//! The live cluster: kubeconfig, discovery, then concurrent paginated GETs.
//!
//! Only GET requests are ever sent. Every list is paginated (`limit` 500, following
//! `continue`, restarting once on 410 Expired) and runs as its own task, at most
//! `concurrency` requests in flight. What cannot be read (403, 404, an error, a
//! timeout) becomes a [`BlindSpot`](crate::model::BlindSpot); the answer is built from
//! the rest.
//!
//! `config` and `exec`: which cluster, as whom; `connect`: the client, and discovery's
//! failures said; `discovery`: what the cluster serves; `plan`: what a read lists, in
//! what order; `read`: the lists run and their results filed; `list` and `page`: one
//! list, page by page; `blind_spots`: what could not be read; `watch`: `get -w` (`grow`: the kinds and Pods it comes to watch);
//! `runtime`: all of it for a caller without a runtime; `names`: shell completion's
//! names; `error`: why there is no answer.

pub(crate) mod api;
mod blind_spots;
pub mod config;
mod connect;
pub(crate) mod discovery;
pub(crate) mod error;
mod exec;
mod grow;
mod list;
pub mod names;
mod page;
mod plan;
mod read;
mod retry_after;
mod runtime;
pub(crate) mod watch;

use crate::model::read::{PodLists, ReadScope, Resource};
use crate::model::{GroupKind, ObjRef, Object};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

pub(crate) use config::ConfigError;
pub use connect::{connect, context_namespace, Cluster};
pub(crate) use error::{DiscoveryError, LiveError};
pub(crate) use page::complete_item;
pub use runtime::{load, load_and_watch};

/// How to reach the cluster.
#[derive(Clone, Debug)]
pub struct LiveOptions {
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    pub request_timeout: Duration,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// kubectl's connection flags (`--server`, `--token`, `--as`, ...), over the kubeconfig.
    pub overrides: config::Overrides,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions {
            kubeconfig: None,
            context: None,
            request_timeout: Duration::from_secs(30),
            concurrency: 16,
            overrides: config::Overrides::default(),
        }
    }
}

/// Kinds named in policies' specs, each with the namespace named in (`None`: every
/// namespace, a kind named by name alone).
pub(crate) type Named = BTreeSet<(GroupKind, Option<String>)>;

/// What the layers above tell the live reader: the policy kinds to look for before any
/// CRD is read (as the caller's catalog knows them: the registry's and the declared
/// ones; the reader learns the labelled ones from the CRDs it reads), and how to follow
/// an object's references to the namespaces its answer needs (`focus`).
#[derive(Clone, Debug)]
pub struct Guide {
    /// Each kind, and whether its project says it attaches within its own namespace
    /// only (never to a GatewayClass): such kinds are read in the namespaces an answer
    /// needs, the others cluster-wide.
    pub policy_kinds: Vec<(GroupKind, bool)>,
    /// The namespaces the answer about `starts` needs, as far as `objects` (read so
    /// far) tell: called again after each round of reads until nothing new is named.
    pub follow: fn(objects: &[Object], starts: &[ObjRef]) -> BTreeSet<String>,
    /// The policy kinds that pick Pods by label (GKE): Pods are listed for their
    /// policies only.
    pub pod_picking_kinds: Vec<GroupKind>,
    /// The namespaces whose Pods the policies of `pod_picking_kinds` among `objects`
    /// pick, each with the label selector to list them with (none: every Pod there).
    pub pod_lists: fn(objects: &[Object], kinds: &[GroupKind]) -> PodLists,
    /// The kinds the policies among `objects` name in their specs (Secrets,
    /// ConfigMaps, Services, Backends), each with a namespace they name one in (`None`:
    /// any, a kind named by name alone): listed there (Secrets and ConfigMaps there
    /// only, as metadata), so that a reference is judged where its kind was read.
    pub referenced: fn(objects: &[Object]) -> Named,
    /// The policy kinds whose specs may name other objects: a watch keeps their
    /// policies, to list what one that appears names.
    pub referring_kinds: Vec<GroupKind>,
}

impl Guide {
    /// Whether a policy of this kind may target a GatewayClass, from a policy in any
    /// namespace: a kind not known to attach within its own namespace (labelled,
    /// declared or assumed) may target anything.
    fn may_target_cluster_scoped(&self, resource: &Resource) -> bool {
        let gk = resource.group_kind();
        !self
            .policy_kinds
            .iter()
            .any(|(k, namespaced)| *k == gk && *namespaced)
    }
}
