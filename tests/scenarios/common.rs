//! Helpers for scenario tests: literal YAML in, effective results out, in plain words.

use kubectl_policies::effective::{KindFold, PolicyStatus};
use kubectl_policies::model::{GroupKind, ObjRef};
use kubectl_policies::query::{Rebuildable, World};
use kubectl_policies::topology::{Code, PolicyId, RefReason, Severity};
use serde_json::Value;

/// The world of a literal YAML. Every world a scenario test builds this way is also
/// checked for `assert_incremental_matches_full`, and every command answers on it in
/// every format (`sweep::answer_everything`).
pub fn world(yaml: &str) -> Rebuildable {
    let w = kubectl_policies::analyze_yaml(yaml).expect("test YAML parses");
    crate::sweep::answer_everything(&w);
    assert_skeleton_matches_nodes(&w);
    assert_incremental_matches_full(&w);
    assert_narrowed_matches_full(yaml, &w);
    assert_live_plan_matches_full(yaml, &w);
    w
}

/// The compact copy of the hierarchy (`Topology::shape`) says what the nodes say:
/// the same parents and children in the same order, owners and namespace levels.
pub fn assert_skeleton_matches_nodes(w: &World) {
    let t = &w.topology;
    for (i, node) in t.nodes().iter().enumerate() {
        let n = kubectl_policies::topology::NodeId(i as u32);
        let name = &node.obj_ref;
        assert_eq!(
            t.skeleton().parents(n),
            &node.parents[..],
            "parents of {name}"
        );
        assert_eq!(
            t.skeleton().children(n),
            &node.children[..],
            "children of {name}"
        );
        assert_eq!(t.skeleton().role(n), node.role, "role of {name}");
        assert_eq!(t.skeleton().owner(n), node.owner, "owner of {name}");
        assert_eq!(
            t.skeleton().object(n),
            node.owner.unwrap_or(n),
            "object of {name}"
        );
        let level = t.skeleton().level(n);
        let by_name = t
            .namespace_level(n)
            .and_then(|ns| t.skeleton().level_of(ns));
        assert_eq!(level, by_name, "namespace level of {name}");
        assert_eq!(level.is_some(), t.namespace_level(n).is_some(), "{name}");
        assert!(level.is_none_or(|l| (l as usize) < t.skeleton().levels()));
    }
}

/// A live read of what `focus` plans for one object (`live_scope`, then the
/// namespaces `needed_namespaces` names, round after round, as the live reader does)
/// gives the same `describe` as the whole input, for every namespaced object.
/// Simulated on the objects of the YAML: a round "reads" a namespace by taking every
/// object in it; cluster-scoped objects and the policy kinds not known to attach
/// within their namespace are read cluster-wide, as the live reader reads them; last,
/// the objects the policies read name, where they name them (`focus::referenced`).
pub fn assert_live_plan_matches_full(yaml: &str, w: &World) {
    use kubectl_policies::catalog::Catalog;
    use kubectl_policies::focus::{live_scope, needed_namespaces, Need};
    use kubectl_policies::model::read::ReadScope;
    use std::collections::BTreeSet;
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(yaml, "<literal>", &mut loaded).unwrap();
    loaded.place_in("default");
    let objects = &loaded.snapshot.objects;
    let known = Catalog::build(&[], &[]);
    let everywhere: BTreeSet<_> = known
        .kinds_for_reading()
        .into_iter()
        .filter(|(_, namespaced)| !namespaced)
        .map(|(gk, _)| gk)
        .collect();
    let t = &w.topology;
    for n in kubectl_policies::topology::NodeId::all(t.nodes().len()) {
        let r = &t.node(n).obj_ref;
        if r.namespace.is_none() || t.node(n).owner.is_some() || t.node(n).object.is_none() {
            continue;
        }
        let ns = r.namespace.as_deref().unwrap().to_string();
        let ReadScope::Object(start) = live_scope(&Need::Object(r.clone()), &known, &ns, false)
        else {
            continue;
        };
        let in_read = |read: &BTreeSet<String>, o: &kubectl_policies::model::Object| {
            o.namespace
                .as_ref()
                .is_none_or(|ns| read.contains(ns.as_str()))
                || everywhere.contains(&o.group_kind())
                || o.kind.ends_with("Policy") && known.get(&o.group_kind()).is_none()
        };
        let mut read: BTreeSet<String> = BTreeSet::from([ns]);
        loop {
            let got: Vec<_> = objects
                .iter()
                .filter(|o| in_read(&read, o))
                .cloned()
                .collect();
            let mut needed = needed_namespaces(&got, std::slice::from_ref(&start));
            needed.extend(read.iter().cloned());
            if needed == read {
                break;
            }
            read = needed;
        }
        // Last, as the live reader does (`referenced_requests`): the kinds the policies
        // read name, in the namespaces they name them in, with those namespaces'
        // ReferenceGrants.
        let got: Vec<_> = objects
            .iter()
            .filter(|o| in_read(&read, o))
            .cloned()
            .collect();
        let named = kubectl_policies::focus::referenced(&got);
        let named_in = |o: &kubectl_policies::model::Object| {
            let Some(ns) = o.namespace.as_deref() else {
                return false;
            };
            let grant =
                o.kind == "ReferenceGrant" && named.iter().any(|(_, n)| n.as_deref() == Some(ns));
            grant
                || named.contains(&(o.group_kind(), Some(ns.to_string())))
                || named.contains(&(o.group_kind(), None))
        };
        let snapshot = kubectl_policies::model::Snapshot {
            objects: objects
                .iter()
                .filter(|o| in_read(&read, o) || named_in(o))
                .cloned()
                .collect(),
            blind_spots: Vec::new(),
            pods_read_in: Default::default(),
            listed: None,
        };
        let part = kubectl_policies::analyze(snapshot, &[], &loaded.malformed);
        let m = part
            .topology
            .lookup(r)
            .unwrap_or_else(|| panic!("{r} not read"));
        let (full, small) = (
            kubectl_policies::query::describe_target(w, n),
            kubectl_policies::query::describe_target(&part, m),
        );
        assert_eq!(
            json(&full),
            json(&small),
            "live plan for {r}: read {read:?}"
        );
    }
}

