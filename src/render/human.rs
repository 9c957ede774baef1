//! Text for people: kubectl-describe-like pages, tables, settings with the policy
//! behind each one.

use super::age::age;
use super::table::Table;
use super::{status_tint, Style, Tint};
use crate::model::BlindSpot;
use crate::model::ObjRef;
use crate::query::{Effective, KindRow, PolicyDescription, PolicyRow, Relation, TargetDescription};
use crate::topology::{Finding, Severity};
use rayon::prelude::*;
use serde_json::Value;
use std::fmt::Write as _;
use std::io::{self, Write};

/// How a target is written in a table: `Gateway/cupcake-gw#https` (namespace when it
/// is not the policy's own).
pub(crate) fn target_cell(t: &ObjRef, own_ns: Option<&str>) -> String {
    let mut s = format!("{}/", t.kind);
    if let Some(ns) = &t.namespace {
        if Some(ns.as_str()) != own_ns {
            s.push_str(ns);
            s.push('/');
        }
    }
    s.push_str(&t.name);
    if let Some(sec) = &t.section {
        s.push('#');
        s.push_str(sec);
    }
    s
}

/// `section` spelled for people: a listener, a rule, a port.
pub(crate) fn section_word(kind: &str) -> &'static str {
    match kind {
        "Gateway" | "ListenerSet" | "XListenerSet" => "listener",
        "Service" | "ServiceImport" => "port",
        _ => "rule",
    }
}

/// `HTTPRoute baker/baker`, `listener https of Gateway infra/cupcake-gw`.
pub(crate) fn human_ref(r: &ObjRef) -> String {
    match &r.section {
        Some(s) => format!(
            "{} {} of {} {}",
            section_word(&r.kind),
            s,
            r.kind,
            r.ns_name()
        ),
        None => format!("{} {}", r.kind, r.ns_name()),
    }
}

/// A context path, compactly: `GatewayClass cupcake-class > Gateway infra/cupcake-gw > listener http > ...`.
/// The last two levels above the target (namespace levels left out): enough to tell
/// one context from another in a table; `-o json` has the whole paths.
pub(crate) fn via_line(path: &[ObjRef]) -> String {
    let above: Vec<ObjRef> = path
        .iter()
        .take(path.len().saturating_sub(1))
        .filter(|r| r.kind != "Namespace")
        .cloned()
        .collect();
    if above.is_empty() {
        return "-".into();
    }
    let tail = &above[above.len().saturating_sub(2)..];
    let line = path_line(tail);
    if above.len() > tail.len() {
        format!("… > {line}")
    } else {
        line
    }
}

pub(crate) fn path_line(path: &[ObjRef]) -> String {
    path.iter()
        .map(|r| match &r.section {
            Some(s) => format!("{} {s}", section_word(&r.kind)),
            None => format!("{} {}", r.kind, r.ns_name()),
        })
        .collect::<Vec<_>>()
        .join(" > ")
}

