//! kubectl's tables: policies, policy kinds, findings.

use super::*;
use rayon::prelude::*;

/// The targets `get`'s TARGETS column names before `+N more` (all of them with `-o wide`).
const TARGETS_SHOWN: usize = 10;

/// Rows made per task when a table is made on every core.
const ROWS_PER_PART: usize = 1024;

/// `get`'s table of the policies `query::policy_rows` lists, as `printer` says (wide,
/// headers, labels, the NAMESPACE column); `events`: `--output-watch-events`' EVENT
/// column, a word per row.
pub fn policies_table(
    out: &mut impl Write,
    rows: &[PolicyRow],
    events: Option<&[&str]>,
    printer: &Printer,
) -> io::Result<()> {
    let Printer {
        style,
        headers,
        wide,
        show_labels,
        with_namespace: all_ns,
        ..
    } = *printer;
    let now = printer.now();
    // `--output-watch-events`: kubectl's EVENT column, before every other.
    let mut h = match events {
        Some(_) => vec!["EVENT"],
        None => vec![],
    };
    if all_ns {
        h.push("NAMESPACE");
    }
    h.extend([
        "NAME", "KIND", "CLASS", "TARGETS", "STATUS", "AFFECTS", "AGE",
    ]);
    if wide {
        h.extend(["REPORTED", "STRATEGY", "SOURCE"]);
    }
    if show_labels {
        h.push("LABELS");
    }
    // Every policy of a large cluster is tens of thousands of rows: made on every core.
    let parts: Vec<Table> = rows
        .par_chunks(ROWS_PER_PART)
        .enumerate()
        .map(|(chunk, run)| {
            let mut t = Table::new(Vec::new());
            for (i, r) in run.iter().enumerate() {
                t.start_row();
                if let Some(events) = events {
                    let event = events.get(chunk * ROWS_PER_PART + i).copied();
                    t.cell(event.unwrap_or_default(), Tint::Plain);
                }
                if all_ns {
                    t.cell(
                        r.policy.namespace.as_deref().unwrap_or_default(),
                        Tint::Plain,
                    );
                }
                t.cell(&r.policy.name, Tint::Plain);
                t.cell(&r.policy.kind, Tint::Plain);
                t.cell_with(Tint::Plain, |s| write!(s, "{:?}", r.class).unwrap_or(()));
                t.cell_with(Tint::Plain, |s| match &r.targets[..] {
                    [] => s.push_str("<none>"),
                    targets => {
                        // A selector may pick thousands (a Deployment's Pods): the
                        // first few, and how many more, unless the table is wide.
                        let shown = match wide {
                            true => targets.len(),
                            false => targets.len().min(TARGETS_SHOWN),
                        };
                        for (i, x) in targets[..shown].iter().enumerate() {
                            if i > 0 {
                                s.push(',');
                            }
                            s.push_str(&target_cell(x, r.policy.namespace.as_deref()));
                        }
                        if shown < targets.len() {
                            write!(s, ",+{} more", targets.len() - shown).unwrap_or(());
                        }
                    }
                });
                let (status, tint) = status_painted(r.status, r.reported.as_ref());
                t.cell(&status, tint);
                t.cell_with(Tint::Plain, |s| write!(s, "{}", r.affects).unwrap_or(()));
                t.cell(&age(r.creation_timestamp.as_deref(), now), Tint::Plain);
                if wide {
                    let word = r.reported.as_ref().map_or("<none>", Reported::as_str);
                    t.cell(&one_line(word), Tint::Plain);
                    t.cell(&r.strategy, Tint::Plain);
                    t.cell(r.class_origin, Tint::Plain);
                }
                if show_labels {
                    t.cell(&crate::render::columns::labels_cell(&r.labels), Tint::Plain);
                }
            }
            t
        })
        .collect();
    let mut t = Table::new(h);
    for part in parts {
        t.append(part);
    }
    t.write(out, style, headers)
}

/// Whether `get`'s table, as `printer` prints it (wide, with `--show-labels`), shows two
/// rows of a policy with the same cells, AGE compared by the creation time it counts
/// from: `get -w` prints a row again only when they differ.
pub fn policy_cells_alike(a: &PolicyRow, b: &PolicyRow, printer: &Printer) -> bool {
    let (wide, show_labels) = (printer.wide, printer.show_labels);
    let status = |r: &PolicyRow| status_painted(r.status, r.reported.as_ref()).0;
    let shown = match wide {
        true => a.targets.len(),
        false => TARGETS_SHOWN,
    };
    a.policy == b.policy
        && a.class == b.class
        && a.targets
            .iter()
            .take(shown)
            .eq(b.targets.iter().take(shown))
        && a.targets.len() == b.targets.len()
        && status(a) == status(b)
        && a.affects == b.affects
        && a.creation_timestamp == b.creation_timestamp
        && (!wide
            || (a.reported == b.reported
                && a.strategy == b.strategy
                && a.class_origin == b.class_origin))
        && (!show_labels || a.labels == b.labels)
}

/// `get kinds`' table of the rows `query::kind_rows` lists.
pub fn kinds_table(out: &mut impl Write, rows: &[KindRow], printer: &Printer) -> io::Result<()> {
    let Printer {
        style,
        headers,
        wide,
        ..
    } = *printer;
    let mut h = vec!["KIND", "GROUP", "CLASS", "SOURCE", "COUNT"];
    if wide {
        h.extend(["PROJECT", "MERGE", "SAME TARGET"]);
    }
    let mut t = Table::new(h);
    for r in rows {
        let mut cells = vec![
            (r.kind.clone(), Tint::Plain),
            (r.group.clone(), Tint::Plain),
            (format!("{:?}", r.class), Tint::Plain),
            (r.origin.to_string(), Tint::Plain),
            (
                r.count.to_string(),
                if r.count > 0 { Tint::Bold } else { Tint::Plain },
            ),
        ];
        if wide {
            cells.push((
                if r.project.is_empty() {
                    "-".into()
                } else {
                    r.project.to_string()
                },
                Tint::Plain,
            ));
            cells.push((r.merge.to_string(), Tint::Plain));
            cells.push((r.same_target.to_string(), Tint::Plain));
        }
        t.row(cells);
    }
    t.write(out, style, headers)
}

/// `check`'s table of findings (and those a blast radius would bring).
pub fn findings_table(
    out: &mut impl Write,
    findings: &[Finding],
    printer: &Printer,
) -> io::Result<()> {
    let mut t = Table::new(vec!["SEVERITY", "CODE", "OBJECT", "MESSAGE"]);
    for f in findings {
        let tint = severity_tint(f.severity);
        t.row(vec![
            (format!("{:?}", f.severity).to_lowercase(), tint),
            (format!("{:?}", f.code), tint),
            (target_cell(&f.object, None), Tint::Plain),
            (f.message.clone(), Tint::Plain),
        ]);
    }
    t.write(out, printer.style, printer.headers)
}
