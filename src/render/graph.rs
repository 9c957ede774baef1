//! `graph`: the picture `query::graph` selects, as Graphviz DOT or a Mermaid
//! flowchart. Namespaces are clusters (subgraphs), each kind of object has its own
//! shape, and policies are notes with dashed edges to what they target, coloured by
//! their computed status.

use super::human::section_word;
use super::{status_tint, Tint};
use crate::effective::PolicyStatus;
use crate::model::ObjRef;
use crate::query::graph::{Graph, GraphNode, GraphNodeKind, GraphReference};
use crate::topology::{RefReason, Role};
use std::io::{self, Write};

/// The lines of a node's label: kind, then name (its namespace is the cluster around it).
fn node_lines(n: &GraphNode) -> Vec<String> {
    let r = &n.obj_ref;
    match n.kind {
        GraphNodeKind::Object(_) => match &r.section {
            Some(s) => vec![format!("{} {s}", section_word(&r.kind))],
            None => vec![r.kind.to_string(), r.name.to_string()],
        },
        GraphNodeKind::Namespace => vec!["Namespace".into(), r.name.to_string()],
        GraphNodeKind::Referenced(_) => vec![r.kind.to_string(), r.name.to_string()],
        GraphNodeKind::Unresolved(status) => {
            let mut name = r.name.to_string();
            if let Some(s) = &r.section {
                name.push('#');
                name.push_str(s);
            }
            vec![r.kind.to_string(), name.to_string(), status.as_str().into()]
        }
    }
}

fn policy_lines(policy: &ObjRef, status: PolicyStatus) -> Vec<String> {
    vec![
        policy.kind.to_string(),
        policy.name.to_string(),
        status.as_str().into(),
    ]
}

/// The fill of a policy a change touches (`mermaid_marked`).
const CHANGED: &str = "#fff3b0";

/// The terminal's status colours as a picture's: (tint, Mermaid class, RGB).
const PALETTE: [(Tint, &str, &str); 3] = [
    (Tint::Good, "good", "#2e7d32"),
    (Tint::Warn, "warn", "#b8860b"),
    (Tint::Bad, "bad", "#c62828"),
];

/// Drawn like a failing status: a target that is not there.
const UNRESOLVED: &str = "#c62828";

fn palette(status: PolicyStatus) -> (&'static str, &'static str) {
    let tint = status_tint(status);
    let (_, class, rgb) = PALETTE.iter().find(|p| p.0 == tint).unwrap_or(&PALETTE[2]);
    (class, rgb)
}

/// A reference edge's label: its field, and why it does not resolve where it does not.
fn reference_label(r: &GraphReference) -> String {
    match r.reason {
        None => r.path.clone(),
        Some(reason) => format!("{} ({reason:?})", r.path),
    }
}

/// A reference that does not resolve is drawn as a missing target is; one unchecked, or
/// resolved, in grey.
fn reference_colour(r: &GraphReference) -> &'static str {
    match r.reason {
        None | Some(RefReason::Unchecked) => "#555555",
        Some(_) => UNRESOLVED,
    }
}

/// Indices of the nodes and of the policies drawn in each namespace, cluster-scoped
/// ones (None) first.
fn by_namespace(g: &Graph) -> Vec<(Option<&str>, Vec<usize>, Vec<usize>)> {
    let mut groups: Vec<(Option<&str>, Vec<usize>, Vec<usize>)> = std::iter::once(None)
        .chain(g.namespaces().into_iter().map(Some))
        .map(|ns| (ns, Vec::new(), Vec::new()))
        .collect();
    for (i, n) in g.nodes.iter().enumerate() {
        if let Some(gr) = groups.iter_mut().find(|gr| gr.0 == n.namespace.as_deref()) {
            gr.1.push(i);
        }
    }
    for (i, p) in g.policies.iter().enumerate() {
        if let Some(gr) = groups
            .iter_mut()
            .find(|gr| gr.0 == p.policy.namespace.as_deref())
        {
            gr.2.push(i);
        }
    }
    groups
}

// ---------------------------------------------------------------- DOT

fn dot_shape(kind: GraphNodeKind) -> &'static str {
    match kind {
        GraphNodeKind::Object(role) => match role {
            Role::Namespace => "folder",
            Role::GatewayClass => "octagon",
            Role::Gateway => "box3d",
            Role::ListenerSet => "tab",
            Role::Listener => "cds",
            Role::Route => "box",
            Role::Rule => "ellipse",
            Role::Backend => "cylinder",
            Role::Port => "hexagon",
            Role::Pod => "component",
        },
        GraphNodeKind::Namespace => "folder",
        GraphNodeKind::Unresolved(_) => "box",
        GraphNodeKind::Referenced(_) => "box",
    }
}