#[allow(clippy::too_many_arguments)]
pub fn get_policies(
    out: &mut impl Write,
    rows: &[PolicyRow],
    wide: bool,
    headers: bool,
    all_ns: bool,
    now: i64,
    style: Style,
    show_labels: bool,
) -> io::Result<()> {
    let mut h = vec![];
    if all_ns {
        h.push("NAMESPACE");
    }
    h.extend([
        "NAME", "KIND", "CLASS", "TARGETS", "STATUS", "AFFECTS", "AGE",
    ]);
    if wide {
        h.extend(["STRATEGY", "SOURCE"]);
    }
    if show_labels {
        h.push("LABELS");
    }
    // Every policy of a large cluster is tens of thousands of rows: made on every core.
    let parts: Vec<Table> = rows
        .par_chunks(1024)
        .map(|run| {
            let mut t = Table::new(Vec::new());
            for r in run {
                t.start_row();
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
                        for (i, x) in targets.iter().enumerate() {
                            if i > 0 {
                                s.push(',');
                            }
                            s.push_str(&target_cell(x, r.policy.namespace.as_deref()));
                        }
                    }
                });
                t.cell(r.status.as_str(), status_tint(r.status));
                t.cell_with(Tint::Plain, |s| write!(s, "{}", r.affects).unwrap_or(()));
                t.cell(&age(r.creation_timestamp.as_deref(), now), Tint::Plain);
                if wide {
                    t.cell(&r.strategy, Tint::Plain);
                    t.cell(r.class_source, Tint::Plain);
                }
                if show_labels {
                    t.cell(&super::columns::labels_cell(&r.labels), Tint::Plain);
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

pub fn get_kinds(
    out: &mut impl Write,
    rows: &[KindRow],
    wide: bool,
    headers: bool,
    style: Style,
) -> io::Result<()> {
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
            (r.source.to_string(), Tint::Plain),
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

pub fn findings_table(
    out: &mut impl Write,
    findings: &[Finding],
    headers: bool,
    style: Style,
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
    t.write(out, style, headers)
}

fn severity_tint(s: Severity) -> Tint {
    match s {
        Severity::Error => Tint::Bad,
        Severity::Warning => Tint::Warn,
        Severity::Info => Tint::Dim,
    }
}

/// `retrypolicies... in namespace baker: Forbidden: ...`, as every blind-spot list prints it.
fn blind_spot_line(b: &BlindSpot) -> String {
    let ns = b
        .namespace
        .as_deref()
        .map(|n| format!(" in namespace {n}"))
        .unwrap_or_default();
    format!("{}.{}{ns}: {:?}: {}", b.kind, b.group, b.reason, b.message)
}

/// `Name:         value`, the value broken at spaces to keep within the page's width.
fn field(out: &mut impl Write, name: &str, value: &str) -> io::Result<()> {
    let label = format!("{name}:");
    let first = super::width(&label).max(14);
    for (i, line) in wrap_words(value, first, FIELD_INDENT, PAGE_WIDTH)
        .iter()
        .enumerate()
    {
        match i {
            0 => writeln!(out, "{label:<14}{line}")?,
            _ => writeln!(out, "{line}")?,
        }
    }
    Ok(())
}

/// `  text`, broken at spaces into lines of the page's width, the lines after the first
/// indented further.
fn indented(out: &mut impl Write, text: &str) -> io::Result<()> {
    for (i, line) in wrap_words(text, 2, "    ", PAGE_WIDTH).iter().enumerate() {
        match i {
            0 => writeln!(out, "  {line}")?,
            _ => writeln!(out, "{line}")?,
        }
    }
    Ok(())
}

/// Where a field's value starts, and its lines after the first.
const FIELD_INDENT: &str = "              ";

/// `text` broken at spaces into lines of at most `width` columns: the first line's text
/// alone (its caller writes `first` columns before it), each other line starting with
/// `indent`. A word longer than a line is left whole.
pub(crate) fn wrap_words(text: &str, first: usize, indent: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = first;
    let mut empty = true;
    for word in text.split(' ') {
        let w = super::width(word);
        if !empty && used + 1 + w > width {
            lines.push(std::mem::take(&mut line));
            line.push_str(indent);
            used = super::width(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
            used += 1;
        }
        line.push_str(word);
        used += w;
        empty = false;
    }
    lines.push(line);
    lines
}

fn blind_spots(out: &mut impl Write, spots: &[BlindSpot], style: Style) -> io::Result<()> {
    if spots.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        style.paint("Blind spots (the answer may be incomplete):", Tint::Warn)
    )?;
    for b in spots {
        indented(out, &blind_spot_line(b))?;
    }
    Ok(())
}

fn findings_block(out: &mut impl Write, findings: &[Finding], style: Style) -> io::Result<()> {
    if findings.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "Findings:")?;
    for f in findings {
        let tint = severity_tint(f.severity);
        let code = format!("{:?}", f.code);
        let text = format!("{}: {}", human_ref(&f.object), f.message);
        let first = 2 + super::width(&code) + 2;
        for (i, line) in wrap_words(&text, first, "    ", PAGE_WIDTH)
            .iter()
            .enumerate()
        {
            match i {
                0 => writeln!(out, "  {}  {line}", style.paint(&code, tint))?,
                _ => writeln!(out, "{line}")?,
            }
        }
    }
    Ok(())
}

/// A YAML-ish rendering of a spec, each setting followed by the policy that set it.
pub fn settings(
    out: &mut impl Write,
    e: &Effective,
    indent: usize,
    style: Style,
) -> io::Result<()> {
    settings_labelled(out, e, indent, style, &|p| {
        format!("{} {}", p.kind, p.ns_name())
    })
}

/// `settings`, each setting's policy written by `label`.
fn settings_labelled(
    out: &mut impl Write,
    e: &Effective,
    indent: usize,
    style: Style,
    label: &dyn Fn(&ObjRef) -> String,
) -> io::Result<()> {
    // Each leaf's source by its path, looked up once per leaf: an effective spec may
    // have ten thousand leaves from as many policies.
    let mut by_path: std::collections::HashMap<&str, &ObjRef> = Default::default();
    for s in &e.sources {
        by_path.entry(s.path.as_str()).or_insert(&s.policy);
    }
    let source_of =
        |path: &str| -> Option<String> { by_path.get(path).map(|policy| label(policy)) };
    let lines: Vec<(String, Option<String>)> = spec_lines(&e.spec)
        .into_iter()
        .map(|(line, path)| {
            let src = path.and_then(|p| source_of(&p));
            (line, src)
        })
        .collect();
    let width = lines
        .iter()
        .map(|(l, _)| super::width(l))
        .max()
        .unwrap_or(0);
    let pad = " ".repeat(indent);
    for (l, s) in lines {
        match s {
            Some(s) => {
                let gap = width - super::width(&l) + 2;
                writeln!(
                    out,
                    "{pad}{l}{}{}",
                    " ".repeat(gap),
                    style.paint(&format!("# {s}"), Tint::Dim)
                )?
            }
            None => writeln!(out, "{pad}{l}")?,
        }
    }
    Ok(())
}

/// A spec as YAML-ish lines, each leaf's with its JSON pointer (a mapping's line has
/// none).
fn spec_lines(spec: &Value) -> Vec<(String, Option<String>)> {
    fn walk(
        v: &Value,
        path: &str,
        depth: usize,
        key: Option<&str>,
        lines: &mut Vec<(String, Option<String>)>,
    ) {
        let pad = "  ".repeat(depth);
        match v {
            Value::Object(m) if !m.is_empty() => {
                if let Some(k) = key {
                    lines.push((format!("{pad}{k}:"), None));
                }
                let d = if key.is_some() { depth + 1 } else { depth };
                for (k, child) in m {
                    let p = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                    walk(child, &p, d, Some(k), lines);
                }
            }
            _ => {
                let text = scalar(v);
                let line = match key {
                    Some(k) => format!("{pad}{k}: {text}"),
                    None => format!("{pad}{text}"),
                };
                lines.push((line, Some(path.to_string())));
            }
        }
    }
    let mut lines = Vec::new();
    walk(spec, "", 0, None, &mut lines);
    lines
}

/// `items` joined with ", " in lines of at most `width` columns, the first starting with
/// `first`, the others with `rest`.
pub(crate) fn wrap_list(first: &str, rest: &str, items: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        let piece = format!("{item}{sep}");
        let joined = if empty {
            format!("{line}{piece}")
        } else {
            format!("{line} {piece}")
        };
        if !empty && super::width(&joined) > width {
            lines.push(std::mem::take(&mut line));
            line = format!("{rest}{piece}");
        } else {
            line = joined;
        }
        empty = false;
    }
    lines.push(line);
    lines
}

/// A leaf in flow style: strings bare when YAML would read them back as strings.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./*".contains(c))
                && s.parse::<f64>().is_err()
                && !matches!(
                    s.to_ascii_lowercase().as_str(),
                    "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
                );
            if plain {
                s.clone()
            } else {
                serde_json::to_string(s).unwrap_or_default()
            }
        }
        Value::Array(a) => format!("[{}]", a.iter().map(scalar).collect::<Vec<_>>().join(", ")),
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", scalar(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

