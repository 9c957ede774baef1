//! Hostile input: real manifests, mutated (truncated, types swapped, lines deleted or
//! duplicated, odd scalars), must never panic or hang any stage; YAML alias bombs and
//! absurd nesting are refused quickly with an error that names the file.
//!
//! `PROPTEST_CASES=5000 cargo test --test hostile_input` for a long run.

use kubectl_policies::query;
use kubectl_policies::source::files::{load_text, Loaded};
use proptest::prelude::*;
use std::time::{Duration, Instant};

const DEMO: &str = include_str!("../src/source/demo.yaml");

/// Every stage and every question, on whatever parsed: none may panic.
fn run_everything(text: &str) {
    let mut loaded = Loaded::default();
    if load_text(text, "mutated.yaml", &mut loaded).is_err() {
        return; // a syntax error is a clean answer (exit 1)
    }
    let w = kubectl_policies::analyze(loaded.snapshot, &[], &loaded.shape_errors);
    let _ = query::get_policies(&w, None);
    let _ = query::get_kinds(&w);
    let _ = query::check(&w);
    let _ = query::tree(&w, None, None);
    for n in kubectl_policies::topology::NodeId::all(w.topology.nodes.len()) {
        let _ = query::describe_target(&w, n);
        let _ = query::effective(&w, n, None);
    }
    for p in kubectl_policies::topology::PolicyId::all(w.topology.policies.len()) {
        let _ = query::describe_policy(&w, p);
        let _ = query::blast::delete_policy(&w, p, &[]);
    }
}

/// The demo's lines, for mutation.
fn lines() -> Vec<String> {
    DEMO.lines().map(str::to_string).collect()
}

const ODD_SCALARS: &[&str] = &[
    "~",
    "null",
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "yes",
    "NO",
    "1e400",
    "-0",
    "''",
    "\"\\u0000\"",
    "!!binary aGVsbG8=",
    "[]",
    "{}",
    "[[[]]]",
    "&a x",
    "*a",
    "|",
    ">-",
    "99999999999999999999999999",
    "\"\u{202e}rtl\"",
    "{a: [1, {b: c}]}",
];

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    /// Replace the value after the first `:` on a line with an odd scalar.
    SwapValue(usize, usize),
    /// Turn a mapping line into a list item or back.
    ToggleDash(usize),
    /// Change the indentation of a line.
    Reindent(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let n = DEMO.lines().count();
    prop_oneof![
        (0..DEMO.len()).prop_map(Mutation::Truncate),
        (0..n).prop_map(Mutation::DeleteLine),
        (0..n).prop_map(Mutation::DuplicateLine),
        ((0..n), (0..ODD_SCALARS.len())).prop_map(|(l, s)| Mutation::SwapValue(l, s)),
        (0..n).prop_map(Mutation::ToggleDash),
        ((0..n), (0..8usize)).prop_map(|(l, i)| Mutation::Reindent(l, i)),
    ]
}

fn apply(text: &mut Vec<String>, m: &Mutation) {
    match *m {
        Mutation::Truncate(at) => {
            let joined = text.join("\n");
            let mut cut = at.min(joined.len());
            while !joined.is_char_boundary(cut) {
                cut -= 1;
            }
            *text = joined[..cut].lines().map(str::to_string).collect();
        }
        Mutation::DeleteLine(i) if i < text.len() => {
            text.remove(i);
        }
        Mutation::DuplicateLine(i) if i < text.len() => {
            let l = text[i].clone();
            text.insert(i, l);
        }
        Mutation::SwapValue(i, s) if i < text.len() => {
            if let Some((k, _)) = text[i].split_once(':') {
                text[i] = format!("{k}: {}", ODD_SCALARS[s]);
            }
        }
        Mutation::ToggleDash(i) if i < text.len() => {
            let l = &text[i];
            let indent = l.len() - l.trim_start().len();
            text[i] = match l.trim_start().strip_prefix("- ") {
                Some(rest) => format!("{}{rest}", " ".repeat(indent)),
                None => format!("{}- {}", " ".repeat(indent), l.trim_start()),
            };
        }
        Mutation::Reindent(i, by) if i < text.len() => {
            text[i] = format!("{}{}", " ".repeat(by), text[i].trim_start());
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_manifests_never_panic_or_hang(ms in proptest::collection::vec(mutation(), 1..6)) {
        let mut text = lines();
        for m in &ms {
            apply(&mut text, m);
        }
        let text = text.join("\n");
        let started = Instant::now();
        run_everything(&text);
        prop_assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    }

    /// The binary, as a user runs it on a damaged file: exit 0 or 1, never a panic
    /// (101) or a signal, and one line naming the file when it refuses.
    #[test]
    fn the_binary_exits_0_or_1_on_mutated_files(ms in proptest::collection::vec(mutation(), 1..4)) {
        let mut text = lines();
        for m in &ms {
            apply(&mut text, m);
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mutated.yaml");
        std::fs::write(&file, text.join("\n")).unwrap();
        for args in [&["get", "-A"][..], &["describe", "httproute/baker", "-n", "baker"][..]] {
            let out = assert_cmd::Command::cargo_bin("kubectl-policies")
                .unwrap()
                .arg("-f")
                .arg(&file)
                .args(args)
                .timeout(Duration::from_secs(10))
                .output()
                .unwrap();
            let code = out.status.code();
            prop_assert!(code == Some(0) || code == Some(1), "{args:?} exited {code:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            prop_assert!(!err.contains("panicked"), "{err}");
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        run_everything(&String::from_utf8_lossy(&bytes));
    }
}

fn refused_quickly(text: &str) -> String {
    let started = Instant::now();
    let mut loaded = Loaded::default();
    let err = load_text(text, "bomb.yaml", &mut loaded).expect_err("refused");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    let msg = err.to_string();
    assert!(msg.contains("bomb.yaml"), "{msg}");
    msg
}

#[test]
fn a_yaml_alias_bomb_is_refused_quickly() {
    let mut bomb = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut prev = 'a';
    for c in 'b'..='z' {
        bomb.push_str(&format!(
            "{c}: &{c} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
        prev = c;
    }
    refused_quickly(&format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\n{bomb}"
    ));
}

#[test]
fn absurd_nesting_is_refused_quickly() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    refused_quickly(&format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\ndata: {deep}\n"
    ));
    let deep = format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    let object = |field: &str| {
        format!("{{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"x\"}},\"{field}\":{deep}}}")
    };
    // In a field the tool reads, refused.
    refused_quickly(&object("spec"));
    // In one it skips, skipped without being built (and without recursion), quickly.
    let started = Instant::now();
    let mut loaded = Loaded::default();
    load_text(&object("data"), "deep.json", &mut loaded).unwrap();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(loaded.snapshot.objects.len(), 1);
    assert!(loaded.shape_errors.is_empty());
}
