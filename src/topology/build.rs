//! Building the DAG: objects → nodes, references → edges, policies → attachments.
//!
//! `build` runs the stages in order; each stage's rules are in a file of `build/`:
//! objects become nodes (`nodes`), Gateways and ListenerSets are linked to what is
//! above them (`gateways`), then routes: their parents through the listeners that
//! admit them (`listeners`, `parents`) and their rules' backends (`backends`,
//! `delegation`, `grants`); last, policies are read, the Pods they pick by label made
//! nodes below their Services (`pods`), and the policies attached (`attach`) where their
//! targets resolve (`resolve`), unless a vendor rule refuses them (`shared_port`,
//! `merged`, `merge_refusal`).
//! What can be worked out apart is worked out on every core through a `View` and
//! done by the `Builder` in input order, so the result does not depend on the cores.

use super::{Code, Finding, NodeId, Role, Skeleton, Topology};
use crate::catalog::Catalog;
use crate::model::FastMap;
use crate::model::{BlindSpot, ListField, ObjRef, Object, ObjectId, RefFields, Snapshot};
use rayon::prelude::*;
use std::cell::OnceCell;
use std::collections::BTreeSet;

use attach::read_policies;
use backends::NewBackend;
use delegation::Delegation;
use listeners::Listener;
use resolve::Resolved;

mod attach;
mod backends;
mod delegation;
mod further;
mod gateways;
mod grants;
mod listeners;
mod merge_refusal;
mod merged;
mod nodes;
mod parents;
mod pods;
mod ref_port;
mod references;
mod resolve;
mod shared_port;

/// The topology being built, beside the objects it is built from: the objects are
/// borrowed (read in place, never copied) and move into the topology at the end.
struct Builder<'s> {
    topology: Topology,
    objects: &'s [Object],
    /// What the source could not read: a target there may exist unseen.
    blind_spots: &'s [BlindSpot],
    /// The namespaces whose Pods a live read listed (`Snapshot::pods_read_in`).
    pods_read_in: &'s BTreeSet<String>,
    /// The kinds the source listed, and where (`Snapshot::listed`).
    listed: &'s Option<BTreeSet<crate::model::Listed>>,
    /// The blind spots of the policies' references that could not be checked.
    unchecked: Vec<BlindSpot>,
    /// Objects by (group, kind, namespace), for targetSelectors, ReferenceGrants and
    /// backends of kinds outside the hierarchy: made the first time one is asked for.
    by_kind: OnceCell<FastMap<KindIn<'s>, Vec<ObjectId>>>,
    /// What each listener admits, read once.
    listeners: FastMap<NodeId, Option<Listener<'s>>>,
    /// Edges from a rule to a backend one of whose backendRefs names no port.
    unrestricted: BTreeSet<(NodeId, NodeId)>,
}

/// (group, kind, namespace), borrowed from the objects.
type KindIn<'s> = (&'s str, &'s str, Option<&'s str>);

pub(crate) fn build(snapshot: Snapshot, catalog: Catalog) -> Topology {
    let mut builder = Builder {
        topology: Topology {
            catalog,
            ..Topology::default()
        },
        objects: &snapshot.objects,
        blind_spots: &snapshot.blind_spots,
        pods_read_in: &snapshot.pods_read_in,
        listed: &snapshot.listed,
        unchecked: Vec::new(),
        by_kind: OnceCell::new(),
        listeners: FastMap::default(),
        unrestricted: BTreeSet::new(),
    };
    builder.index_namespaces();
    builder.create_nodes();
    builder.link();
    let mut policies = read_policies(&snapshot.objects, &builder.topology.catalog);
    let unnamed = super::annotation::attach_by_target_annotations(
        &snapshot.objects,
        &builder.topology.catalog,
        &mut policies,
    );
    builder.topology.findings.extend(unnamed);
    let conflicts = super::annotation::rule_annotation_conflicts(
        &snapshot.objects,
        &builder.topology.catalog,
        &mut policies,
    );
    builder.topology.findings.extend(conflicts);
    builder.add_picked_pods(&mut policies);
    builder.attach_policies(policies);
    let unchecked = std::mem::take(&mut builder.unchecked);
    let mut topology = builder.topology;
    // Grown by doubling, they would keep up to half again their size for good.
    topology.nodes.shrink_to_fit();
    topology.index.shrink_to_fit();
    topology.targets.shrink_to_fit();
    topology.attached.shrink_to_fit();
    topology.skeleton = Skeleton::of(&topology.nodes);
    topology.port_traffic = topology.told_port_traffic();
    topology.snapshot = snapshot.into();
    // Unchecked references are this build's own finding, made again each time.
    let spots = &mut topology.snapshot.blind_spots;
    spots.retain(|b| b.reason != crate::model::BlindReason::Unchecked);
    spots.extend(unchecked);
    topology
}

