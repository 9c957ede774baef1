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
