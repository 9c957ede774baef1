//! Tests of `-o jsonpath` templates: kubectl's documented examples, filters, errors and
//! escaping, on the JSON of a list of nodes.

use super::sort::natural;
use super::*;
use serde_json::json;

/// The example of kubectl's JSONPath page (a list of nodes and users).
fn doc() -> Value {
    json!({
        "kind": "List",
        "items": [
            {"kind": "None", "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
             "status": {"capacity": {"cpu": "4"}, "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
            {"kind": "None", "metadata": {"name": "127.0.0.2"},
             "status": {"capacity": {"cpu": "8"}, "addresses": [
                 {"type": "LegacyHostIP", "address": "127.0.0.2"},
                 {"type": "another", "address": "127.0.0.3"}]}}
        ],
        "users": [
            {"name": "myself", "user": {}},
            {"name": "e2e", "user": {"username": "admin", "password": "secret"}}
        ]
    })
}

fn eval(t: &str) -> String {
    Template::parse(t).unwrap().execute(&doc()).unwrap()
}

#[test]
fn kubectls_documented_examples() {
    assert_eq!(eval("kind is {.kind}"), "kind is List");
    assert_eq!(eval("{.kind}"), "List");
    assert_eq!(eval("{['kind']}"), "List");
    assert_eq!(eval("{..name}"), "127.0.0.1 127.0.0.2 myself e2e");
    assert_eq!(eval("{.items[*].metadata.name}"), "127.0.0.1 127.0.0.2");
    assert_eq!(eval("{.users[0].name}"), "myself");
    // Each member of a union over every item, one member after the other; a quoted
    // key is a path (maps print as JSON, as kubectl prints them today).
    assert_eq!(
        eval("{.items[*]['metadata.name', 'status.capacity']}"),
        r#"127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}"#
    );
    assert_eq!(
        eval("{.items[0].metadata.labels['kubernetes\\.io/hostname']}"),
        "127.0.0.1"
    );
    assert_eq!(eval("{.users[?(@.name==\"e2e\")].user.password}"), "secret");
    assert_eq!(
        eval("{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}"),
        "[127.0.0.1, {\"cpu\":\"4\"}] [127.0.0.2, {\"cpu\":\"8\"}] "
    );
    assert_eq!(
        eval("{range .items[*]}{.metadata.name}{\"\\t\"}{end}"),
        "127.0.0.1\t127.0.0.2\t"
    );
    assert_eq!(eval("{.items[-1:].metadata.name}"), "127.0.0.2");
    assert_eq!(eval("{$.users[1].name}"), "e2e");
    assert_eq!(
        eval("{.items[0].metadata.labels.kubernetes\\.io/hostname}"),
        "127.0.0.1"
    );
}

#[test]
fn missing_keys_yield_nothing_and_bad_indices_are_errors() {
    assert_eq!(eval("a{.nope.deeper}b"), "ab");
    assert_eq!(eval("{.users[?(@.nope==\"x\")].name}"), "");
    let t = Template::parse("{.users[5].name}").unwrap();
    let e = t.execute(&doc()).unwrap_err();
    assert_eq!(
        e,
        EvalError::OutOfBounds {
            index: 5,
            length: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "array index out of bounds: index 5, length 2"
    );
    let e = Template::parse("{.kind[0]}")
        .unwrap()
        .execute(&doc())
        .unwrap_err();
    assert_eq!(e.to_string(), "string is not array or slice");
}

#[test]
fn filters_compare_numbers_strings_and_test_existence() {
    let v = json!({"xs": [{"n": 1, "s": "a"}, {"n": 10, "s": "b", "flag": true}, {"n": 2}]});
    let run = |t: &str| Template::parse(t).unwrap().execute(&v).unwrap();
    assert_eq!(run("{.xs[?(@.n>1)].n}"), "10 2");
    assert_eq!(run("{.xs[?(@.n<=2)].n}"), "1 2");
    assert_eq!(run("{.xs[?(@.s!='a')].n}"), "10");
    assert_eq!(run("{.xs[?(@.flag)].n}"), "10");
    assert_eq!(run("{.xs[?(@.flag==true)].s}"), "b");
    // A string does not compare with a number: no match, no error.
    assert_eq!(run("{.xs[?(@.s==1)].n}"), "");
    assert_eq!(run("{.xs[0:2].n}"), "1 10");
    assert_eq!(run("{.xs[0,2].n}"), "1 2");
    assert_eq!(run("{.xs[::2].n}"), "1 2");
}

#[test]
fn maps_print_as_sorted_json_and_wildcards_walk_keys_in_order() {
    let v = json!({"m": {"b": 2, "a": {"z": 1, "y": [1, "x"]}}});
    let run = |t: &str| Template::parse(t).unwrap().execute(&v).unwrap();
    assert_eq!(run("{.m}"), r#"{"a":{"y":[1,"x"],"z":1},"b":2}"#);
    assert_eq!(run("{.m.*}"), r#"{"y":[1,"x"],"z":1} 2"#);
    // Go's encoder writes <, > and & in strings as escapes; a string alone is bare.
    let html = json!({"a": {"k": "<b>&"}});
    let template = Template::parse("{.a} {.a.k}").unwrap();
    assert_eq!(
        template.execute(&html).unwrap(),
        r#"{"k":"\u003cb\u003e\u0026"} <b>&"#
    );
    let mut s = String::new();
    sprint(&v["m"], &mut s);
    assert_eq!(s, "map[a:map[y:[1 x] z:1] b:2]");
}

#[test]
fn templates_that_do_not_parse_say_why() {
    let error = |template: &str| Template::parse(template).unwrap_err();
    assert_eq!(error("").reason, TemplateReason::Empty);
    let unclosed = error("x {.a");
    assert_eq!(
        (unclosed.position, &unclosed.reason),
        (2, &TemplateReason::UnclosedAction)
    );
    assert_eq!(unclosed.to_string(), "unclosed action: {.a");
    let end = error("{.a}{end}");
    assert_eq!(
        (end.position, &end.reason),
        (4, &TemplateReason::NothingToEnd)
    );
    assert_eq!(end.to_string(), "not in range, nothing to end");
    // A path's error names the path and where in it reading stopped.
    assert_eq!(error("{.a[}").reason, TemplateReason::UnclosedAction);
    let bracket = error("{.a[ ]}");
    assert_eq!(bracket.text, ".a[ ]");
    assert_eq!(
        (bracket.position, &bracket.reason),
        (4, &TemplateReason::IndexExpected)
    );
    assert_eq!(
        bracket.to_string(),
        "expected an index, a slice or a key in \".a[ ]\""
    );
    let unexpected = error("{.a)b}");
    assert_eq!(
        (unexpected.position, &unexpected.reason),
        (2, &TemplateReason::Unexpected)
    );
    assert_eq!(unexpected.to_string(), "unexpected \")b\" in \".a)b\"");
    assert_eq!(
        error("{.a[?(@.b==)]}").reason,
        TemplateReason::NotAValue(String::new())
    );
    assert_eq!(
        error("{.a[-]}").reason,
        TemplateReason::NotAnIndex("-".to_string())
    );
    let escape = error("{\"a\\qb\"}");
    assert_eq!(
        (escape.position, &escape.reason),
        (1, &TemplateReason::UnknownEscape(Some('q')))
    );
    assert_eq!(escape.to_string(), "unknown escape \\q in \"a\\\\qb\"");
    // A space of more than one byte (found by the property below) is skipped whole.
    assert!(relaxed("[\u{3000}a").is_err());
    assert_eq!(
        Template::parse("{.a[\u{3000}0\u{3000}]}")
            .unwrap()
            .execute(&json!({"a": [7]})),
        Ok("7".to_string())
    );
    // A range without its end runs to the end of the template.
    let v = json!({"a": [1, 2]});
    assert_eq!(
        Template::parse("{range .a[*]}<{@}>")
            .unwrap()
            .execute(&v)
            .unwrap(),
        "<1><2>"
    );
}

#[test]
fn control_characters_from_the_input_are_escaped() {
    let v = json!({"a": "x\u{1b}[31my\r", "b": "one\ntwo"});
    let run = |t: &str| Template::parse(t).unwrap().execute(&v).unwrap();
    assert_eq!(run("{.a}"), "x^[[31my\\r");
    assert_eq!(run("{.b}"), "one\ntwo");
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(4000))]
    /// Whatever a user types, the template is read or refused, never a panic; and
    /// one that is read runs on any document without one.
    #[test]
    fn any_text_parses_or_is_refused_without_a_panic(text in "[{}\\[\\]().@$*?,:'\"=!<>0-9a-z\\\\ \u{3000}é-]{0,24}") {
        if let Ok(t) = Template::parse(&text) {
            let _ = t.execute(&doc());
        }
        let _ = relaxed(&text);
    }
}

#[test]
fn relaxed_paths_and_sort_order() {
    let v = json!({"a": {"b": 3}});
    for p in [".a.b", "a.b", "{.a.b}", "{a.b}"] {
        assert_eq!(relaxed(p).unwrap().find(&v).unwrap(), [&json!(3)], "{p}");
    }
    assert!(relaxed("{}").is_err());
    assert_eq!(natural("a2", "a10"), Ordering::Less);
    assert_eq!(natural("a10", "a010"), Ordering::Equal);
    assert_eq!(natural("b", "a10"), Ordering::Greater);
    let (one, ten) = (json!(1), json!(10));
    assert_eq!(sort_order(Some(&ten), Some(&one)), Ordering::Greater);
    assert_eq!(sort_order(None, Some(&one)), Ordering::Less);
    // Two quantities by amount, as kubectl; a quantity and other text in natural order.
    let (mi, gi, word) = (json!("100Mi"), json!("2Gi"), json!("a"));
    assert_eq!(sort_order(Some(&mi), Some(&gi)), Ordering::Less);
    assert_eq!(natural("100Mi", "2Gi"), Ordering::Greater);
    assert_eq!(sort_order(Some(&gi), Some(&word)), Ordering::Less);
    let (old, new) = (json!("2025-12-31T23:59:59Z"), json!("2026-01-01T00:00:00Z"));
    assert_eq!(sort_order(Some(&old), Some(&new)), Ordering::Less);
}

#[test]
fn as_json_prints_each_piece_as_an_indented_array() {
    let t = Template::parse("{.kind}").unwrap();
    assert_eq!(t.execute_as_json(&doc()).unwrap(), "[\n    \"List\"\n]\n");
    // Several results in one array, maps with sorted keys; a missing key, an empty one.
    let t = Template::parse("{.items[*].status.capacity}{.nope}").unwrap();
    assert_eq!(
        t.execute_as_json(&doc()).unwrap(),
        "[\n    {\n        \"cpu\": \"4\"\n    },\n    {\n        \"cpu\": \"8\"\n    }\n]\n[]\n"
    );
    // Text is a piece of its own, each time the range runs it.
    let t = Template::parse(r#"{range .users[*]}{.name}{"\n"}{end}"#).unwrap();
    assert_eq!(
        t.execute_as_json(&doc()).unwrap(),
        "[\n    \"myself\"\n]\n[\n    \"\\n\"\n]\n[\n    \"e2e\"\n]\n[\n    \"\\n\"\n]\n"
    );
    // Go's encoder escapes <, > and &; control characters are JSON escapes.
    let t = Template::parse("{.a}").unwrap();
    assert_eq!(
        t.execute_as_json(&json!({"a": "<b>&\u{1b}"})).unwrap(),
        "[\n    \"\\u003cb\\u003e\\u0026\\u001b\"\n]\n"
    );
    // Out of bounds is an error, as with -o jsonpath.
    assert!(Template::parse("{.items[9]}")
        .unwrap()
        .execute_as_json(&doc())
        .is_err());
}
