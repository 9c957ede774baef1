//! The binary as a user runs it (assert_cmd): flags, formats, exit codes, stderr,
//! offline answers on the demo and on files, completion, `graph`, kubectl's plugin
//! mechanism, releases. Every process a test starts comes from `command::hermetic`.
//!
//! One test binary for all of them (`cargo test --test cli`); the library's stages are
//! tested in `tests/scenarios`, live reads in `tests/live`.

#[path = "../support/command.rs"]
mod command;
#[path = "../support/field_mutation.rs"]
mod field_mutation;
#[path = "../support/mutation.rs"]
mod mutation;

mod commands;
mod completion;
mod conflicts;
mod cycles;
mod dependents;
mod diff;
mod docs;
mod envoy_gateway;
mod graph;
mod honest;
mod hostile_input;
mod import_circles;
mod json_dialect;
mod krew;
mod kubectl_like;
mod layers;
mod module_docs;
mod plugin;
mod ports;
mod references;
mod reported;
mod sizes;
mod source_tree;
mod sweep;
mod target_kinds;
mod yaml_output;
