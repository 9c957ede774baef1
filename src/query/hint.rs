//! "Did you mean": the nearest known words to one that names nothing, by edit distance
//! (Levenshtein, as cobra suggests commands), among the words in scope.

use super::names::{self, TypeSet};
use super::World;
use crate::model::{resource_plural, GroupKind};

/// How many suggestions at most.
const MOST: usize = 3;

/// The candidates nearest to `word` (case ignored), those at the least distance, by name; none
/// farther than a third of the word's length (at least 2 edits), so that a hint is a
/// likely slip and not a guess.
pub(crate) fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let word = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case(&word))
        .map(|c| (strsim::levenshtein(&word, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    // Only the nearest: one slip away beats two.
    let best = scored.first().map_or(0, |(d, _)| *d);
    scored
        .into_iter()
        .take_while(|(d, _)| *d == best)
        .take(MOST)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// ` (did you mean a, b or c?)`, or nothing.
pub(crate) fn did_you_mean(found: &[String]) -> String {
    match found {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        [first @ .., last] => format!("; did you mean {} or {last}?", first.join(", ")),
    }
}

/// The message for a TYPE that names no kind: `err`, then the nearest TYPE words of the
/// kinds known (the input's and the built-in ones), each compared by its kind and its
/// plural.
pub fn unknown_type(world: &World, typed: &str, err: impl std::fmt::Display) -> String {
    let mut words = names::type_words(Some(world), TypeSet::Any);
    words.extend(names::type_words(None, TypeSet::Any));
    words.sort();
    words.dedup();
    // A plural typed (`retrypolices`) is compared with the plural of each kind.
    let mut spelled: Vec<(String, &str)> = Vec::new();
    for word in &words {
        spelled.push((word.clone(), word));
        let (kind, group) = match word.split_once('.') {
            Some((k, g)) => (k, Some(g)),
            None => (word.as_str(), None),
        };
        let plural = resource_plural(kind);
        spelled.push((
            group.map_or(plural.clone(), |g| format!("{plural}.{g}")),
            word,
        ));
    }
    let near = nearest(typed, spelled.iter().map(|(s, _)| s.as_str()));
    let mut found: Vec<String> = Vec::new();
    for n in near {
        if let Some((_, word)) = spelled.iter().find(|(s, _)| *s == n) {
            if !found.iter().any(|f| f == word) {
                found.push(word.to_string());
            }
        }
    }
    format!("{err}{}", did_you_mean(&found))
}

/// The nearest names of kind `gk` in `ns` (every namespace: None), as `type/name`.
pub(crate) fn near_names(
    world: &World,
    gk: &GroupKind,
    name: &str,
    ns: Option<&str>,
) -> Vec<String> {
    let t = &world.topology;
    let ty = gk.kind.to_lowercase();
    let word = match super::types::resolve_type(&ty, t.catalog(), t.objects()) {
        Ok(found) if found == *gk => ty,
        _ => format!("{ty}.{}", gk.group),
    };
    let objects = names::objects(world, &word, ns);
    nearest(name, objects.iter().map(|r| r.name.as_str()))
        .into_iter()
        .map(|n| format!("{word}/{n}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_by_edit_distance_within_a_third_of_the_word() {
        let known = ["baker", "bakery", "cupcake", "baker-v1"];
        assert_eq!(nearest("bakr", known), ["baker"]);
        assert_eq!(nearest("bakerx", known), ["baker", "bakery"]);
        assert_eq!(nearest("BAKER", known), ["bakery"]);
        assert!(nearest("zzzzzz", known).is_empty());
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(
            did_you_mean(&["a".into(), "b".into(), "c".into()]),
            "; did you mean a, b or c?"
        );
    }

    #[test]
    fn unknown_types_and_names_get_the_nearest_known_ones() {
        let w = crate::analyze_yaml(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: baker, namespace: team}\n",
        )
        .unwrap();
        let m = unknown_type(&w, "httproutes2", "unknown");
        assert_eq!(m, "unknown; did you mean httproute?");
        let m = unknown_type(&w, "backendtlspolicys", "unknown");
        assert!(m.ends_with("did you mean backendtlspolicy?"), "{m}");
        let gk = GroupKind::new("gateway.networking.k8s.io", "HTTPRoute");
        assert_eq!(
            near_names(&w, &gk, "bakr", Some("team")),
            ["httproute/baker"]
        );
        assert!(near_names(&w, &gk, "bakr", Some("other")).is_empty());
    }
}
