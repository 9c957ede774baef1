//! A diff for people: the headline, each side's blind spots, then tables: objects
//! added, deleted and changed; policies whose verdict changes and why; effective
//! changes with the policies behind the values (as `blast-radius` prints them); the
//! findings that appear and clear.

use super::*;
use crate::query::diff::{EffectiveChange, PolicyDiff};
use crate::query::Source;

/// `diff`: the headline, blind spots (loudly), then one table per part that changes.
pub fn diff(out: &mut impl Write, d: &PolicyDiff, printer: &Printer) -> io::Result<()> {
    let (style, headers) = (printer.style, printer.headers);
    writeln!(out, "{}", style.paint(&d.headline(), Tint::Bold))?;
    for (side, spots) in [("--from", &d.blind_spots.from), ("--to", &d.blind_spots.to)] {
        if spots.is_empty() {
            continue;
        }
        writeln!(out)?;
        let line = format!("Blind spots of the {side} side: what it holds there is not compared:");
        writeln!(out, "{}", style.paint(&line, Tint::Bad))?;
        for s in spots {
            let line = format!("  {}", blind_spot_line(s));
            writeln!(out, "{}", style.paint(&line, Tint::Bad))?;
        }
    }
    if !d.objects.is_empty() {
        writeln!(out, "\nObjects:")?;
        let mut t = Table::new(vec!["KIND", "NAMESPACE", "NAME", "CHANGE"]);
        for o in &d.objects {
            t.row(vec![
                (o.object.kind.to_string(), Tint::Plain),
                (namespace(&o.object), Tint::Plain),
                (o.object.name.to_string(), Tint::Plain),
                (o.change.as_str().to_string(), Tint::Warn),
            ]);
        }
        t.write(out, style, headers)?;
    }
    if !d.verdicts.is_empty() {
        writeln!(out, "\nVerdicts:")?;
        verdicts_table(d).write(out, style, headers)?;
    }
    if !d.changes.is_empty() {
        writeln!(out, "\nEffective changes:")?;
        changes_by(&d.changes).write(out, style, headers)?;
    }
    for (title, findings) in [
        ("New findings:", &d.findings.appeared),
        ("Findings cleared:", &d.findings.cleared),
    ] {
        if !findings.is_empty() {
            writeln!(out, "\n{title}")?;
            findings_table(out, findings, printer)?;
        }
    }
    Ok(())
}

fn namespace(r: &ObjRef) -> String {
    r.namespace.as_deref().unwrap_or_default().to_string()
}

/// One row per policy whose verdict changes: STATUS and AFFECTS before → after, why.
fn verdicts_table(d: &PolicyDiff) -> Table {
    let mut t = Table::new(vec![
        "KIND",
        "NAMESPACE",
        "NAME",
        "STATUS",
        "AFFECTS",
        "WHY",
    ]);
    for v in &d.verdicts {
        let status = |x: &Option<crate::query::diff::Verdict>| {
            x.as_ref().map_or("-".to_string(), |v| v.status.clone())
        };
        let affects = |x: &Option<crate::query::diff::Verdict>| {
            x.as_ref()
                .map_or("-".to_string(), |v| v.affects.to_string())
        };
        t.row(vec![
            (v.policy.kind.to_string(), Tint::Plain),
            (namespace(&v.policy), Tint::Plain),
            (v.policy.name.to_string(), Tint::Plain),
            (
                format!("{} → {}", status(&v.before), status(&v.after)),
                Tint::Warn,
            ),
            (
                format!("{} → {}", affects(&v.before), affects(&v.after)),
                Tint::Plain,
            ),
            (v.reasons.join("; "), Tint::Dim),
        ]);
    }
    t
}

/// `blast-radius`'s table of changes, with a column for the policies behind the values
/// before and after.
fn changes_by(changes: &[EffectiveChange]) -> Table {
    let plain: Vec<crate::query::blast::Change> =
        changes.iter().map(|c| c.change.clone()).collect();
    let by: Vec<String> = changes
        .iter()
        .map(|c| {
            format!(
                "{} → {}",
                policies(&c.sources_before),
                policies(&c.sources_after)
            )
        })
        .collect();
    changes_table(&plain, Some(&by))
}

/// The policies that set a spec's values, each once: `RetryPolicy baker/retries`, or
/// `-` for none.
pub(crate) fn policies(sources: &[Source]) -> String {
    let mut names: Vec<String> = Vec::new();
    for s in sources {
        let name = format!("{} {}", s.policy.kind, s.policy.ns_name());
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.is_empty() {
        true => "-".to_string(),
        false => names.join(", "),
    }
}
