//! One step of GEP-713's stack process: the accumulated (established) policy meets
//! the next, more specific (challenger) one. The established side dictates the
//! strategy; the result carries the challenger's strategy onward.

use super::tree::{merge_patch, merge_rules, Tree};
use crate::catalog::policy::{How, Intent, Mode, Strategy};
use crate::catalog::MergeModel;
use crate::topology::{NodeId, PolicyId, Topology};

use std::rc::Rc;

/// A policy as it enters the fold at one attachment point.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub policy: PolicyId,
    pub shape: Shape,
    pub strategy: Strategy,
    /// Envoy Gateway: the challenger's `mergeType` decides whether it merges.
    pub merges_into_parent: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Stack(Rc<Tree>),
    /// GEP-2649 stanzas: defaults and overrides, merged per field.
    Dual {
        default: Rc<Tree>,
        overrides: Rc<Tree>,
    },
}

/// The kgateway annotation that picks the merge on the parent object.
pub const KGATEWAY_PRIORITY: &str = "kgateway.dev/inherited-policy-priority";

impl Entry {
    pub fn new(t: &Topology, p: PolicyId, at: NodeId, model: MergeModel) -> Entry {
        let policy = &t.policies[p];
        let spec = &t.snapshot.objects[policy.object].spec;
        let (shape, mut strategy) = match &policy.intent {
            Intent::Stack { strategy, spec: s } => {
                let tree = Tree::from_settings(s.settings(spec), p);
                let tree = if model == MergeModel::Accumulated {
                    // Side by side: each policy's spec under its own name.
                    Rc::new(Tree::Object(vec![(policy.obj_ref.ns_name(), tree)]))
                } else {
                    tree
                };
                (Shape::Stack(tree), *strategy)
            }
            Intent::Dual { default, overrides } => (
                Shape::Dual {
                    default: Tree::from_settings(default.settings(spec), p),
                    overrides: Tree::from_settings(overrides.settings(spec), p),
                },
                Strategy::ATOMIC_DEFAULTS,
            ),
        };
        if model == MergeModel::KgatewayPriority {
            // The annotation sits on the object the policy is attached to (the parent
            // whose policies flow down); its absence means ShallowMergePreferChild.
            let owner = t.nodes.get(at).and_then(|n| n.owner).unwrap_or(at);
            let annotation = t
                .nodes
                .get(owner)
                .and_then(|n| n.object)
                .and_then(|o| t.snapshot.objects[o].annotations.get(KGATEWAY_PRIORITY))
                .map(String::as_str);
            strategy = match annotation {
                Some("ShallowMergePreferParent") => Strategy {
                    mode: Mode::Overrides,
                    how: How::Merge,
                },
                Some("DeepMergePreferChild") => Strategy {
                    mode: Mode::Defaults,
                    how: How::Patch,
                },
                Some("DeepMergePreferParent") => Strategy {
                    mode: Mode::Overrides,
                    how: How::Patch,
                },
                _ => Strategy {
                    mode: Mode::Defaults,
                    how: How::Merge,
                },
            };
        }
        Entry {
            policy: p,
            shape,
            strategy,
            merges_into_parent: policy.merge_type.is_some(),
        }
    }
}

/// The fold's running result.
#[derive(Clone, Debug, PartialEq)]
pub struct Acc {
    pub shape: Shape,
    /// The strategy the accumulated policy carries (its last challenger's).
    pub strategy: Strategy,
    /// Policies folded in, least specific first.
    pub applied: Vec<PolicyId>,
}

impl Acc {
    /// The effective spec proper.
    pub fn result(&self) -> Rc<Tree> {
        match &self.shape {
            Shape::Stack(t) => t.clone(),
            // Overrides top-down beat defaults bottom-up, field by field (GEP-2649).
            Shape::Dual { default, overrides } => merge_patch(default, overrides),
        }
    }
}

fn empty() -> Rc<Tree> {
    Rc::new(Tree::Object(Vec::new()))
}

/// Pushes the challenger `e` onto the accumulated `est` (None: `e` is the first).
pub fn push(est: Option<&Acc>, e: &Entry, model: MergeModel) -> Rc<Acc> {
    let Some(est) = est else {
        return Rc::new(Acc {
            shape: e.shape.clone(),
            strategy: e.strategy,
            applied: vec![e.policy],
        });
    };
    let mut applied = est.applied.clone();
    applied.push(e.policy);
    let shape = match (&est.shape, &e.shape) {
        (Shape::Stack(a), Shape::Stack(b)) => {
            Shape::Stack(combine_stack(a, est.strategy, b, e, model))
        }
        _ => {
            let (ad, ao) = split(&est.shape, est.strategy);
            let (bd, bo) = split(&e.shape, e.strategy);
            Shape::Dual {
                // More specific defaults win; less specific overrides win.
                default: merge_patch(&ad, &bd),
                overrides: merge_patch(&bo, &ao),
            }
        }
    };
    Rc::new(Acc {
        shape,
        strategy: e.strategy,
        applied,
    })
}

fn split(shape: &Shape, strategy: Strategy) -> (Rc<Tree>, Rc<Tree>) {
    match shape {
        Shape::Dual { default, overrides } => (default.clone(), overrides.clone()),
        Shape::Stack(t) if strategy.mode == Mode::Overrides => (empty(), t.clone()),
        Shape::Stack(t) => (t.clone(), empty()),
    }
}

fn combine_stack(
    est: &Rc<Tree>,
    strategy: Strategy,
    chal: &Rc<Tree>,
    e: &Entry,
    model: MergeModel,
) -> Rc<Tree> {
    match model {
        MergeModel::EnvoyMergeType => {
            if e.merges_into_parent {
                merge_patch(est, chal)
            } else {
                chal.clone()
            }
        }
        MergeModel::Accumulated => merge_rules(est, chal, true, &[]),
        MergeModel::Gep713 { rule_paths } => by_strategy(est, strategy, chal, rule_paths),
        MergeModel::KgatewayPriority => by_strategy(est, strategy, chal, &[]),
        MergeModel::None | MergeModel::MostSpecificWins | MergeModel::PatchDefaults => {
            by_strategy(est, strategy, chal, &[])
        }
    }
}

/// GEP-713's strategies, dictated by the established side.
fn by_strategy(
    est: &Rc<Tree>,
    strategy: Strategy,
    chal: &Rc<Tree>,
    rule_paths: &[&str],
) -> Rc<Tree> {
    match (strategy.how, strategy.mode) {
        // A challenger that sets nothing has no opinion to win with.
        (How::Atomic, Mode::Defaults) if chal.is_empty() => est.clone(),
        (How::Atomic, Mode::Defaults) => chal.clone(),
        (How::Atomic, Mode::Overrides) => est.clone(),
        (How::Patch, Mode::Defaults) => merge_patch(est, chal),
        (How::Patch, Mode::Overrides) => merge_patch(chal, est),
        (How::Merge, Mode::Defaults) => merge_rules(est, chal, true, rule_paths),
        (How::Merge, Mode::Overrides) => merge_rules(est, chal, false, rule_paths),
    }
}