const MAX_PATHS: usize = 3;

pub(crate) fn effective_blocks(
    out: &mut impl Write,
    effective: &[Effective],
    style: Style,
) -> io::Result<()> {
    effective_blocks_labelled(out, effective, style, &|p| {
        format!("{} {}", p.kind, p.ns_name())
    })
}

/// The width human pages keep within when names are short (`-o wide` aside).
pub(crate) const PAGE_WIDTH: usize = 100;

/// A context path as lines of at most `width` columns, broken before a ` > `; the
/// lines after the first start with `> `.
pub(crate) fn path_lines(path: &[ObjRef], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for step in path_line(path).split(" > ") {
        let joined = match line.is_empty() {
            true => step.to_string(),
            false => format!("{line} > {step}"),
        };
        if !line.is_empty() && super::width(&joined) > width {
            lines.push(std::mem::take(&mut line));
            line = format!("  > {step}");
        } else {
            line = joined;
        }
    }
    lines.push(line);
    lines
}

fn effective_blocks_labelled(
    out: &mut impl Write,
    effective: &[Effective],
    style: Style,
    label: &dyn Fn(&ObjRef) -> String,
) -> io::Result<()> {
    for e in effective {
        writeln!(out)?;
        let where_ = match &e.target.section {
            Some(_) => format!(" at {}", human_ref(&e.target)),
            None => String::new(),
        };
        writeln!(
            out,
            "  {}{}",
            style.paint(
                &format!("{}.{}", e.policy_kind.kind, e.policy_kind.group),
                Tint::Bold
            ),
            where_
        )?;
        let n = e.contexts.len();
        writeln!(
            out,
            "    {n} {}:",
            if n == 1 { "context" } else { "contexts" }
        )?;
        for p in e.contexts.iter().take(MAX_PATHS) {
            for line in path_lines(p, PAGE_WIDTH - 6) {
                writeln!(out, "      {line}")?;
            }
        }
        if n > MAX_PATHS {
            writeln!(
                out,
                "      ... and {} more (-o json lists them all)",
                n - MAX_PATHS
            )?;
        }
        writeln!(out, "    settings:")?;
        settings_labelled(out, e, 6, style, label)?;
    }
    Ok(())
}

