//! The example cluster bundled in the binary (`--demo`): the GEP-713 parable.

use super::files::{load_text, Loaded, SyntaxError};

/// The bundled demo does not read: a bug in the build, not the user's input.
#[derive(Debug, thiserror::Error)]
#[error("the bundled demo is broken: {0}")]
pub struct BrokenDemo(#[from] SyntaxError);

/// The demo's YAML, as shipped.
pub const DEMO_YAML: &str = include_str!("demo.yaml");

/// Loads the demo. It is part of the binary, so a failure here is a bug in the
/// build and is reported as such rather than as user error.
pub fn load() -> Result<Loaded, BrokenDemo> {
    let mut loaded = Loaded::default();
    load_text(DEMO_YAML, "<demo>", &mut loaded)?;
    Ok(loaded)
}
