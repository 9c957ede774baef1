//! Cycles among the references objects make. The hierarchy is a DAG (GEP-713), but
//! what objects say of each other need not be: a route naming itself as a backend, two
//! routes naming each other as parents, delegations that come back. Every walk over
//! the hierarchy (the folds, the trees, blast radius) assumes a DAG, so each cycle is
//! broken where one walk finds it, and told as a finding.

use super::{Node, NodeId};

/// Where a node is in the walk of `find`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    New,
    /// On the path from the walk's start to where it is now, at this depth.
    OnPath(u32),
    Done,
}

/// The cycles among `nodes`' edges, each as its members in order (the last one's child
/// is the first), found by one depth-first walk: from the roots in node order, then
/// from any node left (a cycle no root leads to). Each cycle is closed by a back edge,
/// from its last member to its first; once those edges are gone the rest is acyclic,
/// for every other edge of a depth-first walk leads to a node it finished before the
/// edge's parent. Iterative: a long chain of references costs no stack.
pub(super) fn find(nodes: &[Node]) -> Vec<Vec<NodeId>> {
    let mut mark = vec![Mark::New; nodes.len()];
    // The path: each node on it, and which of its children comes next.
    let mut path: Vec<(NodeId, usize)> = Vec::new();
    let mut cycles = Vec::new();
    let roots = NodeId::all(nodes.len()).filter(|&n| nodes[n].parents.is_empty());
    for start in roots.chain(NodeId::all(nodes.len())) {
        if mark[start] != Mark::New {
            continue;
        }
        mark[start] = Mark::OnPath(0);
        path.push((start, 0));
        while let Some(top) = path.last_mut() {
            let (n, next) = *top;
            let Some(&child) = nodes[n].children.get(next) else {
                mark[n] = Mark::Done;
                path.pop();
                continue;
            };
            top.1 += 1;
            match mark[child] {
                Mark::New => {
                    mark[child] = Mark::OnPath(path.len() as u32);
                    path.push((child, 0));
                }
                Mark::OnPath(depth) => {
                    cycles.push(path[depth as usize..].iter().map(|&(m, _)| m).collect());
                }
                Mark::Done => {}
            }
        }
    }
    cycles
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjRef;
    use crate::topology::{Edges, Role};

    /// Nodes 0..n with the edges `edges` (parent, child).
    fn graph(n: u32, edges: &[(u32, u32)]) -> Vec<Node> {
        let mut nodes: Vec<Node> = (0..n)
            .map(|i| Node {
                obj_ref: ObjRef::new("", "Service", Some("ns"), &i.to_string()),
                role: Role::Backend,
                object: None,
                owner: None,
                parents: Edges::new(),
                children: Edges::new(),
            })
            .collect();
        for &(p, c) in edges {
            nodes[p as usize].children.push(NodeId(c));
            nodes[c as usize].parents.push(NodeId(p));
        }
        nodes
    }

    fn ids(v: &[u32]) -> Vec<NodeId> {
        v.iter().map(|&i| NodeId(i)).collect()
    }

    #[test]
    fn a_dag_has_no_cycle() {
        // A diamond and a tail: 0 → 1, 0 → 2, 1 → 3, 2 → 3, 3 → 4.
        assert!(find(&graph(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)])).is_empty());
    }

    #[test]
    fn each_cycle_is_named_from_where_the_walk_entered_it() {
        // A root leads into 1 → 2 → 3 → 1; apart, 4 ⇄ 5 with no root above.
        let nodes = graph(6, &[(0, 1), (1, 2), (2, 3), (3, 1), (4, 5), (5, 4)]);
        assert_eq!(find(&nodes), vec![ids(&[1, 2, 3]), ids(&[4, 5])]);
    }

    #[test]
    fn a_long_chain_closing_on_itself_costs_no_stack() {
        let n = 200_000;
        let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        edges.push((n - 1, 0));
        let cycles = find(&graph(n, &edges));
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].len(), n as usize);
    }
}
