//! The binary on damaged files, as a user runs it: exit 0 or 1, never a panic. (Every
//! stage on the same mutated manifests, without the binary: `scenarios/hostile_input.rs`.)

use crate::command::kp;
use crate::mutation::{mutated, mutation};
use proptest::prelude::*;
use std::time::Duration;

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    /// The binary, as a user runs it on a damaged file: exit 0 or 1, never a panic
    /// (101) or a signal, and one line naming the file when it refuses.
    #[test]
    fn the_binary_exits_0_or_1_on_mutated_files(ms in proptest::collection::vec(mutation(), 1..4)) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mutated.yaml");
        std::fs::write(&file, mutated(&ms)).unwrap();
        for args in [&["get", "-A"][..], &["describe", "httproute/baker", "-n", "baker"][..]] {
            let out = kp()
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
}
