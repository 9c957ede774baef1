//! Tests of the human pages' text helpers: words wrapped to the width, and `get`'s
//! TARGETS column.

use super::*;

#[test]
fn wrap_words_keeps_lines_within_the_width_and_long_words_whole() {
    let text = "one two three four five six seven";
    let lines = wrap_words(text, 4, "  ", 14);
    assert_eq!(lines, ["one two", "  three four", "  five six", "  seven"]);
    // The first line's prefix counts: 4 + "one two" = 11 columns.
    assert!(lines.iter().skip(1).all(|l| crate::render::width(l) <= 14));
    assert_eq!(
        wrap_words("a-very-long-word b", 0, "  ", 5),
        ["a-very-long-word", "  b"]
    );
    assert_eq!(wrap_words("", 3, "  ", 10), [""]);
}

#[test]
fn wrap_list_breaks_after_a_comma() {
    let items: Vec<String> = ["alpha", "beta", "gamma"].map(String::from).to_vec();
    assert_eq!(
        wrap_list("at ", "   ", &items, 15),
        ["at alpha, beta,", "   gamma"]
    );
}

#[test]
fn get_names_the_first_targets_and_how_many_more_unless_wide() {
    let yaml = "apiVersion: networking.gke.io/v1\nkind: GCPServerTLSPolicy\nmetadata: {name: tls, namespace: app}\nspec: {targetRefs: [{kind: Pod, selector: {}}]}\n";
    let w = crate::analyze_yaml(yaml).unwrap();
    let mut row = crate::query::policy_rows(&w, None).remove(0);
    row.targets = (0..12)
        .map(|i| ObjRef::new("", "Pod", Some("app"), &format!("pod-{i}")))
        .collect();
    let table = |wide: bool| {
        let mut out = Vec::new();
        let rows = std::slice::from_ref(&row);
        let printer = Printer {
            wide,
            clock: crate::render::Clock::At(0),
            ..Printer::default()
        };
        policies_table(&mut out, rows, None, &printer).unwrap();
        String::from_utf8(out).unwrap()
    };
    let narrow = table(false);
    assert!(narrow.contains("Pod/pod-8,Pod/pod-9,+2 more "), "{narrow}");
    assert!(!narrow.contains("pod-10"), "{narrow}");
    let wide = table(true);
    assert!(wide.contains("Pod/pod-9,Pod/pod-10,Pod/pod-11 "), "{wide}");
    assert!(!wide.contains("more"), "{wide}");
}
