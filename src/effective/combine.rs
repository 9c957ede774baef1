//! The fold of one context path: a policy read as it enters the fold (`Joining::new`;
//! the type is `joining`'s, shared with the merge models), the fold's state on a path
//! (`Acc`), and `push`, which adds more specific entries below a
//! state. How the entries combine is their kind's merge model's (`merge/`, one module
//! per model); how several on one target make one entry, its same-target rule's
//! (`same_target/`).
//!
//! An empty or missing stanza states no intent: it contributes nothing and never wipes
//! what others set.

use super::joining::{Joining, Layer};
use super::merge;
use super::sourced::Sourced;
use crate::catalog::policy::{spec_at_port, How, Intent, Mode};
use crate::catalog::{Entry, MergeModel};
use crate::model::{FastMap, Val};
use crate::topology::{NodeId, PolicyId, Role, Topology};

use std::rc::Rc;

impl Joining {
    pub(crate) fn new(topology: &Topology, p: PolicyId, at: NodeId, model: MergeModel) -> Joining {
        let policy = topology.policy(p);
        let written: &Val = &topology.object(policy.object).spec;
        // A kind whose spec lists settings per port: at a port, that port's entries only.
        let narrowed = match policy.spec_port_lists {
            [] => None,
            lists => topology
                .spec_port_at(p, at)
                .and_then(|port| spec_at_port(written, lists, port)),
        };
        let spec = narrowed.as_ref().unwrap_or(written);
        // Settings another kind's policy replaces here leave; the policy still counts
        // them among what it sets (`ShadowedBy`).
        let shadowed = merge::without_shadowed(topology, p, at, spec);
        let whole = spec;
        let spec = shadowed.as_ref().unwrap_or(spec);
        let layer = |how: How, settings| {
            let tree = Sourced::from_settings(settings, p)?;
            Some(Layer { how, value: tree })
        };
        let read = match &policy.intent {
            Intent::Stack {
                strategy,
                spec: stanza,
            } => {
                let one = layer(strategy.how, stanza.settings(spec));
                match strategy.mode {
                    Mode::Defaults => (one, None),
                    Mode::Overrides => (None, one),
                }
            }
            // GEP-2649's stanzas merge per field.
            Intent::Dual { default, overrides } => (
                layer(How::Patch, default.settings(spec)),
                layer(How::Patch, overrides.settings(spec)),
            ),
        };
        let narrowed = match (&shadowed, &narrowed) {
            (Some(_), _) => vec![(p, policy.intent.leaf_count(whole))],
            (None, Some(_)) => vec![(p, policy.intent.leaf_count(spec))],
            (None, None) => Vec::new(),
        };
        let (defaults, overrides) = merge::enters(model, topology, p, at, read);
        Joining {
            policies: vec![p],
            defaults,
            overrides,
            merges_into_parent: policy.merge_type.is_some(),
            route_level: route_level(topology.skeleton().role(at)),
            narrowed,
        }
    }
}

/// A policy attached at a node of this role attaches at a route level (a route or one
/// of its rules), where Envoy Gateway's `mergeType` passes over it.
fn route_level(role: Role) -> bool {
    match role {
        Role::Route | Role::Rule => true,
        Role::Namespace
        | Role::GatewayClass
        | Role::Gateway
        | Role::ListenerSet
        | Role::Listener
        | Role::Backend
        | Role::Port
        | Role::Pod => false,
    }
}

/// The fold's state on a path: the policies met so far and what they make together.
#[derive(Clone, Debug)]
pub(crate) struct Acc {
    /// The entries folded in, least specific first.
    entries: Vec<Rc<Joining>>,
    /// Their policies, least specific first.
    pub(crate) applied: Vec<PolicyId>,
    result: Rc<Sourced>,
    /// Policies a more specific one replaced whole here (Envoy Gateway's models), each
    /// with the policy that replaced it: Overridden here, even if they set nothing.
    replaced: Vec<(PolicyId, PolicyId)>,
    /// Past the levels a kind configures whole (`Flow::ClientSide`): how many of its
    /// settings each policy could set here, the fields that flow on; none: all of them.
    pub(crate) expected: Option<Rc<FastMap<PolicyId, usize>>>,
}

/// A state's identity while it is held: its address. The fold interns states by it
/// (`push` and `only` once per input state, contexts that arrive alike folded once,
/// each result measured once for statuses). A numbered arena would serve too, but
/// states are shared by `Rc` among the contexts of many nodes, between a fold and its
/// copy without one policy (`KindFold::without`), and with the callers that read
/// contexts: each would have to read a state through the fold that numbered it. An
/// address is a key only while the state is alive, so whoever keys by it keeps the
/// `Rc` with the key (in the map's value, or the context that holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct StateKey(std::ptr::NonNull<Acc>);

