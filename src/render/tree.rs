//! `tree`: the hierarchy with policies hung on the nodes they attach to.

use super::human::{human_ref, section_word};
use super::{status_painted, status_tint, Printer, Style, Tint};
use crate::query::outline::PolicyOutline;
use crate::query::TreeNode;
use crate::topology::{PolicyReference, RefReason};
use std::io::{self, Write};

/// A node's label: a section by its name under its object, but at the top (a target
/// a policy names that did not resolve, drawn apart) with its object too, or nothing
/// would say which Gateway has no listener `http-2`.
fn label(n: &TreeNode, top: bool) -> String {
    let r = &n.obj_ref;
    match &r.section {
        Some(_) if top => human_ref(r),
        Some(s) => format!("{} {s}", section_word(&r.kind)),
        None => format!("{} {}", r.kind, r.ns_name()),
    }
}

/// `tree` (and `describe -o tree` of an object): each root with what hangs below it.
pub fn write(out: &mut impl Write, roots: &[TreeNode], printer: &Printer) -> io::Result<()> {
    let style = printer.style;
    for r in roots {
        node(out, r, "", None, style)?;
    }
    Ok(())
}

/// `describe POLICY -o tree`: the policy, then its targets with what it reaches below.
pub fn write_policy(out: &mut impl Write, o: &PolicyOutline, printer: &Printer) -> io::Result<()> {
    let style = printer.style;
    writeln!(
        out,
        "◆ {}  {}",
        style.paint(&human_ref(&o.policy), Tint::Bold),
        {
            let (status, tint) = status_painted(o.status, o.reported.as_ref());
            style.paint(&status, tint)
        }
    )?;
    for (i, t) in o.targets.iter().enumerate() {
        node(out, t, "", Some(i + 1 == o.targets.len()), style)?;
    }
    Ok(())
}

/// A policy's references, under it: each an edge of its own (`⇢`), to the object it
/// names, with the field, and why it does not resolve where it does not.
fn references(
    out: &mut impl Write,
    refs: &[PolicyReference],
    prefix: &str,
    style: Style,
) -> io::Result<()> {
    for (i, r) in refs.iter().enumerate() {
        let conn = if i + 1 == refs.len() {
            "└╌╌ "
        } else {
            "├╌╌ "
        };
        let why = match r.reason {
            None => String::new(),
            Some(RefReason::Unchecked) => style.paint("  Unchecked", Tint::Dim),
            Some(reason) => style.paint(&format!("  {reason:?}"), Tint::Bad),
        };
        writeln!(
            out,
            "{prefix}{conn}⇢ {}  {}{why}",
            human_ref(&r.target),
            style.paint(&r.path, Tint::Dim)
        )?;
    }
    Ok(())
}

fn node(
    out: &mut impl Write,
    n: &TreeNode,
    prefix: &str,
    last: Option<bool>,
    style: Style,
) -> io::Result<()> {
    let (branch, child_prefix) = match last {
        None => (String::new(), String::new()),
        Some(true) => (format!("{prefix}└── "), format!("{prefix}    ")),
        Some(false) => (format!("{prefix}├── "), format!("{prefix}│   ")),
    };
    let mut text = style.paint(
        &label(n, last.is_none()),
        if n.obj_ref.section.is_some() {
            Tint::Plain
        } else {
            Tint::Bold
        },
    );
    if let Some(s) = n.status {
        text.push_str("  ");
        text.push_str(&style.paint(s.as_str(), status_tint(s)));
    }
    if n.repeated {
        text.push_str(&style.paint("  (shown above)", Tint::Dim));
    }
    if n.truncated {
        let more = format!(
            "  (more below: deeper than {} levels)",
            crate::query::MAX_DEPTH
        );
        text.push_str(&style.paint(&more, Tint::Dim));
    }
    writeln!(out, "{branch}{text}")?;
    let total = n.policies.len() + n.children.len();
    let mut i = 0;
    for p in &n.policies {
        i += 1;
        let conn = if i == total {
            "└── "
        } else {
            "├── "
        };
        let via = if p.via_namespace {
            format!(
                " (Namespace {})",
                p.policy.namespace.as_deref().unwrap_or_default()
            )
        } else {
            String::new()
        };
        let (status, tint) = status_painted(p.status, p.reported.as_ref());
        writeln!(
            out,
            "{child_prefix}{conn}◆ {}{via}  {}",
            human_ref(&p.policy),
            style.paint(&status, tint)
        )?;
        let below = if i == total { "    " } else { "│   " };
        references(out, &p.references, &format!("{child_prefix}{below}"), style)?;
    }
    for c in &n.children {
        i += 1;
        node(out, c, &child_prefix, Some(i == total), style)?;
    }
    Ok(())
}
