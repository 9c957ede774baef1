//! The analysed world every question reads: the hierarchy and, computed on first use,
//! every policy's status. `analyze` is the pipeline's pure part in one call: catalog,
//! topology, statuses.

use crate::catalog::{Catalog, Declared};
use crate::effective::Statuses;
use crate::model::{drop_duplicates, MalformedObject, ObjRef, Snapshot};
use crate::source::files::{load_text, Loaded, SyntaxError};
use crate::topology::{Code, Finding, PolicyId, Topology};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// A topology and its statuses: what every query reads.
pub struct World {
    pub topology: Arc<Topology>,
    /// Every policy's computed status, computed the first time it is read: `describe`
    /// of one object and `blast-radius` never need all of them.
    pub statuses: LazyStatuses,
}

/// `Statuses` of a topology, computed on first use.
pub struct LazyStatuses {
    topology: Arc<Topology>,
    computed: OnceLock<Statuses>,
    counted: OnceLock<Statuses>,
}

impl LazyStatuses {
    /// The statuses without each policy's status at every node (`Statuses::counts`):
    /// for answers that show only overall statuses, counts and conflicts.
    pub fn counts(&self) -> &Statuses {
        match self.computed.get() {
            Some(all) => all,
            None => self
                .counted
                .get_or_init(|| Statuses::counts(&self.topology)),
        }
    }
}

impl Deref for LazyStatuses {
    type Target = Statuses;
    fn deref(&self) -> &Statuses {
        self.computed
            .get_or_init(|| Statuses::compute(&self.topology))
    }
}

impl World {
    pub fn new(topology: Topology) -> World {
        let topology = Arc::new(topology);
        let statuses = LazyStatuses {
            topology: topology.clone(),
            computed: OnceLock::new(),
            counted: OnceLock::new(),
        };
        World { topology, statuses }
    }

    /// The topology itself, when nothing else holds it (its statuses let go): what a
    /// caller that lent it its objects takes them back from.
    pub(crate) fn into_topology(self) -> Result<Topology, Arc<Topology>> {
        let World { topology, statuses } = self;
        drop(statuses);
        Arc::try_unwrap(topology)
    }

    pub(crate) fn policy_ref(&self, policy: PolicyId) -> ObjRef {
        self.topology.policies[policy].obj_ref.clone()
    }

    /// The object a policy was read from, as read.
    pub fn policy_object(&self, policy: &ObjRef) -> Option<&crate::model::Object> {
        let topology = &self.topology;
        let &id = topology.policy_index.get(policy)?;
        topology
            .snapshot
            .objects
            .get(topology.policies[id].object.index())
    }
}

/// Runs the pure stages on a snapshot: catalog, topology, statuses (on first use).
/// Objects defined twice keep their last copy; documents whose shape is wrong are
/// findings.
pub fn analyze(snapshot: Snapshot, declared: &[Declared], malformed: &[MalformedObject]) -> World {
    World::new(topology_of(snapshot, declared, malformed))
}

/// `analyze` for a world that is answered from and never built again (every command
/// but `blast-radius --apply`, which analyses a changed copy of its snapshot): once the
/// topology is built, the routes' and backends' links are let go, and the folds that
/// follow reuse their memory.
pub fn analyze_once(
    snapshot: Snapshot,
    declared: &[Declared],
    malformed: &[MalformedObject],
) -> World {
    let mut topology = topology_of(snapshot, declared, malformed);
    topology.snapshot.release_links();
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
        topology.findings.push(Finding::new(
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
        topology.findings.push(Finding::new(
            Code::Invalid,
            ObjRef::new("", "Document", None, &e.origin.to_string()),
            format!("field {}: {}", e.field, e.message),
        ));
    }
    topology
}

/// Literal YAML in, analysed world out (objects without a namespace in `default`): for
/// tests and examples.
pub fn analyze_yaml(yaml: &str) -> Result<World, SyntaxError> {
    let mut loaded = Loaded::default();
    load_text(yaml, "<literal>", &mut loaded)?;
    loaded.place_in("default");
    Ok(analyze(loaded.snapshot, &[], &loaded.malformed))
}
