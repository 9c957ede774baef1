//! The fold of one policy kind over a whole topology, computed on demand: each node's
//! contexts (every root→node path, grouped where they fold alike) and the state of
//! the kind's policies along each.
//!
//! A `KindFold` is three parts, each with one job, and each function takes the part
//! it needs:
//! - `config` (`FoldConfig`): what the fold is configured with: the kind, its rules,
//!   the topology it reads, and the attachment index (which of its policies enter at
//!   each node and namespace level). Made once, then only read.
//! - `memo` (`FoldMemo`): what it memoises across walks: entries, and states made by
//!   pushing entries or narrowing, once per input.
//! - `walk` (`FoldWalk`): what its walks hold: the contexts computed so far, their
//!   links to their parents' contexts, and one walk's scratch.
//!
//! `paths` reads the paths back (a fold whose type keeps them, `WithPaths`).

mod config;
mod memo;
mod paths;
mod walk;

pub use config::FoldConfig;
pub use paths::EffectiveGroup;
pub(crate) use paths::PathStep;
pub use walk::Ctx;

use memo::FoldMemo;
use walk::FoldWalk;

use crate::model::GroupKind;
use crate::topology::{NodeId, PolicyId, Topology};

/// Which links a fold keeps, as its type says: `WithPaths` (every context's, read by
/// `KindFold::paths`) or `NoPaths` (a backend's alone: statuses and counts).
pub trait Paths {
    /// Every context's links are kept.
    const KEPT: bool;
}

/// A fold whose contexts' paths can be read (`KindFold::new`).
pub struct WithPaths;

/// A fold for statuses and counts, which reads no paths (`KindFold::for_statuses`).
pub struct NoPaths;

impl Paths for WithPaths {
    const KEPT: bool = true;
}

impl Paths for NoPaths {
    const KEPT: bool = false;
}

/// The fold for one policy kind over the whole topology, computed on demand.
pub struct KindFold<'t, P: Paths = WithPaths> {
    config: FoldConfig<'t>,
    memo: FoldMemo,
    walk: FoldWalk<P>,
}

impl<'t> KindFold<'t> {
    pub fn new(topology: &'t Topology, kind: &GroupKind) -> KindFold<'t> {
        Self::with(FoldConfig::new(topology, kind, None))
    }

    /// The fold as it would be if policy `removed` did not exist. Only nodes at or below
    /// where `removed` attaches can differ (`below[n]`); every other node's contexts are
    /// shared with `self`, not recomputed.
    pub(crate) fn without(&self, removed: PolicyId, below: &[bool]) -> KindFold<'t> {
        let c = &self.config;
        KindFold {
            config: FoldConfig::new(c.topology, &c.kind, Some(removed)),
            memo: FoldMemo::default(),
            walk: self.walk.without(below),
        }
    }

    /// Policy kinds that have at least one policy in the topology.
    pub(crate) fn kinds_in_use(topology: &Topology) -> Vec<GroupKind> {
        // A few kinds among tens of thousands of policies: each is looked for among
        // those found so far, not every policy's kind sorted.
        let mut kinds: Vec<GroupKind> = Vec::new();
        for p in topology.policies() {
            if !kinds.contains(&p.kind) {
                kinds.push(p.kind.clone());
            }
        }
        kinds.sort();
        kinds
    }
}

impl<'t> KindFold<'t, NoPaths> {
    /// `new`, for the folds that ask only for contexts and their states (statuses,
    /// counts): no `paths` (a `KindFold<NoPaths>` has none). The links from a context
    /// to its parents' are kept only where the port check reads them (a backend's, for
    /// its ports): on a large cluster the rest are megabytes per kind, and kinds fold
    /// two at a time.
    pub(crate) fn for_statuses(topology: &'t Topology, kind: &GroupKind) -> KindFold<'t, NoPaths> {
        Self::with(FoldConfig::new(topology, kind, None))
    }
}

impl<'t, P: Paths> KindFold<'t, P> {
    fn with(config: FoldConfig<'t>) -> KindFold<'t, P> {
        KindFold {
            config,
            memo: FoldMemo::default(),
            walk: FoldWalk::new(),
        }
    }

    /// What the fold is configured with: its kind, the kind's rules, the topology, and
    /// where its policies attach.
    pub(crate) fn config(&self) -> &FoldConfig<'t> {
        &self.config
    }

    /// The policies that lost to an older one of the kind on the same target, taken
    /// out of the fold (the contexts do not read them).
    pub(crate) fn take_conflicts(&mut self) -> Vec<crate::topology::Conflict> {
        std::mem::take(&mut self.config.conflicts)
    }

    /// Where policies of this kind enter the fold (`FoldConfig::starts`).
    pub(crate) fn starts(&self) -> Vec<NodeId> {
        self.config.starts()
    }

    /// The contexts of node `n`: every root→n path, grouped where they fold alike.
    pub(crate) fn contexts(&mut self, node: NodeId) -> &[Ctx] {
        let range = self.walk.compute(&self.config, &mut self.memo, node);
        self.walk.slice(range)
    }
}
