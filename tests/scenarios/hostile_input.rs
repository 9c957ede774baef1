//! Hostile input: real manifests, mutated (truncated, types swapped, lines deleted or
//! duplicated, odd scalars), must never panic or hang any stage; YAML alias bombs and
//! absurd nesting are refused quickly with an error that names the file. (The binary
//! on the same mutated files: `cli/hostile_input.rs`.)
//!
//! `PROPTEST_CASES=5000 cargo test --test scenarios --test cli hostile_input` for a long run.

use crate::mutation::{mutated, mutation, Mutation};
use kubectl_policies::query;
use kubectl_policies::source::files::{load_text, Loaded};
use kubectl_policies::topology::Code;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// Every stage and every question, on whatever parsed: none may panic.
pub(crate) fn run_everything(text: &str) {
    let mut loaded = Loaded::default();
    if load_text(text, "mutated.yaml", &mut loaded).is_err() {
        return; // a syntax error is a clean answer (exit 1)
    }
    let w = kubectl_policies::analyze(loaded.snapshot, &[], &loaded.malformed);
    let _ = query::policy_rows(&w, None);
    let _ = query::kind_rows(&w);
    let _ = query::check(&w);
    let _ = query::tree(&w, None, None);
    for n in kubectl_policies::topology::NodeId::all(w.topology.nodes().len()) {
        let _ = query::describe_target(&w, n);
        let _ = query::effective(&w, n, None);
    }
    for p in kubectl_policies::topology::PolicyId::all(w.topology.policies().len()) {
        let _ = query::describe_policy(&w, p);
        let _ = query::blast::delete_policy(&w, p, &[]);
    }
    // The blast radius of each Secret, ConfigMap or Service a policy names (the full
    // sweep of every format, `sweep::answer_everything`, is too slow for thousands of
    // mutated inputs).
    crate::sweep::named(&w, &[]);
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_manifests_never_panic_or_hang(ms in proptest::collection::vec(mutation(), 1..6)) {
        let text = mutated(&ms);
        let started = Instant::now();
        run_everything(&text);
        prop_assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
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
    assert!(loaded.malformed.is_empty());
}

/// The structure-aware mutations reach what they are for: every ring of routes, and
/// some references turned round, make a cycle; some make a policy target a policy.
/// Each such world is answered whole (the crash of a cycle was found this way).
#[test]
fn the_mutator_makes_cycles_and_policies_on_policies_and_every_stage_answers() {
    let findings = |ms: &[Mutation]| {
        let mut loaded = Loaded::default();
        load_text(&mutated(ms), "mutated.yaml", &mut loaded).expect("still YAML");
        let w = kubectl_policies::analyze(loaded.snapshot, &[], &loaded.malformed);
        let codes: Vec<Code> = w.topology.findings().iter().map(|f| f.code).collect();
        codes
    };
    for kind in 0..3 {
        for len in 1..4 {
            let ring = [Mutation::Ring {
                len,
                kind,
                through: 7,
            }];
            assert!(findings(&ring).contains(&Code::Cycle), "{ring:?}");
            run_everything(&mutated(&ring));
        }
    }
    let (mut cycles, mut on_policies) = (0, 0);
    for at in 0..24 {
        for to in 0..26 {
            let codes = findings(&[Mutation::Refer(at, to)]);
            if codes.contains(&Code::Cycle) {
                cycles += 1;
                run_everything(&mutated(&[Mutation::Refer(at, to)]));
            }
            on_policies += usize::from(codes.contains(&Code::TargetIsPolicy));
        }
    }
    assert!(
        cycles > 0 && on_policies > 0,
        "{cycles} cycles, {on_policies} on policies"
    );
}
