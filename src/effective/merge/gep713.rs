//! `MergeModel::Gep713`: GEP-713 as written. A policy says `defaults` or `overrides`,
//! each with an optional `strategy: atomic|patch|merge` (a bare spec is Atomic
//! Defaults; GEP-2649's older `default:`/`override:` stanzas merge per field, read in
//! `catalog::policy::intent`). Folding a path from its most specific policy upwards,
//! each policy joins what the levels below it set with its own strategy: its defaults
//! fill in what they leave unset, its overrides replace what they set (GEP-713 §"Merge
//! strategies"; the order of GEP-2649). `merge` is keyed by the entries under the
//! model's `rule_paths`; elsewhere each top-level field is one rule (Kuadrant's
//! policies). The other models without a rule of their own fold as this one does, each
//! with the one strategy its policies are read with.
//!
//! Each policy on a path relates to everything below it (more specific) by its own
//! strategy, so folding from the most specific upwards gives GEP-2649's order
//! (A override > B override > C override > C default > B default > A default), which is
//! also how the GEP-713 memorandum authors' reference code folds (policy-machinery: the
//! less specific policy is the established one and dictates the strategy as it joins).
//! `../shared/spec/README.md` records why this is preferred over reading the abstract
//! process literally (which would let a rule default beat a Gateway override whenever a
//! route default sits between them).

use crate::catalog::policy::How;
use crate::effective::joining::Layer;
use crate::effective::sourced::{merge_patch, merge_rules, merge_rules_run, Run, Sourced};
use crate::effective::Joining;
use std::rc::Rc;

/// The spec the entries of a path make (least specific first): from the most specific
/// up, each joining with its own strategy.
pub(super) fn fold(entries: &[Rc<Joining>], rule_paths: &[&str]) -> Rc<Sourced> {
    let mut result = Rc::new(Sourced::Object(Vec::new()));
    // `entries[..left]` are yet to join.
    let mut left = entries.len();
    while left > 0 {
        // A run of entries that each merge their rules under what is below them
        // (Kuadrant's `strategy: merge` defaults, many on one target) joins in one pass.
        let prefers = |e: &Joining| merges_rules(e).map(|(prefer_below, _)| prefer_below);
        let run = prefers(&entries[left - 1]);
        let from = entries[..left]
            .iter()
            .rposition(|e| run.is_none() || prefers(e) != run)
            .map_or(0, |j| j + 1);
        if let (Some(prefer_below), 2..) = (run, left - from) {
            let mut rules: Vec<&Rc<Sourced>> = entries[from..left]
                .iter()
                .filter_map(|e| merges_rules(e).map(|(_, rules)| rules))
                .collect();
            if !result.is_empty() {
                rules.push(&result);
            }
            let run = if prefer_below {
                Run::PreferLast
            } else {
                Run::PreferFirst
            };
            result = merge_rules_run(&rules, run, rule_paths);
            left = from;
            continue;
        }
        result = join(&entries[left - 1], result, rule_paths);
        left -= 1;
    }
    result
}

/// If this entry joins only by merging its rules with what is below it (a
/// `strategy: merge` default, or override): whether what is below wins a rule both
/// set, and its rules. A run of entries alike is one merge of all their rules
/// (`merge_rules_run`).
fn merges_rules(entry: &Joining) -> Option<(bool, &Rc<Sourced>)> {
    if entry.merges_into_parent {
        return None;
    }
    match (&entry.defaults, &entry.overrides) {
        (Some(defaults), None) if defaults.how == How::Merge => Some((true, &defaults.value)),
        (None, Some(overrides)) if overrides.how == How::Merge => Some((false, &overrides.value)),
        _ => None,
    }
}

/// `entry` joining what the levels below it set (`below`, empty when nothing).
fn join(entry: &Joining, below: Rc<Sourced>, rule_paths: &[&str]) -> Rc<Sourced> {
    let mut joined = below;
    if let Some(defaults) = &entry.defaults {
        joined = join_defaults(defaults, joined, rule_paths);
    }
    if let Some(overrides) = &entry.overrides {
        joined = join_overrides(overrides, joined, rule_paths);
    }
    joined
}

/// `defaults` under what the levels below set: they fill in what is unset, by their
/// strategy.
pub(super) fn join_defaults(
    defaults: &Layer,
    below: Rc<Sourced>,
    rule_paths: &[&str],
) -> Rc<Sourced> {
    if below.is_empty() {
        return defaults.value.clone();
    }
    match defaults.how {
        How::Atomic => below,
        How::Patch => merge_patch(&defaults.value, &below),
        How::Merge => merge_rules(&defaults.value, &below, true, rule_paths),
    }
}

/// `overrides` over what the levels below set: they replace what is set, by their
/// strategy.
pub(super) fn join_overrides(
    overrides: &Layer,
    below: Rc<Sourced>,
    rule_paths: &[&str],
) -> Rc<Sourced> {
    if below.is_empty() {
        return overrides.value.clone();
    }
    match overrides.how {
        How::Atomic => overrides.value.clone(),
        How::Patch => merge_patch(&below, &overrides.value),
        How::Merge => merge_rules(&overrides.value, &below, false, rule_paths),
    }
}