/// `effective` for people: the object, then each policy kind's settings with, beside
/// each, the policy that set it and how that policy arrives here.
pub fn effective(
    out: &mut impl Write,
    e: &crate::query::EffectivePolicies,
    reaching: &[crate::query::ReachingPolicy],
    style: Style,
) -> io::Result<()> {
    object_header(out, &e.target)?;
    writeln!(out)?;
    if e.effective.is_empty() && e.sections.is_empty() {
        writeln!(
            out,
            "Effective policies: none (no policy reaches this object)"
        )?;
    } else {
        writeln!(
            out,
            "Effective policies (each setting with the policy that set it, and how it arrives):"
        )?;
        let arrival = |p: &ObjRef| -> String {
            let name = match p.namespace == e.target.namespace {
                true => p.name.to_string(),
                false => p.ns_name(),
            };
            match reaching.iter().find(|r| r.policy == *p) {
                Some(r) => format!("{name}, {}", how_it_reaches(r)),
                None => name,
            }
        };
        effective_blocks_labelled(out, &e.effective, style, &arrival)?;
        // Each section whose effective spec differs (its blocks say "at <section>").
        for s in &e.sections {
            effective_blocks_labelled(out, &s.effective, style, &arrival)?;
        }
    }
    blind_spots(out, &e.blind_spots, style)
}

/// `rule orders` of a section reference (its object is the one described).
fn section_only(r: &ObjRef) -> String {
    match &r.section {
        Some(s) => format!("{} {s}", section_word(&r.kind)),
        None => human_ref(r),
    }
}

/// Name, Namespace and Kind, as every description starts.
fn object_header(out: &mut impl Write, r: &ObjRef) -> io::Result<()> {
    field(out, "Name", &r.name)?;
    if let Some(section) = &r.section {
        field(out, "Section", section)?;
    }
    if let Some(ns) = &r.namespace {
        field(out, "Namespace", ns)?;
    }
    let group = if r.group.is_empty() { "core" } else { &r.group };
    field(out, "Kind", &format!("{} ({group})", r.kind))
}

/// `describe` of an object for people; `wide`: the policies' table with their class,
/// how they reach the object and where they attach spelled out (wider than the page).
pub fn describe_target(
    out: &mut impl Write,
    d: &TargetDescription,
    wide: bool,
    style: Style,
) -> io::Result<()> {
    object_header(out, &d.target)?;
    if !d.parents.is_empty() {
        field(
            out,
            "Parents",
            &d.parents
                .iter()
                .map(human_ref)
                .collect::<Vec<_>>()
                .join(", "),
        )?;
    }
    if !d.children.is_empty() {
        field(
            out,
            "Children",
            &d.children
                .iter()
                .map(human_ref)
                .collect::<Vec<_>>()
                .join(", "),
        )?;
    }
    listeners_and_routes(out, d, style)?;
    writeln!(out)?;
    if d.policies.is_empty() {
        writeln!(out, "Policies:     none reach this object")?;
    } else {
        writeln!(out, "Policies ({} reach this object):", d.policies.len())?;
        let t = match wide {
            true => policies_table_wide(d),
            false => policies_table(d),
        };
        indented_table(out, t, style)?;
    }
    if !d.effective.is_empty() || !d.sections.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "Effective policies (each setting with the policy that set it):"
        )?;
        effective_blocks(out, &d.effective, style)?;
        // Each section whose effective spec differs (its blocks say "at <section>").
        for s in &d.sections {
            effective_blocks(out, &s.effective, style)?;
        }
    }
    if !d.reported_affected.is_empty() {
        writeln!(out)?;
        writeln!(out, "Reported on the object by controllers:")?;
        for r in &d.reported_affected {
            let how = if r.message.starts_with("annotation") {
                format!(" ({})", r.message)
            } else {
                String::new()
            };
            writeln!(out, "  {}={}{how}", r.type_, r.status)?;
        }
    }
    findings_block(out, &d.findings, style)?;
    blind_spots(out, &d.blind_spots, style)
}

