//! The hierarchy's edges in compact form, for the walks that visit every node (the
//! folds, what each policy kind may reach). A `Node` holds its names and its edges
//! in about a hundred bytes; these walks read only the edges, the owner and the
//! namespace level, and on a large cluster reading them from the nodes is reading
//! more than the processor's cache holds.

use super::{Node, NodeId, Role};
use crate::model::FastMap;

/// Per node, a list of nodes: every list one after another in `to`, node `n`'s from
/// `from[n]` to `from[n + 1]`.
#[derive(Clone, Debug, Default)]
struct Lists {
    from: Vec<u32>,
    to: Vec<NodeId>,
}

impl Lists {
    fn of<'a>(nodes: &'a [Node], list: impl Fn(&'a Node) -> &'a [NodeId]) -> Lists {
        let mut from = Vec::with_capacity(nodes.len() + 1);
        let mut to = Vec::with_capacity(nodes.iter().map(|n| list(n).len()).sum());
        from.push(0);
        for n in nodes {
            to.extend_from_slice(list(n));
            from.push(to.len() as u32);
        }
        Lists { from, to }
    }

    fn get(&self, node: NodeId) -> &[NodeId] {
        let i = node.index();
        &self.to[self.from[i] as usize..self.from[i + 1] as usize]
    }
}

/// No owner, or no namespace level, in `Skeleton`'s per-node numbers.
const NONE: u32 = u32::MAX;

/// A namespace that is the namespace level of at least one node: an index into
/// `Skeleton::namespaces`.
pub(crate) type LevelId = u32;

/// Parents, children, owner and namespace level of every node, as 32-bit numbers in
/// a few arrays. Made from the nodes once they are final (`Skeleton::of`).
#[derive(Clone, Debug, Default)]
pub struct Skeleton {
    parents: Lists,
    children: Lists,
    owner: Vec<u32>,
    level: Vec<LevelId>,
    /// Each node's role, a byte each: the folds ask it of every node.
    role: Vec<Role>,
    /// The namespaces that are some node's level, by number.
    namespaces: Vec<String>,
    /// Every number, in the order of its namespace's name (for `level_of`).
    by_name: Vec<LevelId>,
}

impl Skeleton {
    /// One pass over the nodes. Namespaces are numbered as they come: nodes of one
    /// namespace mostly come together, so most nodes cost one comparison with the last.
    pub(crate) fn of(nodes: &[Node]) -> Skeleton {
        let mut owner = Vec::with_capacity(nodes.len());
        let mut level = Vec::with_capacity(nodes.len());
        let role: Vec<Role> = nodes.iter().map(|n| n.role).collect();
        let mut numbers: FastMap<&str, LevelId> = FastMap::default();
        let mut namespaces: Vec<&str> = Vec::new();
        let mut last: Option<(&str, LevelId)> = None;
        for n in nodes {
            owner.push(n.owner.map_or(NONE, |o| o.0));
            let l = match (n.namespace_level(), last) {
                (None, _) => NONE,
                (Some(ns), Some((name, l))) if name == ns => l,
                (Some(ns), _) => {
                    let l = *numbers.entry(ns).or_insert_with(|| {
                        namespaces.push(ns);
                        (namespaces.len() - 1) as LevelId
                    });
                    last = Some((ns, l));
                    l
                }
            };
            level.push(l);
        }
        let mut by_name: Vec<LevelId> = (0..namespaces.len() as LevelId).collect();
        by_name.sort_unstable_by_key(|&l| namespaces[l as usize]);
        Skeleton {
            parents: Lists::of(nodes, |n| &n.parents),
            children: Lists::of(nodes, |n| &n.children),
            owner,
            level,
            role,
            namespaces: namespaces.into_iter().map(str::to_owned).collect(),
            by_name,
        }
    }

    /// What node `n` stands for (`Node::role`).
    pub fn role(&self, node: NodeId) -> Role {
        self.role[node.index()]
    }

    pub fn parents(&self, node: NodeId) -> &[NodeId] {
        self.parents.get(node)
    }

    pub fn children(&self, node: NodeId) -> &[NodeId] {
        self.children.get(node)
    }

    /// For a section, the node of the object it belongs to.
    pub fn owner(&self, node: NodeId) -> Option<NodeId> {
        let o = self.owner[node.index()];
        (o != NONE).then_some(NodeId(o))
    }

    /// The object a node is or belongs to.
    pub fn object(&self, node: NodeId) -> NodeId {
        self.owner(node).unwrap_or(node)
    }

    /// The namespace level above a node (`Topology::namespace_level`), by number.
    pub fn level(&self, node: NodeId) -> Option<LevelId> {
        let l = self.level[node.index()];
        (l != NONE).then_some(l)
    }

    /// The number of namespace `ns` if it is some node's level.
    pub fn level_of(&self, ns: &str) -> Option<LevelId> {
        let name = |&l: &LevelId| self.namespaces[l as usize].as_str();
        let i = self.by_name.binary_search_by(|l| name(l).cmp(ns));
        i.ok().map(|i| self.by_name[i])
    }

    /// How many namespaces are some node's level (every `LevelId` is below it).
    pub fn levels(&self) -> usize {
        self.namespaces.len()
    }
}