impl StateKey {
    pub(crate) fn of(acc: &Rc<Acc>) -> StateKey {
        StateKey(std::ptr::NonNull::from(&**acc))
    }
}

impl PartialEq for Acc {
    /// Two states with the same entries make the same result.
    fn eq(&self, other: &Self) -> bool {
        self.entries.len() == other.entries.len()
            && self
                .entries
                .iter()
                .zip(&other.entries)
                .all(|(a, b)| Rc::ptr_eq(a, b) || a == b)
    }
}

impl Acc {
    /// The effective spec proper.
    pub(crate) fn result(&self) -> Rc<Sourced> {
        self.result.clone()
    }

    /// The policy that replaced policy `p` whole here, if one did (Envoy Gateway's
    /// models: a more specific policy that does not merge into it).
    pub(crate) fn replaced_by(&self, policy: PolicyId) -> Option<PolicyId> {
        self.replaced
            .iter()
            .find(|&&(q, _)| q == policy)
            .map(|&(_, by)| by)
    }

    /// How many settings policy `p` could set here (`all`: its whole spec's count,
    /// unless only some of its fields flow this far).
    pub(crate) fn expected(&self, policy: PolicyId, all: usize) -> usize {
        self.expected
            .as_ref()
            .map_or(all, |e| e.get(&policy).copied().unwrap_or(all))
    }

    /// This state past the levels its kind configures whole: only the settings at
    /// the paths `keep` (`timeout/tcp`: keys from the spec's top level) of the
    /// effective result flow on (`Flow::ClientSide`), held by the policies that set
    /// them; None when none of them is set. What is below joins it as one entry, as
    /// it would the policy whose settings these are.
    pub(crate) fn only(&self, keep: &[&str]) -> Option<Rc<Acc>> {
        let result = at_paths(&self.result, keep, 0)?;
        let mut holds = FastMap::default();
        result.count_by_source(&mut holds);
        let applied: Vec<PolicyId> = self
            .applied
            .iter()
            .copied()
            .filter(|p| holds.contains_key(p))
            .collect();
        // What each of them sets in those fields, won or lost.
        let mut expected = FastMap::default();
        for e in &self.entries {
            for layer in [&e.defaults, &e.overrides].into_iter().flatten() {
                if let Some(kept) = at_paths(&layer.value, keep, 0) {
                    kept.count_by_source(&mut expected);
                }
            }
        }
        let entry = Joining {
            policies: applied.clone(),
            defaults: Some(Layer {
                how: How::Patch,
                value: result.clone(),
            }),
            overrides: None,
            merges_into_parent: false,
            route_level: false,
            narrowed: Vec::new(),
        };
        Some(Rc::new(Acc {
            entries: vec![Rc::new(entry)],
            applied,
            result,
            // Those replaced hold nothing here, so none of them flows on.
            replaced: Vec::new(),
            expected: Some(Rc::new(expected)),
        }))
    }
}

/// The parts of `tree` (the settings below `depth` keys of the spec) at the paths
/// `keep`, whole below a path's last key; None when it holds none of them.
fn at_paths(tree: &Rc<Sourced>, keep: &[&str], depth: usize) -> Option<Rc<Sourced>> {
    if keep.iter().any(|path| path.split('/').count() == depth) {
        return Some(tree.clone());
    }
    let Sourced::Object(fields) = &**tree else {
        return None;
    };
    let kept: Vec<_> = fields
        .iter()
        .filter_map(|(key, value)| {
            let deeper: Vec<&str> = keep
                .iter()
                .copied()
                .filter(|path| path.split('/').nth(depth) == Some(key.as_str()))
                .collect();
            match deeper.is_empty() {
                true => None,
                false => at_paths(value, &deeper, depth + 1).map(|v| (key.clone(), v)),
            }
        })
        .collect();
    (!kept.is_empty()).then(|| Rc::new(Sourced::Object(kept)))
}

/// The state `est` (none: nothing yet) with the more specific entries `es` (least
/// specific first) added below it: one fold, however many are added. (Each added
/// entry changes where the fold starts, so adding them one at a time would fold
/// everything again for each: ten thousand policies on one target would take ten
/// thousand folds of up to ten thousand joins.)
pub(crate) fn push(est: Option<&Acc>, es: &[Rc<Joining>], rules: &Entry) -> Rc<Acc> {
    let mut entries = est.map(|a| a.entries.clone()).unwrap_or_default();
    let mut expected = est.and_then(|a| a.expected.clone());
    // A policy read narrowed here can keep only what it sets here.
    if es.iter().any(|e| !e.narrowed.is_empty()) {
        let mut counts = expected.as_deref().cloned().unwrap_or_default();
        counts.extend(es.iter().flat_map(|e| e.narrowed.iter().copied()));
        expected = Some(Rc::new(counts));
    }
    entries.extend(es.iter().cloned());
    // From the most specific policy up, each joining as its kind's model says.
    let folded = merge::fold(rules, &entries);
    Rc::new(Acc {
        applied: entries
            .iter()
            .flat_map(|e| e.policies.iter().copied())
            .collect(),
        entries,
        result: folded.result,
        replaced: folded.replaced,
        expected,
    })
}

