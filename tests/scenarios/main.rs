//! Scenarios: the library's pure stages on literal YAML, in plain words. Every world a
//! scenario builds (`common::world`) is also checked against the oracles: incremental
//! answers, narrowed inputs and the live reader's plan all give the answers of the full
//! computation.
//!
//! One test binary for all of them (`cargo test --test scenarios`); the binary as a user
//! runs it is tested in `tests/cli`, live reads in `tests/live`.

mod common;
#[path = "../support/field_mutation.rs"]
mod field_mutation;
#[path = "../support/mutation.rs"]
mod mutation;

mod blast_radius;
mod cycles;
mod dependents;
mod diff;
mod envoy_gateway;
mod envoy_gateway_translator;
mod field_mutation_tests;
mod gep2649_precedence;
mod gep713_examples;
mod hostile_input;
mod kgateway_merging;
mod narrow;
mod overridden;
mod reach;
mod reference_groups;
mod references;
mod references_further;
mod references_vendors;
mod registry_kinds;
mod reported;
mod sweep;
mod topology;
mod vendor_references;
mod watch;
mod watch_property;
