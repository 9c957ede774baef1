//! What a fold memoises across walks: each group of policies as it enters the fold
//! (an entry, numbered), each state with entries pushed onto it, and each state
//! narrowed past the client side. Nodes that share a parent's state and the same
//! entries share the result, so a state is made once however many nodes reach it.

use super::config::FoldConfig;
use crate::effective::combine::{self, StateKey};
use crate::effective::same_target;
use crate::effective::{Acc, Joining};
use crate::model::FastMap;
use crate::topology::{NodeId, PolicyId};
use smallvec::SmallVec;
use std::rc::Rc;

/// Policies that apply together at one place (most often one), held inline: looking
/// one up allocates nothing.
pub(super) type Group = SmallVec<[PolicyId; 2]>;

/// An entry (`FoldMemo::entry`): its index among the entries a fold has made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct EntryId(u32);

/// Entries pushed at once (most often one or two, held inline).
pub(super) type Entries = SmallVec<[EntryId; 2]>;

/// A state with entries pushed onto it (none: onto nothing), and the entries.
type PushKey = (Option<StateKey>, Entries);

/// The input state of `PushKey` (kept so that its key stays its identity), and the
/// state pushing made.
type Pushed = (Option<Rc<Acc>>, Rc<Acc>);

/// The memo of one kind's fold.
#[derive(Default)]
pub(super) struct FoldMemo {
    /// Every entry made, by `EntryId`.
    entries: Vec<Rc<Joining>>,
    /// The entry of each group of policies (at a place, when entries differ by place).
    entry_ids: FastMap<(Group, Option<NodeId>), EntryId>,
    /// The state made by pushing entries onto a state.
    pushed: FastMap<PushKey, Pushed>,
    /// States narrowed past the client side (`only`), with the input state likewise.
    narrowed: FastMap<StateKey, (Rc<Acc>, Option<Rc<Acc>>)>,
}

impl FoldMemo {
    /// The policies `ps` (one, or several merged on one target) as they enter the fold
    /// at `at`. Only kgateway's merge depends on where (the annotation on the parent
    /// object), and a spec that lists settings per port (each port its own entries);
    /// any other entry is the same everywhere.
    pub(super) fn entry(&mut self, config: &FoldConfig, ps: Group, at: NodeId) -> EntryId {
        let key = (ps, config.entries_by_place.then_some(at));
        if let Some(&id) = self.entry_ids.get(&key) {
            return id;
        }
        let (t, model) = (config.topology, config.rules.merge);
        let e = match key.0[..] {
            [p] => Joining::new(t, p, at, model),
            _ => {
                let each: Vec<Joining> = key
                    .0
                    .iter()
                    .map(|&p| Joining::new(t, p, at, model))
                    .collect();
                same_target::merged(config.rules.same_target, &each, model.rule_paths())
            }
        };
        let id = EntryId(self.entries.len() as u32);
        self.entries.push(Rc::new(e));
        self.entry_ids.insert(key, id);
        id
    }

    /// `combine::push`, once per (state, entries): nodes that share a parent's state
    /// and the same entries share the result too (a namespace's policy meets the same
    /// Gateway state at every route of the namespace).
    pub(super) fn push(
        &mut self,
        config: &FoldConfig,
        acc: Option<Rc<Acc>>,
        es: &[EntryId],
    ) -> Rc<Acc> {
        let key = (acc.as_ref().map(StateKey::of), Entries::from_slice(es));
        if let Some((_, pushed)) = self.pushed.get(&key) {
            return pushed.clone();
        }
        let joinings: SmallVec<[Rc<Joining>; 2]> = es
            .iter()
            .map(|e| self.entries[e.0 as usize].clone())
            .collect();
        let pushed = combine::push(acc.as_deref(), &joinings, config.rules);
        self.pushed.insert(key, (acc, pushed.clone()));
        pushed
    }

    /// The state made of the policies attached to `n` alone (none: it has none).
    pub(super) fn own_policies(&mut self, config: &FoldConfig, node: NodeId) -> Option<Rc<Acc>> {
        let groups = config.node_policies_at(node);
        if groups.is_empty() {
            return None;
        }
        let es: Entries = groups
            .iter()
            .map(|g| self.entry(config, Group::from_slice(g), node))
            .collect();
        Some(self.push(config, None, &es))
    }

    /// `acc` with only the fields `keep` (`Acc::only`), once per state: contexts that
    /// share a state share the narrowed one.
    pub(super) fn only(&mut self, acc: Rc<Acc>, keep: &[&str]) -> Option<Rc<Acc>> {
        let key = StateKey::of(&acc);
        if let Some((_, narrowed)) = self.narrowed.get(&key) {
            return narrowed.clone();
        }
        let narrowed = acc.only(keep);
        self.narrowed.insert(key, (acc, narrowed.clone()));
        narrowed
    }
}