/// `work` of each object and its number, done on every core; what it gives, in
/// object order.
fn each_object<R: Send>(
    objects: &[Object],
    work: impl Fn(&Object, ObjectId) -> Option<R> + Sync,
) -> Vec<R> {
    const RUN: usize = 1024;
    let found: Vec<Vec<R>> = objects
        .par_chunks(RUN)
        .enumerate()
        .map(|(run_index, run)| {
            let ids = ObjectId::all(usize::MAX).skip(run_index * RUN);
            run.iter()
                .zip(ids)
                .filter_map(|(o, i)| work(o, i))
                .collect()
        })
        .collect();
    found.into_iter().flatten().collect()
}

impl<'s> Builder<'s> {
    /// The objects by (group, kind, namespace), made the first time it is asked for.
    fn by_kind(&self) -> &FastMap<KindIn<'s>, Vec<ObjectId>> {
        let objects = self.objects;
        self.by_kind.get_or_init(|| {
            let mut by_kind: FastMap<KindIn<'s>, Vec<ObjectId>> = FastMap::default();
            for (id, object) in ObjectId::all(objects.len()).zip(objects) {
                let key = (
                    object.group(),
                    object.kind.as_str(),
                    object.namespace.as_deref(),
                );
                by_kind.entry(key).or_default().push(id);
            }
            by_kind
        })
    }

    /// Tells that a field of `object` is misshapen.
    fn invalid(&mut self, object: &ObjRef, field: &str, msg: &str) {
        self.topology.findings.push(invalid(object, field, msg));
    }

    /// The edges: Gateways and ListenerSets first, then every route (its parents, then
    /// its rules' backends), then the cycles the references make are broken.
    fn link(&mut self) {
        let objects = self.objects;
        for id in NodeId::all(self.topology.nodes.len()) {
            let node = &self.topology.nodes[id];
            let (role, Some(oi)) = (node.role, node.object) else {
                continue;
            };
            if !matches!(role, Role::Gateway | Role::ListenerSet) {
                continue;
            }
            let obj_ref = node.obj_ref.clone();
            match role {
                Role::Gateway => self.link_gateway(id, &obj_ref, &objects[oi].spec),
                _ => self.link_listener_set(id, &obj_ref, &objects[oi].spec),
            }
        }
        // Routes after every Gateway and ListenerSet has its edges (parents first).
        // What each route links to is worked out on every core from the nodes as they
        // are now (`View`), then done here in route order.
        self.read_listeners();
        let routes: Vec<NodeId> = NodeId::all(self.topology.nodes.len())
            .filter(|&id| self.topology.nodes[id].role == Role::Route)
            .collect();
        let planned: Vec<_> = {
            let view = self.view();
            routes
                .par_iter()
                .with_min_len(256)
                .map(|&id| view.route_changes(id))
                .collect()
        };
        let nodes_before = self.topology.nodes.len();
        for (&id, changes) in routes.iter().zip(planned) {
            // A backend node made for an earlier route (a kind outside the hierarchy)
            // may be what this one names: then it is worked out again, as it stands now.
            let changes = if self.topology.nodes.len() == nodes_before {
                changes
            } else {
                self.view().route_changes(id)
            };
            self.apply(changes);
        }
        self.break_cycles();
    }

    /// Leaves out the edge that closes each cycle the references make (`cycles::find`),
    /// and tells it on every object of the cycle: what no walk over the hierarchy can
    /// go round, and what a user reading any of them learns of.
    fn break_cycles(&mut self) {
        for cycle in super::cycles::find(&self.topology.nodes) {
            let (Some(&first), Some(&last)) = (cycle.first(), cycle.last()) else {
                continue;
            };
            self.topology.nodes[last].children.retain(|c| *c != first);
            self.topology.nodes[first].parents.retain(|p| *p != last);
            let nodes = &self.topology.nodes;
            let short = |n: NodeId| nodes[n].obj_ref.short();
            let mut chain: Vec<String> = cycle.iter().map(|&n| short(n)).collect();
            chain.push(short(first));
            let message = format!(
                "references lead round in a cycle: {}; the one from {} to {} is left out, \
                 so no policy flows along it",
                chain.join(" → "),
                short(last),
                short(first)
            );
            let mut objects: Vec<NodeId> = Vec::new();
            for &node in &cycle {
                let object = nodes[node].owner.unwrap_or(node);
                if !objects.contains(&object) {
                    objects.push(object);
                }
            }
            for object in objects {
                let obj_ref = nodes[object].obj_ref.clone();
                let finding = Finding::new(Code::Cycle, obj_ref, message.clone());
                self.topology.findings.push(finding);
            }
        }
    }

    /// What route linking reads, borrowed from the builder as it is.
    fn view(&self) -> View<'_, 's> {
        View {
            topology: &self.topology,
            objects: self.objects,
            blind_spots: self.blind_spots,
            listeners: &self.listeners,
            by_kind: self.by_kind(),
        }
    }

    /// Does what linking one route worked out, in order.
    fn apply(&mut self, changes: Vec<RouteChange>) {
        for change in changes {
            match change {
                RouteChange::Edge(parent, child) => self.edge(parent, child),
                RouteChange::Finding(f) => self.topology.findings.push(*f),
                RouteChange::Backend {
                    rule,
                    backend,
                    port,
                } => self.backend_edge(rule, backend, port),
                RouteChange::AddBackend(b) => {
                    let backend = self.add_backend(b.target, b.object);
                    self.backend_edge(b.rule, backend, b.port);
                }
                RouteChange::Delegate(d) => self.delegate(&d),
            }
        }
    }
}

