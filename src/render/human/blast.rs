//! A blast radius for people: the headline, blind spots, findings it would bring, and
//! one row per change.

use super::*;

/// `blast-radius`: the headline, blind spots (loudly), then one row per change with
/// the field-level differences (`printer.headers`: the table's header row).
pub fn blast_radius(
    out: &mut impl Write,
    b: &crate::query::blast::BlastRadius,
    printer: &Printer,
) -> io::Result<()> {
    let (style, headers) = (printer.style, printer.headers);
    writeln!(out, "{}", style.paint(&b.headline, Tint::Bold))?;
    if !b.blind_spots.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            style.paint(
                "Blind spots: some kinds could not be read, so the blast radius may be incomplete:",
                Tint::Bad
            )
        )?;
        for s in &b.blind_spots {
            writeln!(
                out,
                "{}",
                style.paint(&format!("  {}", blind_spot_line(s)), Tint::Bad)
            )?;
        }
    }
    if !b.findings.is_empty() {
        writeln!(out)?;
        writeln!(out, "Findings it would bring:")?;
        findings_table(out, &b.findings, printer)?;
    }
    if b.changes.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    changes_table(&b.changes, None).write(out, style, headers)
}

/// One row per change: the object or section, the context it changes on (the
/// shortest, and how many more), and the field-level differences; `by`: a BY column,
/// a cell per change.
pub(super) fn changes_table(
    changes: &[crate::query::blast::Change],
    by: Option<&[String]>,
) -> Table {
    let several_kinds = changes
        .iter()
        .any(|c| c.policy_kind != changes[0].policy_kind);
    let mut headers = vec!["KIND", "NAMESPACE", "NAME", "VIA", "BEFORE→AFTER"];
    if by.is_some() {
        headers.push("BY");
    }
    let mut t = Table::new(headers);
    for (i, c) in changes.iter().enumerate() {
        let mut name = c.target.name.to_string();
        if let Some(s) = &c.target.section {
            name.push('#');
            name.push_str(s);
        }
        let via = c
            .contexts
            .iter()
            .min_by(|x, y| x.len().cmp(&y.len()).then_with(|| x.cmp(y)))
            .map(|p| via_line(p))
            .unwrap_or_default();
        let via = if c.contexts.len() > 1 {
            format!("{via} (+{} more)", c.contexts.len() - 1)
        } else {
            via
        };
        let mut diffs = Vec::new();
        value_diff(c.before.as_deref(), c.after.as_deref(), "", &mut diffs);
        let mut diff = diffs.join("; ");
        if several_kinds {
            diff = format!("{}: {diff}", c.policy_kind.kind);
        }
        let mut cells = vec![
            (c.target.kind.to_string(), Tint::Plain),
            (
                c.target.namespace.clone().unwrap_or_default().to_string(),
                Tint::Plain,
            ),
            (name.to_string(), Tint::Plain),
            (via, Tint::Dim),
            (diff, Tint::Warn),
        ];
        if let Some(by) = by {
            cells.push((by.get(i).cloned().unwrap_or_default(), Tint::Dim));
        }
        t.row(cells);
    }
    t
}

/// Leaf-by-leaf differences as `pointer: old → new` (RFC 6901 pointers, arrays
/// compared whole, `-` for absent).
pub(super) fn value_diff(a: Option<&Value>, b: Option<&Value>, path: &str, out: &mut Vec<String>) {
    let mut lines = Vec::new();
    value_changes(a, b, path, &mut lines);
    out.extend(
        lines
            .into_iter()
            .map(|(p, was, now)| format!("{p}: {was} → {now}")),
    );
}

/// `value_diff`'s differences as (pointer, old, new).
pub(crate) fn value_diff_lines(
    a: Option<&Value>,
    b: Option<&Value>,
) -> Vec<(String, String, String)> {
    let mut lines = Vec::new();
    value_changes(a, b, "", &mut lines);
    lines
}

fn value_changes(
    a: Option<&Value>,
    b: Option<&Value>,
    path: &str,
    out: &mut Vec<(String, String, String)>,
) {
    if a == b {
        return;
    }
    let a_obj = a.and_then(Value::as_object);
    let b_obj = b.and_then(Value::as_object);
    let objects_or_absent = (a.is_none() || a_obj.is_some()) && (b.is_none() || b_obj.is_some());
    if objects_or_absent
        && (a_obj.is_some_and(|m| !m.is_empty()) || b_obj.is_some_and(|m| !m.is_empty()))
    {
        let mut keys: Vec<&String> = a_obj.into_iter().flat_map(|m| m.keys()).collect();
        // A's keys, then b's that a has not (looked up in a's map: a spec may hold ten
        // thousand rules).
        for k in b_obj.into_iter().flat_map(|m| m.keys()) {
            if !a_obj.is_some_and(|m| m.contains_key(k)) {
                keys.push(k);
            }
        }
        for k in keys {
            let p = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
            value_changes(
                a_obj.and_then(|m| m.get(k)),
                b_obj.and_then(|m| m.get(k)),
                &p,
                out,
            );
        }
        return;
    }
    let show = |v: Option<&Value>| v.map(scalar).unwrap_or_else(|| "-".into());
    let p = if path.is_empty() { "/" } else { path };
    out.push((p.to_string(), show(a), show(b)));
}
