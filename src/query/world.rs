//! The analysed world every question reads: the hierarchy and, computed on first use,
//! every policy's status. `analyze` is the pipeline's pure part in one call: catalog,
//! topology, statuses.

use crate::catalog::{Catalog, Declared};
use crate::effective::{Counts, Statuses};
use crate::model::{drop_duplicates, MalformedObject, ObjRef, Object, Snapshot};
use crate::topology::{Code, Finding, PolicyId, Topology};
use std::sync::{Arc, OnceLock};

/// A topology and its statuses: what every query reads. It cannot be built again: its
/// topology holds what it was built from as a `Held`, not a `Snapshot` (a world from
/// `analyze_once` let go of its routes' and backends' links). What analyses a changed
/// copy of the input (`blast-radius`) takes a `Rebuildable`.
pub struct World {
    pub topology: Arc<Topology>,
    /// Every policy's status, at every node it reaches: computed by `statuses()`, the
    /// first time it is asked for (`describe` of one object never needs them).
    statuses: OnceLock<Statuses>,
    /// The overall statuses and counts alone (`counts()`), when they are all that was
    /// asked for.
    counts: OnceLock<Counts>,
}

impl World {
    pub(crate) fn new(topology: Topology) -> World {
        World {
            topology: Arc::new(topology),
            statuses: OnceLock::new(),
            counts: OnceLock::new(),
        }
    }

    /// Every policy's computed status, at every node it reaches included: computed by
    /// this call the first time (`Statuses::compute`), then kept.
    pub fn statuses(&self) -> &Statuses {
        self.statuses
            .get_or_init(|| Statuses::compute(&self.topology))
    }

    /// The overall statuses, counts of objects reached and conflicts (`Counts`), what
    /// `get` and `check` show: those of `statuses()` if they were computed, else
    /// computed by this call the first time without each policy's status at every node
    /// (`Counts::compute`: on a large cluster those are tens of megabytes).
    pub fn counts(&self) -> &Counts {
        match self.statuses.get() {
            Some(all) => all.counts(),
            None => self.counts.get_or_init(|| Counts::compute(&self.topology)),
        }
    }

    pub(crate) fn policy_ref(&self, policy: PolicyId) -> ObjRef {
        self.topology.policy(policy).obj_ref.clone()
    }

    /// The object a policy was read from, as read.
    pub fn policy_object(&self, policy: &ObjRef) -> Option<&crate::model::Object> {
        let topology = &self.topology;
        let id = topology.policy_id(policy)?;
        topology.objects().get(topology.policy(id).object.index())
    }
}

impl AsRef<World> for World {
    fn as_ref(&self) -> &World {
        self
    }
}

/// A world whose routes and backends still say what they link (made by `analyze`,
/// never by `analyze_once`): the one stage a changed copy of the input can be made
/// from and analysed again (`snapshot_of`), as `blast-radius` does. Every question a
/// `World` answers, it answers (`Deref`: the world it holds, no work done).
///
/// ```
/// use kubectl_policies::query::{analyze, blast};
/// let kept = analyze(Default::default(), &[], &[]);
/// let again = analyze(kept.snapshot_of(Vec::new()), &[], &[]);
/// let none = kubectl_policies::model::ObjRef::new("", "Secret", Some("default"), "s");
/// let _ = blast::delete_object(&again, &none, &[]);
/// let _ = (again.counts().overall.len(), again.statuses().per_node().len());
/// ```
///
/// A world analysed once is not built again: it is no `Rebuildable`,
///
/// ```compile_fail
/// use kubectl_policies::query::{analyze, analyze_once};
/// let once = analyze_once(Default::default(), &[], &[]);
/// let again = analyze(once.snapshot_of(Vec::new()), &[], &[]);
/// ```
///
/// nor does its topology hold a `Snapshot` (`model::Held`, not `Clone`),
///
/// ```compile_fail
/// use kubectl_policies::query::{analyze, analyze_once};
/// let once = analyze_once(Default::default(), &[], &[]);
/// let again = analyze(once.topology.snapshot().clone(), &[], &[]);
/// ```
///
/// nor does a blast radius take it;
///
/// ```compile_fail
/// use kubectl_policies::query::{analyze_once, blast};
/// let once = analyze_once(Default::default(), &[], &[]);
/// let none = kubectl_policies::model::ObjRef::new("", "Secret", Some("default"), "s");
/// let _ = blast::delete_object(&once, &none, &[]);
/// ```
///
/// and statuses counted for `get` have no status per node.
///
/// ```compile_fail
/// let once = kubectl_policies::query::analyze_once(Default::default(), &[], &[]);
/// let _ = once.counts().per_node();
/// ```
pub struct Rebuildable {
    world: World,
}

