//! kubectl-policies: rebuilds Gateway API policy attachment (GEP-713) client-side
//! and answers which policies affect an object, with what effective settings, and
//! what a policy touches.
//!
//! The pipeline (ARCHITECTURE.md): `source` → `catalog` → `topology` → `effective`
//! → `query` → `render`, over the data types of `model`. Everything between source and
//! render is pure.

// A tool run during incidents must not panic: no unwrap/expect/panic outside tests, no
// string slicing that could split a character, and no unsafe code at all.
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(not(test), deny(clippy::string_slice))]
// No function over clippy.toml's `too-many-lines-threshold` lines of code.
#![warn(clippy::too_many_lines)]

pub mod catalog;
pub mod effective;
pub mod focus;
pub mod model;
pub mod query;
pub mod render;
pub mod source;
pub mod topology;

pub use query::analyze;

use source::files::{load_text, Loaded, SyntaxError};

/// Literal YAML in, analysed world out (objects without a namespace in `default`): for
/// tests and examples. Here, above every layer, as it joins the reading of text
/// (`source`) to the pure analysis (`query`), which never imports `source`.
pub fn analyze_yaml(yaml: &str) -> Result<query::Rebuildable, SyntaxError> {
    let mut loaded = Loaded::default();
    load_text(yaml, "<literal>", &mut loaded)?;
    loaded.place_in("default");
    Ok(analyze(loaded.snapshot, &[], &loaded.malformed))
}