/// A reference's fields as the topology reads them (borrowed from [`RefFields`]).
#[derive(Default)]
struct Ref<'v> {
    name: Option<&'v str>,
    group: Option<&'v str>,
    kind: Option<&'v str>,
    namespace: Option<&'v str>,
    section_name: Option<&'v str>,
    port: Option<u64>,
}

trait Borrowed {
    fn borrowed(&self) -> Ref<'_>;
}

impl Borrowed for RefFields {
    fn borrowed(&self) -> Ref<'_> {
        Ref {
            name: self.name.as_deref(),
            group: self.group.as_deref(),
            kind: self.kind.as_deref(),
            namespace: self.namespace.as_deref(),
            section_name: self.section_name.as_deref(),
            port: self.port,
        }
    }
}

/// One change linking a route makes to the topology (an edge, a backend node, a
/// finding), worked out on any core before the builder makes it (`Builder::apply`).
/// Two words: the rare ones are boxed, for every route has a few of these.
enum RouteChange {
    Edge(NodeId, NodeId),
    /// A rule's edge to a backend node, unless it closes a cycle.
    Backend {
        rule: NodeId,
        backend: NodeId,
        port: Option<u64>,
    },
    Finding(Box<Finding>),
    /// A backend of a kind outside the hierarchy, made a node the first time.
    AddBackend(Box<NewBackend>),
    /// A rule delegating to HTTPRoutes (`Builder::delegate`), which reads the edges
    /// made so far: done in its turn.
    Delegate(Box<Delegation>),
}

impl RouteChange {
    fn found(finding: Finding) -> RouteChange {
        RouteChange::Finding(Box::new(finding))
    }
}

/// What the builder's work on every core reads: the nodes made so far, the listeners'
/// admission rules and the objects. Routes are linked (`route_changes`) and policies' targets
/// resolved (`resolve`) through it; what they change is then done by the builder, in order.
struct View<'b, 's> {
    topology: &'b Topology,
    objects: &'s [Object],
    blind_spots: &'s [BlindSpot],
    listeners: &'b FastMap<NodeId, Option<Listener<'s>>>,
    by_kind: &'b FastMap<KindIn<'s>, Vec<ObjectId>>,
}

impl<'s> View<'_, 's> {
    /// What linking route `id` does: its parents' edges, then its rules' backends'.
    fn route_changes(&self, id: NodeId) -> Vec<RouteChange> {
        let node = &self.topology.nodes[id];
        let mut out = Vec::new();
        if let Some(oi) = node.object {
            let links = self.objects[oi].links();
            self.parents(id, &node.obj_ref, links, &mut out);
            self.backends(id, &node.obj_ref, links, &mut out);
        }
        out
    }
}

/// The finding a misshapen field of `object` makes.
fn invalid(object: &ObjRef, field: &str, msg: &str) -> Finding {
    Finding::new(Code::Invalid, object.clone(), format!("{field}: {msg}"))
}

/// The entries of list field `field` of `object`; one that is not a list is `found`
/// Invalid.
fn listed<'v, T>(
    list: &'v ListField<T>,
    field: &str,
    object: &ObjRef,
    found: impl FnOnce(Finding),
) -> &'v [T] {
    if matches!(list, ListField::NotAList) {
        found(invalid(object, &format!("spec.{field}"), "must be a list"));
    }
    list.items()
}
