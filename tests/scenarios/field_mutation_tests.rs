//! Structure-aware hostile input (`support/field_mutation.rs`): the demo's objects
//! mutated field by field and written as YAML or JSON with any line ending. No stage
//! panics or hangs, and nothing read is dropped in silence: every document is an
//! object or a blind spot that names it.
//!
//! `PROPTEST_CASES=2000 cargo test --test scenarios field_mutation` for a long run.

use crate::field_mutation::{field_mutated, field_mutation, written};
use crate::hostile_input::run_everything;
use kubectl_policies::model::BlindReason;
use kubectl_policies::source::files::{load_text, Loaded};
use proptest::prelude::*;
use std::time::{Duration, Instant};

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn field_mutated_objects_never_panic_hang_or_vanish(
        ms in proptest::collection::vec(field_mutation(), 1..5),
        how in written(),
    ) {
        let text = field_mutated(&ms, how);
        let started = Instant::now();
        let mut loaded = Loaded::default();
        if load_text(&text, "mutated", &mut loaded).is_ok() {
            let documents = crate::field_mutation::documents().len();
            let nulls = ms.iter().filter(|m| matches!(m,
                crate::field_mutation::FieldMutation::ChangeType { .. })).count();
            let read = loaded.snapshot.objects.len() + loaded.malformed.len();
            // A document made null is no document; every other one is read or said.
            prop_assert!(read + nulls >= documents, "{read} of {documents} documents: {ms:?}");
            let invalid = loaded.snapshot.blind_spots.iter()
                .filter(|b| b.reason == BlindReason::Invalid)
                .count();
            prop_assert_eq!(invalid, loaded.malformed.len());
            for b in &loaded.snapshot.blind_spots {
                prop_assert!(b.file.as_deref() == Some("mutated"), "{b:?}");
            }
        }
        run_everything(&text);
        prop_assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    }
}