#[cfg(test)]
mod tests {
    //! The strategy table, one join at a time and on three levels.
    use super::*;
    use serde_json::{json, Value};

    fn entry(p: u32, mode: Mode, how: How, v: Value) -> Rc<Joining> {
        let p = PolicyId(p);
        let empty = v.as_object().is_some_and(|m| m.is_empty());
        let st = (!empty).then(|| Layer {
            how,
            value: Sourced::from_value(&crate::model::Val::from_value(v.clone()), p),
        });
        let (defaults, overrides) = match mode {
            Mode::Defaults => (st, None),
            Mode::Overrides => (None, st),
        };
        Rc::new(Joining {
            policies: vec![p],
            defaults,
            overrides,
            merges_into_parent: false,
            route_level: false,
            narrowed: Vec::new(),
        })
    }

    /// The rules of a policy kind with no vendor rule of its own but its merge model.
    fn rules(model: MergeModel) -> Entry {
        Entry {
            merge: model,
            ..Entry::INHERITED
        }
    }

    /// Folds entries given least specific first.
    fn fold(entries: &[Rc<Joining>], model: MergeModel) -> Value {
        let mut acc: Option<Rc<Acc>> = None;
        for e in entries {
            acc = Some(push(acc.as_deref(), std::slice::from_ref(e), &rules(model)));
        }
        acc.map(|a| a.result().to_value()).unwrap_or(Value::Null)
    }

    const GEP: MergeModel = MergeModel::Gep713 { rule_paths: &[] };
    use How::*;
    use Mode::*;

    #[test]
    fn the_established_policy_dictates_the_strategy_on_two_levels() {
        let est = json!({"a": 1, "n": {"x": 1, "y": 1}});
        let chal = json!({"b": 2, "n": {"x": 2}});
        let cases = [
            (Defaults, Atomic, json!({"b": 2, "n": {"x": 2}})),
            (Overrides, Atomic, json!({"a": 1, "n": {"x": 1, "y": 1}})),
            (
                Defaults,
                Patch,
                json!({"a": 1, "n": {"x": 2, "y": 1}, "b": 2}),
            ),
            (
                Overrides,
                Patch,
                json!({"b": 2, "n": {"x": 1, "y": 1}, "a": 1}),
            ),
            (Defaults, Merge, json!({"a": 1, "n": {"x": 2}, "b": 2})),
            (
                Overrides,
                Merge,
                json!({"a": 1, "n": {"x": 1, "y": 1}, "b": 2}),
            ),
        ];
        for (mode, how, want) in cases {
            let got = fold(
                &[
                    entry(0, mode, how, est.clone()),
                    entry(1, Defaults, Atomic, chal.clone()),
                ],
                GEP,
            );
            assert_eq!(got, want, "{mode:?} {how:?}");
        }
    }

    #[test]
    fn an_override_holds_against_everything_below_it() {
        // Gateway override, route default, rule default: the Gateway's override wins at
        // the rule (the literal stack process would let the rule's default win).
        let got = fold(
            &[
                entry(0, Overrides, Atomic, json!({"t": "gateway"})),
                entry(1, Defaults, Atomic, json!({"t": "route"})),
                entry(2, Defaults, Atomic, json!({"t": "rule"})),
            ],
            GEP,
        );
        assert_eq!(got, json!({"t": "gateway"}));
    }

    #[test]
    fn gep_2649_order_on_three_levels() {
        // A override > B override > C override > C default > B default > A default,
        // each field set by the highest-ranked stanza that sets it.
        let a_d = entry(
            0,
            Defaults,
            Patch,
            json!({"f1": "Ad", "f2": "Ad", "f3": "Ad"}),
        );
        let a_o = entry(1, Overrides, Patch, json!({"f6": "Ao"}));
        let b_d = entry(
            2,
            Defaults,
            Patch,
            json!({"f2": "Bd", "f3": "Bd", "f5": "Bd"}),
        );
        let b_o = entry(3, Overrides, Patch, json!({"f5": "Bo", "f6": "Bo"}));
        let c_d = entry(4, Defaults, Patch, json!({"f3": "Cd", "f4": "Cd"}));
        let c_o = entry(
            5,
            Overrides,
            Patch,
            json!({"f4": "Co", "f5": "Co", "f6": "Co"}),
        );
        let got = fold(&[a_d, a_o, b_d, b_o, c_d, c_o], GEP);
        assert_eq!(
            got,
            json!({"f1": "Ad", "f2": "Bd", "f3": "Cd", "f4": "Co", "f5": "Bo", "f6": "Ao"})
        );
    }