/// A DOT double-quoted string.
fn dot_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn dot_label(lines: &[String]) -> String {
    dot_quote(&lines.join("\n")).replace('\n', "\\n")
}

fn dot_node_id(n: &GraphNode) -> String {
    match n.kind {
        GraphNodeKind::Unresolved(_) => dot_quote(&format!("unresolved:{}", n.obj_ref)),
        _ => dot_quote(&n.obj_ref.to_string()),
    }
}

/// Graphviz DOT (`dot -Tsvg` renders it).
pub fn dot(out: &mut impl Write, g: &Graph) -> io::Result<()> {
    writeln!(out, "digraph policies {{")?;
    writeln!(out, "  rankdir=TB;")?;
    writeln!(out, "  node [fontname=\"Helvetica\", fontsize=10];")?;
    writeln!(out, "  edge [color=\"#555555\"];")?;
    for (ns, nodes, policies) in by_namespace(g) {
        let indent = match ns {
            None => "  ",
            Some(ns) => {
                writeln!(out, "  subgraph {} {{", dot_quote(&format!("cluster_{ns}")))?;
                writeln!(out, "    label={};", dot_quote(&format!("namespace {ns}")))?;
                writeln!(
                    out,
                    "    style=\"rounded\"; color=\"#999999\"; fontname=\"Helvetica\";"
                )?;
                "    "
            }
        };
        for i in nodes {
            let n = &g.nodes[i];
            let style = match (n.kind, &n.obj_ref.section) {
                (GraphNodeKind::Unresolved(_) | GraphNodeKind::Referenced(true), _) => {
                    format!(", style=\"dashed\", color=\"{UNRESOLVED}\"")
                }
                (GraphNodeKind::Referenced(false), _) => ", style=\"dotted\"".into(),
                (GraphNodeKind::Object(Role::Route), _) => ", style=\"rounded\"".into(),
                _ => String::new(),
            };
            writeln!(
                out,
                "{indent}{} [label={}, shape={}{style}];",
                dot_node_id(n),
                dot_label(&node_lines(n)),
                dot_shape(n.kind)
            )?;
        }
        for i in policies {
            let p = &g.policies[i];
            writeln!(
                out,
                "{indent}{} [label={}, shape=note, color=\"{c}\", fontcolor=\"{c}\"];",
                dot_quote(&p.policy.to_string()),
                dot_label(&policy_lines(&p.policy, p.status)),
                c = palette(p.status).1
            )?;
        }
        if ns.is_some() {
            writeln!(out, "  }}")?;
        }
    }
    for &(a, b) in &g.edges {
        writeln!(
            out,
            "  {} -> {};",
            dot_node_id(&g.nodes[a]),
            dot_node_id(&g.nodes[b])
        )?;
    }
    for &(a, b) in &g.levels {
        writeln!(
            out,
            "  {} -> {} [style=dotted, arrowhead=none];",
            dot_node_id(&g.nodes[a]),
            dot_node_id(&g.nodes[b])
        )?;
    }
    for p in &g.policies {
        for &t in &p.targets {
            writeln!(
                out,
                "  {} -> {} [style=dashed, color=\"{}\"];",
                dot_quote(&p.policy.to_string()),
                dot_node_id(&g.nodes[t]),
                palette(p.status).1
            )?;
        }
        // What its spec names: an edge of its own kind (dotted, an open arrow, the field).
        for r in &p.references {
            writeln!(
                out,
                "  {} -> {} [style=dotted, arrowhead=onormal, color=\"{}\", label={}];",
                dot_quote(&p.policy.to_string()),
                dot_node_id(&g.nodes[r.node]),
                reference_colour(r),
                dot_quote(&reference_label(r))
            )?;
        }
    }
    writeln!(out, "}}")
}

// ---------------------------------------------------------------- Mermaid

/// A Mermaid quoted label: `"` cannot appear inside, lines break with `<br/>`.
fn mermaid_label(lines: &[String]) -> String {
    let text = lines
        .iter()
        .map(|l| l.replace('"', "#quot;"))
        .collect::<Vec<_>>()
        .join("<br/>");
    format!("\"{text}\"")
}

fn mermaid_shape(kind: GraphNodeKind) -> (&'static str, &'static str) {
    match kind {
        GraphNodeKind::Object(role) => match role {
            Role::Namespace => ("[/", "/]"),
            Role::GatewayClass => ("{{", "}}"),
            Role::Gateway => ("[[", "]]"),
            Role::ListenerSet => ("[/", "\\]"),
            Role::Listener => ("([", "])"),
            Role::Route => ("(", ")"),
            Role::Rule => ("[", "]"),
            Role::Backend => ("[(", ")]"),
            Role::Port => ("((", "))"),
            Role::Pod => (">", "]"),
        },
        GraphNodeKind::Namespace => ("[/", "/]"),
        GraphNodeKind::Unresolved(_) => ("[", "]"),
        GraphNodeKind::Referenced(_) => ("[", "]"),
    }
}

