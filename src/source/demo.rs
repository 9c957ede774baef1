//! The example cluster bundled in the binary (`--demo`): the GEP-713 parable.

use super::files::{load_text, Loaded};

/// The demo's YAML, as shipped.
pub const DEMO_YAML: &str = include_str!("demo.yaml");

/// Loads the demo. It is part of the binary, so a failure here is a bug in the
/// build and is reported as such rather than as user error.
pub fn load() -> anyhow::Result<Loaded> {
    let mut loaded = Loaded::default();
    load_text(DEMO_YAML, "<demo>", &mut loaded)
        .map_err(|e| anyhow::anyhow!("the bundled demo is broken: {e}"))?;
    Ok(loaded)
}