    #[test]
    fn an_empty_stanza_contributes_nothing() {
        let rules = json!({"r1": "a", "r2": "b"});
        for how in [Atomic, Patch, Merge] {
            for mode in [Defaults, Overrides] {
                // Above or below, an empty policy leaves the other's rules as they are.
                let above = fold(
                    &[
                        entry(0, mode, how, json!({})),
                        entry(1, Defaults, how, rules.clone()),
                    ],
                    GEP,
                );
                assert_eq!(above, rules, "empty {mode:?} {how:?} above");
                let below = fold(
                    &[
                        entry(0, Defaults, how, rules.clone()),
                        entry(1, mode, how, json!({})),
                    ],
                    GEP,
                );
                assert_eq!(below, rules, "empty {mode:?} {how:?} below");
            }
        }
    }

    #[test]
    fn a_parent_default_and_a_child_override_make_their_union() {
        let got = fold(
            &[
                entry(0, Defaults, Patch, json!({"a": 1})),
                entry(1, Overrides, Patch, json!({"b": 2})),
            ],
            GEP,
        );
        assert_eq!(got, json!({"a": 1, "b": 2}));
    }

    #[test]
    fn envoy_a_policy_without_merge_type_replaces_everything_above_it() {
        // Listener policy, route policy with mergeType, rule policy without: on the
        // rule only the rule's policy applies (EG's section-merged e2e test).
        let model = MergeModel::EnvoyMergeType;
        let listener = entry(0, Defaults, Atomic, json!({"responseOverride": [500]}));
        let mut route = (*entry(1, Defaults, Atomic, json!({"fault": 418}))).clone();
        route.merges_into_parent = true;
        let rule = entry(2, Defaults, Atomic, json!({"fault": 419}));
        let route = Rc::new(route);
        assert_eq!(
            fold(&[listener.clone(), route.clone()], model),
            json!({"responseOverride": [500], "fault": 418})
        );
        assert_eq!(fold(&[listener, route, rule], model), json!({"fault": 419}));
    }

    #[test]
    fn envoy_merge_type_merges_into_the_nearest_parent_only() {
        let model = MergeModel::EnvoyMergeType;
        let gw = entry(0, Defaults, Atomic, json!({"timeout": "10s", "retries": 3}));
        let mut route = (*entry(1, Defaults, Atomic, json!({"timeout": "5s"}))).clone();
        assert_eq!(
            fold(&[gw.clone(), Rc::new(route.clone())], model),
            json!({"timeout": "5s"}),
            "without mergeType the route's policy replaces the Gateway's"
        );
        route.merges_into_parent = true;
        assert_eq!(
            fold(&[gw, Rc::new(route)], model),
            json!({"timeout": "5s", "retries": 3})
        );
    }

    #[test]
    fn envoy_records_each_policy_a_more_specific_one_replaces_whole() {
        let gw = entry(0, Defaults, Atomic, json!({}));
        let route = entry(1, Defaults, Atomic, json!({}));
        let mut merging = (*route).clone();
        merging.merges_into_parent = true;
        let merging = Rc::new(merging);
        let (gw_id, route_id) = (PolicyId(0), PolicyId(1));
        let acc = push(
            None,
            &[gw.clone(), route.clone()],
            &rules(MergeModel::EnvoyMergeType),
        );
        assert_eq!(acc.replaced_by(gw_id), Some(route_id), "both empty");
        assert_eq!(acc.replaced_by(route_id), None);
        let acc = push(
            None,
            &[gw.clone(), merging.clone()],
            &rules(MergeModel::EnvoyMergeType),
        );
        assert_eq!(acc.replaced_by(gw_id), None, "merged into, not replaced");
        // A kind without mergeType reads none.
        let acc = push(
            None,
            &[gw.clone(), merging],
            &rules(MergeModel::MostSpecificReplaces),
        );
        assert_eq!(acc.replaced_by(gw_id), Some(route_id));
        // The models that merge replace nothing whole: their policies lose setting by
        // setting.
        let acc = push(None, &[gw, route], &rules(MergeModel::MostSpecificWins));
        assert_eq!(acc.replaced_by(gw_id), None);
    }
}