/// Answers about one object or one policy computed on the input narrowed to what they
/// can depend on (`kubectl_policies::focus`) equal those computed on the whole:
/// `describe` of every namespaced object and policy, and the blast radius of deleting
/// each policy. Returns how many (focus, objects set aside) pairs set something aside.
pub fn assert_narrowed_matches_full(yaml: &str, w: &Rebuildable) -> usize {
    use kubectl_policies::query::{blast::delete_policy, describe_policy, describe_target};
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(yaml, "<literal>", &mut loaded).unwrap();
    let narrowed = |focus: &ObjRef| {
        let mut snapshot = loaded.snapshot.clone();
        let dropped = kubectl_policies::focus::narrow(
            &mut snapshot,
            &kubectl_policies::catalog::Catalog::build(&loaded.snapshot.objects, &[]),
            focus,
        )
        .len();
        (
            kubectl_policies::analyze(snapshot, &[], &loaded.malformed),
            dropped,
        )
    };
    let t = &w.topology;
    let mut narrowed_some = 0;
    for n in kubectl_policies::topology::NodeId::all(t.nodes().len()) {
        let r = &t.node(n).obj_ref;
        if r.namespace.is_none() || t.node(n).owner.is_some() {
            continue;
        }
        let (small, dropped) = narrowed(r);
        narrowed_some += usize::from(dropped > 0);
        let m = small
            .topology
            .lookup(r)
            .unwrap_or_else(|| panic!("{r} set aside"));
        let (full, part) = (describe_target(w, n), describe_target(&small, m));
        assert_eq!(json(&full), json(&part), "describe {r}");
        assert_eq!(full.parents, part.parents, "parents of {r}");
        assert_eq!(full.children, part.children, "children of {r}");
    }
    for p in kubectl_policies::topology::PolicyId::all(t.policies().len()) {
        let r = &t.policy(p).obj_ref;
        let (small, dropped) = narrowed(r);
        narrowed_some += usize::from(dropped > 0);
        let q = kubectl_policies::topology::PolicyId::all(small.topology.policies().len())
            .find(|&q| &small.topology.policy(q).obj_ref == r)
            .unwrap_or_else(|| panic!("{r} set aside"));
        let (full, part) = (describe_policy(w, p), describe_policy(&small, q));
        assert_eq!(json(&full), json(&part), "describe {r}");
        let (full, part) = (delete_policy(w, p, &[]), delete_policy(&small, q, &[]));
        assert_eq!(full.headline, part.headline, "deleting {r}");
        assert_eq!(json(&full), json(&part), "deleting {r}");
    }
    narrowed_some
}

/// Any answer as a JSON value (to compare answers of different types alike).
fn json(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap()
}