/// The policies that reach an object, within the page's width: each policy named
/// in its namespace when that is not the object's, and how it reaches the object
/// (`how_it_reaches`).
fn policies_table(d: &TargetDescription) -> Table {
    let mut t = Table::new(vec!["KIND", "POLICY", "HOW", "STATUS"]);
    for p in &d.policies {
        let name = match p.policy.namespace == d.target.namespace {
            true => p.policy.name.to_string(),
            false => p.policy.ns_name(),
        };
        t.row(vec![
            (p.policy.kind.to_string(), Tint::Plain),
            (name, Tint::Plain),
            (how_it_reaches(p), Tint::Plain),
            (p.status.as_str().to_string(), status_tint(p.status)),
        ]);
    }
    t
}

/// How a policy reaches the object described, as `describe` and `effective` say it:
/// `attached here`, `on rule orders`, `from Gateway/gw#https` (the TARGETS column's
/// spelling, in the policy's namespace unless it names another).
fn how_it_reaches(p: &crate::query::ReachingPolicy) -> String {
    match p.relation {
        Relation::Direct => "attached here".to_string(),
        Relation::Section => format!("on {}", section_only(&p.attached_to)),
        Relation::Inherited => format!(
            "from {}",
            target_cell(&p.attached_to, p.policy.namespace.as_deref())
        ),
    }
}

/// `policies_table` with the class, the relation and the attachment point in words.
fn policies_table_wide(d: &TargetDescription) -> Table {
    let mut t = Table::new(vec![
        "KIND",
        "POLICY",
        "CLASS",
        "HOW",
        "ATTACHED TO",
        "STATUS",
    ]);
    for p in &d.policies {
        let how = match p.relation {
            Relation::Direct => "direct",
            Relation::Section => "section",
            Relation::Inherited => "inherited",
        };
        t.row(vec![
            (p.policy.kind.to_string(), Tint::Plain),
            (p.policy.ns_name(), Tint::Plain),
            (format!("{:?}", p.class), Tint::Plain),
            (how.to_string(), Tint::Plain),
            (human_ref(&p.attached_to), Tint::Plain),
            (p.status.as_str().to_string(), status_tint(p.status)),
        ]);
    }
    t
}