impl std::ops::Deref for Rebuildable {
    type Target = World;
    fn deref(&self) -> &World {
        &self.world
    }
}

impl AsRef<World> for Rebuildable {
    fn as_ref(&self) -> &World {
        &self.world
    }
}

impl Rebuildable {
    /// A snapshot of `objects` (this world's, some left out, changed or added) with
    /// the rest of what this world was read with (blind spots, Pods and kinds listed):
    /// links held, so it can be analysed again.
    pub fn snapshot_of(&self, objects: Vec<Object>) -> Snapshot {
        let held = &self.world.topology.snapshot();
        Snapshot {
            objects,
            blind_spots: held.blind_spots.clone(),
            pods_read_in: held.pods_read_in.clone(),
            listed: held.listed.clone(),
        }
    }

    /// The topology itself, when nothing else holds it: what a caller that lent it its
    /// objects takes them back from, to build again.
    pub(crate) fn into_topology(self) -> Result<Topology, Arc<Topology>> {
        let World { topology, .. } = self.world;
        Arc::try_unwrap(topology)
    }
}

/// Runs the pure stages on a snapshot: catalog, topology, statuses (on first use).
/// Objects defined twice keep their last copy; documents whose shape is wrong are
/// findings. The links are kept: the world can be analysed again with changes.
pub fn analyze(
    snapshot: Snapshot,
    declared: &[Declared],
    malformed: &[MalformedObject],
) -> Rebuildable {
    Rebuildable {
        world: World::new(topology_of(snapshot, declared, malformed)),
    }
}

/// `analyze` for a world that is answered from and never built again (every command
/// but `blast-radius`, which analyses a changed copy of its snapshot): once the
/// topology is built, the routes' and backends' links are let go, and the folds that
/// follow reuse their memory. A `World`, not a `Rebuildable`: nothing can build it
/// again.
pub fn analyze_once(
    snapshot: Snapshot,
    declared: &[Declared],
    malformed: &[MalformedObject],
) -> World {
    let mut topology = topology_of(snapshot, declared, malformed);
    topology.release_links();
    World::new(topology)
}

fn topology_of(
    mut snapshot: Snapshot,
    declared: &[Declared],
    malformed: &[MalformedObject],
) -> Topology {
    let duplicates = drop_duplicates(&mut snapshot.objects);
    let catalog = Catalog::build(&snapshot.objects, declared);
    let mut topology = Topology::build(snapshot, catalog);
    for duplicate in duplicates {
        let earlier: Vec<String> = duplicate.dropped.iter().map(|o| o.to_string()).collect();
        topology.add_finding(Finding::new(
            Code::DuplicateObject,
            duplicate.object,
            format!(
                "defined in {} and again in {}: the last is used, as kubectl apply would leave it",
                earlier.join(", "),
                duplicate.used
            ),
        ));
    }
    for e in malformed {
        topology.add_finding(Finding::new(
            Code::Invalid,
            ObjRef::new("", "Document", None, &e.origin.to_string()),
            format!("field {}: {}", e.field, e.message),
        ));
    }
    topology
}
