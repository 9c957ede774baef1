//! `diff` against the full computation: on the demo, with each of its objects deleted in
//! turn (and, the other way round, added back), the objects whose effective specs the
//! diff says change are exactly those whose `effective` answer differs, looked at on
//! every object of the side before, not only where the diff compares.

use kubectl_policies::model::{ObjRef, Snapshot};
use kubectl_policies::query::diff::diff;
use kubectl_policies::query::{effective, World};
use kubectl_policies::topology::NodeId;
use std::collections::{BTreeMap, BTreeSet};

/// Every context of every policy kind at `r` in `world`, with its spec (none where
/// `r` is not in the world).
fn specs_at(world: &World, r: &ObjRef) -> BTreeMap<(String, Vec<ObjRef>), serde_json::Value> {
    let Some(node) = world.topology.lookup(r) else {
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    for e in effective(world, node, None).effective {
        for c in e.contexts {
            out.insert((e.policy_kind.kind.clone(), c), e.spec.clone());
        }
    }
    out
}

fn demo() -> (Snapshot, Vec<kubectl_policies::model::MalformedObject>) {
    let loaded = kubectl_policies::source::demo::load().unwrap();
    (loaded.snapshot, loaded.malformed)
}

#[test]
fn diff_changes_are_the_full_comparison_on_the_demo_with_each_object_deleted() {
    let (snapshot, malformed) = demo();
    let whole = kubectl_policies::analyze(snapshot.clone(), &[], &malformed);
    let count = snapshot.objects.len();
    assert!(count > 20, "{count} objects in the demo");
    for i in 0..count {
        let mut less = snapshot.clone();
        let gone = less.objects.remove(i).obj_ref();
        let without = kubectl_policies::analyze(less, &[], &malformed);
        for (before, after) in [(&whole, &without), (&without, &whole)] {
            let d = diff(before, after, vec![], vec![]);
            let said: BTreeSet<ObjRef> = d
                .changes
                .iter()
                .map(|c| c.change.target.clone())
                .filter(|t| before.topology.lookup(t).is_some())
                .collect();
            let full: BTreeSet<ObjRef> = NodeId::all(before.topology.nodes().len())
                .map(|n| before.topology.node(n).obj_ref.clone())
                .filter(|r| specs_at(before, r) != specs_at(after, r))
                .collect();
            assert_eq!(said, full, "deleting (or adding back) {gone}");
            assert_eq!(d.objects.len(), 1, "{gone}");
        }
    }
}