/// A table, indented by two spaces as the blocks of a page are.
fn indented_table(out: &mut impl Write, t: Table, style: Style) -> io::Result<()> {
    let mut buf = Vec::new();
    t.write(&mut buf, style, true)?;
    for line in String::from_utf8_lossy(&buf).lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// A Gateway's (or ListenerSet's, or one listener's) listeners and the routes attached.
fn listeners_and_routes(
    out: &mut impl Write,
    d: &TargetDescription,
    style: Style,
) -> io::Result<()> {
    if let Some(listeners) = &d.listeners {
        writeln!(out)?;
        if listeners.is_empty() {
            writeln!(out, "Listeners:    none")?;
        } else {
            writeln!(out, "Listeners:")?;
            let mut t = Table::new(vec!["NAME", "PORT", "PROTOCOL", "HOSTNAME", "ROUTES"]);
            for l in listeners {
                let port = match &l.port {
                    Value::Null => "-".to_string(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                t.row(vec![
                    (l.name.clone(), Tint::Plain),
                    (port, Tint::Plain),
                    (
                        l.protocol.clone().unwrap_or_else(|| "-".into()),
                        Tint::Plain,
                    ),
                    (
                        l.hostname.clone().unwrap_or_else(|| "-".into()),
                        Tint::Plain,
                    ),
                    (l.attached_routes.to_string(), Tint::Plain),
                ]);
            }
            indented_table(out, t, style)?;
        }
    }
    if let Some(routes) = &d.routes {
        writeln!(out)?;
        if routes.is_empty() {
            writeln!(out, "Routes:       none attached")?;
        } else {
            writeln!(out, "Routes ({} attached):", routes.len())?;
            let mut t = Table::new(vec!["KIND", "NAME", "LISTENERS"]);
            for r in routes {
                let through = match r.listeners.is_empty() {
                    true => "-".to_string(),
                    false => r.listeners.join(", "),
                };
                t.row(vec![
                    (r.route.kind.to_string(), Tint::Plain),
                    (r.route.ns_name(), Tint::Plain),
                    (through, Tint::Plain),
                ]);
            }
            indented_table(out, t, style)?;
        }
    }
    Ok(())
}

pub fn describe_policy(
    out: &mut impl Write,
    d: &PolicyDescription,
    now: i64,
    style: Style,
) -> io::Result<()> {
    field(out, "Name", &d.policy.name)?;
    if let Some(ns) = &d.policy.namespace {
        field(out, "Namespace", ns)?;
    }
    field(
        out,
        "Kind",
        &format!("{} ({})", d.policy.kind, d.policy.group),
    )?;
    let source = match d.class_source {
        "label" => "from the CRD's gateway.networking.k8s.io/policy label",
        "registry" => "from the built-in registry",
        "declared" => "declared with --policy-kind",
        _ => "assumed: the name ends in Policy and it has a target",
    };
    field(out, "Class", &format!("{:?} ({source})", d.class))?;
    if let Some(label) = d.label_class {
        field(
            out,
            "Label",
            &format!(
                "{label:?}: the kind's gateway.networking.k8s.io/policy label differs from how its controller behaves ({:?})",
                d.class
            ),
        )?;
    }
    if !d.project.is_empty() {
        field(out, "Project", d.project)?;
    }
    field(out, "Strategy", &d.strategy)?;
    if !d.merge.is_empty() {
        field(out, "Kind merges", d.merge)?;
    }
    // What the registry knows of the kind, and where it read it.
    if !d.cite.is_empty() {
        field(out, "Same target", d.same_target)?;
        field(out, "Namespaces", d.namespaces)?;
        field(out, "Read from", d.cite)?;
    }
    if let Some(ts) = &d.creation_timestamp {
        field(
            out,
            "Created",
            &format!("{ts} ({} ago)", age(Some(ts), now)),
        )?;
    }
    match &d.settings {
        Value::Object(m) if m.is_empty() => field(out, "Settings", "none")?,
        Value::Null => field(out, "Settings", "none")?,
        spec => {
            writeln!(out, "Settings:")?;
            for (line, _) in spec_lines(spec) {
                writeln!(out, "  {line}")?;
            }
        }
    }
    writeln!(out, "Targets:")?;
    for t in &d.targets {
        let state = match t.reason {
            None => style.paint("resolved", Tint::Good),
            Some(c) => style.paint(&format!("{c:?}"), Tint::Bad),
        };
        writeln!(out, "  {}   {}", human_ref(&t.target), state)?;
    }
    field(
        out,
        "Status",
        &style.paint(
            &format!("{} (computed)", d.status.computed.as_str()),
            status_tint(d.status.computed),
        ),
    )?;
    for lost in &d.lost_to {
        writeln!(
            out,
            "              loses to {} {} (older, GEP-713 None)",
            lost.kind,
            lost.ns_name()
        )?;
    }
    if d.status.reported.is_empty() {
        field(
            out,
            "Reported",
            "nothing (no controller has written a status)",
        )?;
    } else {
        writeln!(out, "Reported:")?;
        for r in &d.status.reported {
            let on = r
                .ancestor
                .as_ref()
                .map(|a| format!(" on {}", human_ref(a)))
                .unwrap_or_default();
            let by = r
                .controller
                .as_deref()
                .map(|c| format!("{c}: "))
                .unwrap_or_default();
            let reason = if r.reason.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.reason)
            };
            let text = format!("{by}{}={}{reason}{on}", r.type_, r.status);
            indented(out, &text)?;
        }
    }
    writeln!(out)?;
    if d.affects.is_empty() {
        writeln!(out, "Affects:      nothing")?;
    } else {
        let extra = if d.affects.len() != d.affects_count {
            format!(" ({} with sections)", d.affects.len())
        } else {
            String::new()
        };
        let objects = match d.affects_count {
            1 => "object",
            _ => "objects",
        };
        writeln!(out, "Affects {} {objects}{extra}:", d.affects_count)?;
        let mut t = Table::new(vec!["KIND", "NAME", "SECTION", "STATUS"]);
        for a in &d.affects {
            t.row(vec![
                (a.target.kind.to_string(), Tint::Plain),
                (a.target.ns_name(), Tint::Plain),
                (
                    a.target
                        .section
                        .clone()
                        .unwrap_or_else(|| "-".into())
                        .to_string(),
                    Tint::Plain,
                ),
                (a.status.as_str().to_string(), status_tint(a.status)),
            ]);
        }
        let mut buf = Vec::new();
        t.write(&mut buf, style, true)?;
        for line in String::from_utf8_lossy(&buf).lines() {
            writeln!(out, "  {line}")?;
        }
    }
    overridden_block(out, d, style)?;
    findings_block(out, &d.findings, style)?;
    blind_spots(out, &d.blind_spots, style)
}

/// The policy's settings that lose where it reaches: each setting and the policy it
/// loses to, then the objects where it does.
fn overridden_block(out: &mut impl Write, d: &PolicyDescription, style: Style) -> io::Result<()> {
    // A large cluster's policy may lose to thousands of others: grouped in a map.
    let mut lost: std::collections::BTreeMap<&crate::query::Overridden, Vec<String>> =
        Default::default();
    for a in &d.affects {
        for o in &a.overridden {
            lost.entry(o).or_default().push(human_ref(&a.target));
        }
    }
    if lost.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(
        out,
        "Overridden (settings of this policy that lose, the policy they lose to, and where):"
    )?;
    for (o, objects) in lost {
        writeln!(
            out,
            "  {}  {}",
            style.paint(&o.path, Tint::Warn),
            format_args!("loses to {} {}", o.by.kind, o.by.ns_name())
        )?;
        for line in wrap_list("    at ", "       ", &objects, PAGE_WIDTH) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// `blast-radius`: the headline, blind spots (loudly), then one row per change with
/// the field-level differences (`headers`: the table's header row).
pub fn blast_radius(
    out: &mut impl Write,
    b: &crate::query::blast::BlastRadius,
    headers: bool,
    style: Style,
) -> io::Result<()> {
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
        findings_table(out, &b.findings, headers, style)?;
    }
    if b.changes.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    let several_kinds = b
        .changes
        .iter()
        .any(|c| c.policy_kind != b.changes[0].policy_kind);
    let mut t = Table::new(vec!["KIND", "NAMESPACE", "NAME", "VIA", "BEFORE→AFTER"]);
    for c in &b.changes {
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
        t.row(vec![
            (c.target.kind.to_string(), Tint::Plain),
            (
                c.target.namespace.clone().unwrap_or_default().to_string(),
                Tint::Plain,
            ),
            (name.to_string(), Tint::Plain),
            (via, Tint::Dim),
            (diff, Tint::Warn),
        ]);
    }
    t.write(out, style, headers)
}

/// Leaf-by-leaf differences as `pointer: old → new` (RFC 6901 pointers, arrays
/// compared whole, `-` for absent).
fn value_diff(a: Option<&Value>, b: Option<&Value>, path: &str, out: &mut Vec<String>) {
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
            value_diff(
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
    out.push(format!("{p}: {} → {}", show(a), show(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_words_keeps_lines_within_the_width_and_long_words_whole() {
        let text = "one two three four five six seven";
        let lines = wrap_words(text, 4, "  ", 14);
        assert_eq!(lines, ["one two", "  three four", "  five six", "  seven"]);
        // The first line's prefix counts: 4 + "one two" = 11 columns.
        assert!(lines.iter().skip(1).all(|l| crate::render::width(l) <= 14));
        assert_eq!(
            wrap_words("a-very-long-word b", 0, "  ", 5),
            ["a-very-long-word", "  b"]
        );
        assert_eq!(wrap_words("", 3, "  ", 10), [""]);
    }

    #[test]
    fn wrap_list_breaks_after_a_comma() {
        let items: Vec<String> = ["alpha", "beta", "gamma"].map(String::from).to_vec();
        assert_eq!(
            wrap_list("at ", "   ", &items, 15),
            ["at alpha, beta,", "   gamma"]
        );
    }
}
