//! kubectl-policies: rebuilds Gateway API policy attachment (GEP-713) client-side
//! and answers which policies affect an object, with what effective settings, and
//! what a policy touches.
//!
//! The pipeline (ARCHITECTURE.md): `source` → `catalog` → `topology` → `effective`
//! → `query` → `render`. Everything between source and render is pure.

// A tool run during incidents must not panic: no unwrap/expect outside tests.
#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod catalog;
pub mod effective;
pub mod model;
pub mod narrow;
pub mod query;
pub mod render;
pub mod source;
pub mod topology;

use catalog::{Catalog, Declared};
use model::Snapshot;
use query::World;
use topology::{Code, Finding, Topology};

/// Runs the pure stages on a snapshot: catalog, topology, statuses.
pub fn analyze(
    mut snapshot: Snapshot,
    declared: &[Declared],
    shape_errors: &[model::ShapeError],
) -> World {
    let duplicates = model::drop_duplicates(&mut snapshot.objects);
    let catalog = Catalog::build(&snapshot.objects, declared);
    let mut t = Topology::build(snapshot, catalog);
    for d in duplicates {
        let earlier: Vec<String> = d.dropped.iter().map(|o| o.to_string()).collect();
        t.findings.push(Finding::new(
            Code::DuplicateObject,
            d.object,
            format!(
                "defined in {} and again in {}: the last is used, as kubectl apply would leave it",
                earlier.join(", "),
                d.used
            ),
        ));
    }
    for e in shape_errors {
        t.findings.push(Finding::new(
            Code::Invalid,
            model::ObjRef::new("", "Document", None, &e.origin.to_string()),
            format!("field {}: {}", e.field, e.message),
        ));
    }
    World::new(t)
}

/// Convenience for tests and examples: literal YAML in, analysed world out.
pub fn analyze_yaml(yaml: &str) -> Result<World, source::files::SyntaxError> {
    let mut loaded = source::files::Loaded::default();
    source::files::load_text(yaml, "<literal>", &mut loaded)?;
    loaded.place_in("default");
    Ok(analyze(loaded.snapshot, &[], &loaded.shape_errors))
}