/// The shortcuts give the answers of the full computation: statuses at one object
/// and its sections (what `describe` folds) equal the whole topology's, and the blast
/// radius of deleting each policy (folded again only below where it attaches) equals
/// rebuilding the world without it.
pub fn assert_incremental_matches_full(w: &Rebuildable) {
    use kubectl_policies::effective::StatusesAt;
    use kubectl_policies::query::blast::{delete_policy, delete_policy_by_reanalysis};
    use std::collections::BTreeMap;
    let t = &w.topology;
    // Counted without the statuses per node, every count is the same.
    let counts = kubectl_policies::effective::Counts::compute(t);
    assert_eq!(counts.overall, w.statuses().overall);
    assert_eq!(counts.conflicts, w.statuses().conflicts);
    for p in kubectl_policies::topology::PolicyId::all(t.policies().len()) {
        let objects: std::collections::BTreeSet<_> = w
            .statuses()
            .reached(p)
            .nodes()
            .map(|n| t.node(n).owner.unwrap_or(n))
            .collect();
        assert_eq!(
            counts.affects_count(p),
            objects.len(),
            "objects {p:?} reaches"
        );
        assert_eq!(w.statuses().affects_count(p), objects.len());
    }
    for n in kubectl_policies::topology::NodeId::all(t.nodes().len()) {
        let mut here = vec![n];
        here.extend(
            t.node(n)
                .children
                .iter()
                .filter(|&&c| t.node(c).owner == Some(n)),
        );
        let at = StatusesAt::compute(t, &here);
        let mut per_node = BTreeMap::new();
        for (p, m) in
            kubectl_policies::topology::PolicyId::all(usize::MAX).zip(w.statuses().per_node())
        {
            let mine: BTreeMap<_, _> = m.iter().filter(|(k, _)| here.contains(k)).collect();
            if !mine.is_empty() {
                per_node.insert(p, mine);
            }
        }
        let object = &t.node(n).obj_ref;
        assert_eq!(at.per_node, per_node, "statuses at {object}");
        let conflicts: Vec<_> = w
            .statuses()
            .conflicts
            .iter()
            .filter(|c| here.contains(&c.at))
            .copied()
            .collect();
        assert_eq!(at.conflicts, conflicts, "conflicts at {object}");
    }
    for p in kubectl_policies::topology::PolicyId::all(t.policies().len()) {
        let fast = delete_policy(w, p, &[]);
        let full = delete_policy_by_reanalysis(w, p, &[]);
        let policy = &t.policy(p).obj_ref;
        assert_eq!(fast.headline, full.headline, "deleting {policy}");
        assert_eq!(json(&fast), json(&full), "deleting {policy}");
    }
}

pub fn node(
    w: &World,
    kind: &str,
    ns: Option<&str>,
    name: &str,
    section: Option<&str>,
) -> kubectl_policies::topology::NodeId {
    let group = match kind {
        "Service" => "",
        _ => "gateway.networking.k8s.io",
    };
    let r = ObjRef::new(group, kind, ns, name).with_section(section);
    w.topology
        .lookup(&r)
        .unwrap_or_else(|| panic!("no node {r}"))
}

/// The effective spec per context at a node, contexts written as the names along the
/// path (namespace levels left out): `("g1>r1>b1", spec)`, sorted.
pub fn effective(
    w: &World,
    kind: &GroupKind,
    n: kubectl_policies::topology::NodeId,
) -> Vec<(String, Value)> {
    let mut f = KindFold::new(&w.topology, kind);
    let mut out = Vec::new();
    for g in f.effective_at(n) {
        for path in &g.contexts {
            let names: Vec<String> = path
                .iter()
                .filter(|r| r.kind != "Namespace")
                .map(|r| match &r.section {
                    Some(s) => format!("{}#{s}", r.name),
                    None => r.name.to_string(),
                })
                .collect();
            out.push((names.join(">"), g.spec.clone()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The policy (name) behind each leaf at a node, for the single context there.
pub fn sources(
    w: &World,
    kind: &GroupKind,
    n: kubectl_policies::topology::NodeId,
) -> Vec<(String, String)> {
    let mut f = KindFold::new(&w.topology, kind);
    let groups = f.effective_at(n);
    assert_eq!(groups.len(), 1, "expected one effective spec at the node");
    groups[0]
        .sources
        .iter()
        .map(|(p, pid)| (p.clone(), w.topology.policy(*pid).obj_ref.name.to_string()))
        .collect()
}

pub fn status(w: &World, name: &str) -> PolicyStatus {
    let p = w
        .topology
        .policies()
        .iter()
        .position(|p| p.obj_ref.name == name)
        .unwrap_or_else(|| panic!("no policy {name}"));
    w.statuses().overall[p]
}

pub fn gk(group: &str, kind: &str) -> GroupKind {
    GroupKind::new(group, kind)
}

/// GEP-713 examples 2 and 3: g1 > r1 > b1, g1 > r2 > b1, g2 > r3 > b1, g2 > r4 > b2
/// (Gateway = g, HTTPRoute = r, Service = b).
pub const TOPOLOGY: &str = include_str!("../fixtures/gep713-topology.yaml");

/// A CRD that makes ColorPolicy a Direct kind through the GEP-713 label.
pub const DIRECT_COLOR_CRD: &str = include_str!("../fixtures/direct-color-crd.yaml");

/// (pointer, reason) of each reference of the policy `name`.
pub fn references(w: &World, name: &str) -> Vec<(String, Option<RefReason>)> {
    let pid = PolicyId::all(w.topology.policies().len())
        .find(|&p| w.topology.policy(p).obj_ref.name == name)
        .unwrap();
    w.topology
        .references_of(pid)
        .iter()
        .map(|r| (r.path.clone(), r.reason))
        .collect()
}

/// `references`' answer for a policy with the one reference at `pointer`.
pub fn one(pointer: &str, reason: Option<RefReason>) -> Vec<(String, Option<RefReason>)> {
    vec![(pointer.to_string(), reason)]
}

/// (code, severity, message) of each finding on the object `name`.
pub fn findings(w: &World, name: &str) -> Vec<(Code, Severity, String)> {
    w.topology
        .findings()
        .iter()
        .filter(|f| f.object.name == name)
        .map(|f| (f.code, f.severity, f.message.clone()))
        .collect()
}