/// A Mermaid flowchart (GitHub and GitLab render it in Markdown).
pub fn mermaid(out: &mut impl Write, g: &Graph) -> io::Result<()> {
    mermaid_with(out, g, mermaid_label, &[])
}

/// `mermaid` for a Markdown page (`diff -o markdown`): every character of a label
/// that Markdown, HTML or the fence could read is an entity code, and the `marked`
/// policies (those a change touches) are filled.
pub(crate) fn mermaid_marked(out: &mut impl Write, g: &Graph, marked: &[ObjRef]) -> io::Result<()> {
    let marked: Vec<usize> = (0..g.policies.len())
        .filter(|&i| marked.contains(&g.policies[i].policy))
        .collect();
    mermaid_with(out, g, mermaid_label_strict, &marked)
}

/// A label with every character but letters, digits, spaces and `-./:` as Mermaid's
/// entity code (`#60;`): nothing of a name can close the label, the fence or open HTML.
fn mermaid_label_strict(lines: &[String]) -> String {
    let text = lines
        .iter()
        .map(|l| {
            l.chars()
                .map(|c| match c {
                    c if c.is_alphanumeric() || matches!(c, ' ' | '-' | '.' | '/' | ':') => {
                        c.to_string()
                    }
                    c => format!("#{};", u32::from(c)),
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("<br/>");
    format!("\"{text}\"")
}

fn mermaid_with(
    out: &mut impl Write,
    g: &Graph,
    mermaid_label: fn(&[String]) -> String,
    marked: &[usize],
) -> io::Result<()> {
    writeln!(out, "flowchart TB")?;
    for (k, (ns, nodes, policies)) in by_namespace(g).into_iter().enumerate() {
        let indent = match ns {
            None => "  ",
            Some(ns) => {
                writeln!(
                    out,
                    "  subgraph ns{k}[{}]",
                    mermaid_label(&[format!("namespace {ns}")])
                )?;
                "    "
            }
        };
        for i in nodes {
            let n = &g.nodes[i];
            let (open, close) = mermaid_shape(n.kind);
            writeln!(
                out,
                "{indent}n{i}{open}{}{close}",
                mermaid_label(&node_lines(n))
            )?;
        }
        for i in policies {
            let p = &g.policies[i];
            writeln!(
                out,
                "{indent}p{i}>{}]",
                mermaid_label(&policy_lines(&p.policy, p.status))
            )?;
        }
        if ns.is_some() {
            writeln!(out, "  end")?;
        }
    }
    for &(a, b) in &g.edges {
        writeln!(out, "  n{a} --> n{b}")?;
    }
    for &(a, b) in &g.levels {
        writeln!(out, "  n{a} -.- n{b}")?;
    }
    for (i, p) in g.policies.iter().enumerate() {
        for &t in &p.targets {
            writeln!(out, "  p{i} -.-> n{t}")?;
        }
        // What its spec names: a link ending in a circle, with the field.
        for r in &p.references {
            let label = mermaid_label(&[reference_label(r)]);
            writeln!(out, "  p{i} --o|{label}| n{}", r.node)?;
        }
    }
    for (_, class, rgb) in PALETTE {
        let members: Vec<String> = (0..g.policies.len())
            .filter(|&i| palette(g.policies[i].status).0 == class)
            .map(|i| format!("p{i}"))
            .collect();
        if !members.is_empty() {
            writeln!(out, "  classDef {class} stroke:{rgb},stroke-width:2px")?;
            writeln!(out, "  class {} {class}", members.join(","))?;
        }
    }
    if !marked.is_empty() {
        let members: Vec<String> = marked.iter().map(|i| format!("p{i}")).collect();
        writeln!(out, "  classDef changed fill:{CHANGED}")?;
        writeln!(out, "  class {} changed", members.join(","))?;
    }
    let unresolved: Vec<String> = (0..g.nodes.len())
        .filter(|&i| {
            matches!(
                g.nodes[i].kind,
                GraphNodeKind::Unresolved(_) | GraphNodeKind::Referenced(true)
            )
        })
        .map(|i| format!("n{i}"))
        .collect();
    if !unresolved.is_empty() {
        writeln!(
            out,
            "  classDef unresolved stroke:{UNRESOLVED},stroke-dasharray:4 3"
        )?;
        writeln!(out, "  class {} unresolved", unresolved.join(","))?;
    }
    Ok(())
}
