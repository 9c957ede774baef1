//! Which namespaces an answer about some objects can depend on, the objects being all in
//! hand: linked whole, so the result only ever errs on the wide side.

use crate::model::NamespaceLinks;
use std::collections::{BTreeSet, HashMap};

/// Every namespace an answer about `starts` can depend on, the objects being all in
/// hand (`links` are theirs): the namespaces below the starts (where their
/// descendants may live), then every namespace above those (where the ancestors of
/// any of them may live). Namespaces are linked whole, so the result only ever errs
/// on the wide side.
pub(crate) fn namespace_closure(
    links: &NamespaceLinks,
    starts: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut down: HashMap<&str, Vec<&str>> = HashMap::new();
    for (child, parents) in links.parents() {
        for parent in parents {
            down.entry(parent).or_default().push(child);
        }
    }
    let below = reach(starts, |ns| down.get(ns).cloned().unwrap_or_default());
    reach(&below, |ns| links.parents_of(ns).collect())
}

/// `starts` and the namespaces below them: where their descendants may live.
pub(crate) fn namespaces_below(
    links: &NamespaceLinks,
    starts: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut down: HashMap<&str, Vec<&str>> = HashMap::new();
    for (child, parents) in links.parents() {
        for parent in parents {
            down.entry(parent).or_default().push(child);
        }
    }
    reach(starts, |ns| down.get(ns).cloned().unwrap_or_default())
}

/// `from` and every namespace `next` leads to from them, and on.
fn reach<'l>(from: &BTreeSet<String>, next: impl Fn(&str) -> Vec<&'l str>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = from.iter().cloned().collect();
    while let Some(ns) = stack.pop() {
        if !seen.contains(&ns) {
            stack.extend(next(&ns).into_iter().map(str::to_string));
            seen.insert(ns);
        }
    }
    seen
}
