//! Text for people: kubectl-describe-like pages, tables, settings with the policy
//! behind each one. This module holds what the pages share (references as people read
//! them, fields, wrapping, findings and blind-spot blocks); each kind of output has its
//! own: `tables`, `settings` (and `effective`), `describe`, `blast`.

use super::age::age;
use super::escape::one_line;
use super::table::Table;
use super::{status_painted, status_tint, Printer, Style, Tint};
use crate::model::BlindSpot;
use crate::model::ObjRef;
use crate::query::{
    Effective, KindRow, PolicyDescription, PolicyRow, Relation, Reported, TargetDescription,
};
use crate::topology::{Finding, Severity};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::{self, Write};

mod blast;
mod dependents;
mod describe;
mod diff;
mod settings;
mod tables;

pub use blast::*;
pub use dependents::*;
pub use describe::*;
pub use diff::diff;
pub use settings::*;
pub use tables::*;

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
pub(crate) fn human_ref(obj_ref: &ObjRef) -> String {
    match &obj_ref.section {
        Some(s) => format!(
            "{} {} of {} {}",
            section_word(&obj_ref.kind),
            s,
            obj_ref.kind,
            obj_ref.ns_name()
        ),
        None => format!("{} {}", obj_ref.kind, obj_ref.ns_name()),
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
    // A core kind has no group to name (`Secret`, not `Secret.`).
    let kind = match b.group.is_empty() {
        true => b.kind.clone(),
        false => format!("{}.{}", b.kind, b.group),
    };
    format!("{kind}{ns}: {:?}: {}", b.reason, b.message)
}

/// `Name:         value`, the value broken at spaces to keep within the page's width.
fn field(out: &mut impl Write, name: &str, value: &str) -> io::Result<()> {
    let label = format!("{name}:");
    let first = crate::render::width(&label).max(14);
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
        let w = crate::render::width(word);
        if !empty && used + 1 + w > width {
            lines.push(std::mem::take(&mut line));
            line.push_str(indent);
            used = crate::render::width(indent);
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
        let first = 2 + crate::render::width(&code) + 2;
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
        if !empty && crate::render::width(&joined) > width {
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
        if !line.is_empty() && crate::render::width(&joined) > width {
            lines.push(std::mem::take(&mut line));
            line = format!("  > {step}");
        } else {
            line = joined;
        }
    }
    lines.push(line);
    lines
}

/// `rule orders` of a section reference (its object is the one described).
fn section_only(obj_ref: &ObjRef) -> String {
    match &obj_ref.section {
        Some(s) => format!("{} {s}", section_word(&obj_ref.kind)),
        None => human_ref(obj_ref),
    }
}

/// Name, Namespace and Kind, as every description starts.
fn object_header(out: &mut impl Write, obj_ref: &ObjRef) -> io::Result<()> {
    field(out, "Name", &obj_ref.name)?;
    if let Some(section) = &obj_ref.section {
        field(out, "Section", section)?;
    }
    if let Some(ns) = &obj_ref.namespace {
        field(out, "Namespace", ns)?;
    }
    let group = if obj_ref.group.is_empty() {
        "core"
    } else {
        &obj_ref.group
    };
    field(out, "Kind", &format!("{} ({group})", obj_ref.kind))
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

#[cfg(test)]
mod tests;
