//! Who depends on an object, for people: the policies whose spec names it, by which
//! field, their status, and what becomes of each without it.

use super::*;
use crate::query::dependents::{DependencyDescription, Dependent};

/// `describe secret/NAME` (any object policies' specs name that is no object of the
/// hierarchy): the page of `query::dependents::describe_dependency`'s description.
pub fn dependency_page(
    out: &mut impl Write,
    d: &DependencyDescription,
    printer: &Printer,
) -> io::Result<()> {
    let style = printer.style;
    object_header(out, &d.object)?;
    if !d.found {
        field(
            out,
            "Found",
            "no: not in the input (the policies below name it all the same)",
        )?;
    }
    referenced_by(out, &d.object, &d.referenced_by, style)?;
    blind_spots(out, &d.blind_spots, style)
}

/// The `Referenced by` block: one row per reference, or a line saying none names it.
pub(crate) fn referenced_by(
    out: &mut impl Write,
    object: &ObjRef,
    refs: &[Dependent],
    style: Style,
) -> io::Result<()> {
    writeln!(out)?;
    if refs.is_empty() {
        return writeln!(out, "Referenced by: no policy's spec names this object");
    }
    let policies: std::collections::BTreeSet<&ObjRef> = refs.iter().map(|r| &r.policy).collect();
    let count = match policies.len() {
        1 => "1 policy names".to_string(),
        n => format!("{n} policies name"),
    };
    writeln!(out, "Referenced by ({count} this object):")?;
    let mut t = Table::new(vec!["KIND", "POLICY", "FIELD", "STATUS", "WITHOUT IT"]);
    for r in refs {
        let name = match r.policy.namespace == object.namespace {
            true => r.policy.name.to_string(),
            false => r.policy.ns_name(),
        };
        let status = match r.reason {
            Some(reason) => format!("{} ({reason:?} now)", r.status.as_str()),
            None => r.status.as_str().to_string(),
        };
        t.row(vec![
            (r.policy.kind.to_string(), Tint::Plain),
            (name, Tint::Plain),
            (r.path.clone(), Tint::Dim),
            (status, status_tint(r.status)),
            (r.without.as_str().to_string(), Tint::Warn),
        ]);
    }
    indented_table(out, t, style)
}
