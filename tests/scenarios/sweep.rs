//! Every answer on every object, in every format: what each command computes, rendered as
//! json, yaml and for people (with colour and without), on every world a scenario builds
//! (`common::world` calls `answer_everything`). None may panic; what is rendered must be
//! written whole. The binary is swept the same way over the demo and tests/fixtures in
//! tests/cli/sweep.rs.

use kubectl_policies::model::ObjRef;
use kubectl_policies::query::{self, blast, dependents, outline, Rebuildable, World};
use kubectl_policies::render::{self, human, Clock, Printer, Style};
use kubectl_policies::topology::{NodeId, PolicyId};
use serde::Serialize;
use std::collections::BTreeSet;
use std::io;

/// A fixed "now" for ages, as the binary's tests fix theirs.
const NOW: i64 = 1_795_000_000;

/// The printer of the pages for people: `style`, AGE from `NOW`, kubectl's defaults.
fn printer(style: Style) -> Printer {
    Printer {
        style,
        clock: Clock::At(NOW),
        ..Printer::default()
    }
}

/// Both styles, for every renderer that colours.
const STYLES: [Style; 2] = [Style { color: false }, Style { color: true }];

/// `v` as json and yaml (the data formats of every command that has them).
fn data(what: &str, v: &impl Serialize) {
    let mut out = Vec::new();
    render::json(&mut out, v).unwrap_or_else(|e| panic!("{what} as json: {e}"));
    render::yaml(&mut out, v).unwrap_or_else(|e| panic!("{what} as yaml: {e}"));
    assert!(!out.is_empty(), "{what}: nothing written");
}

/// `write` for people, in each of `styles`.
fn text(what: &str, styles: &[Style], write: impl Fn(&mut Vec<u8>, Style) -> io::Result<()>) {
    for &style in styles {
        let mut out = Vec::new();
        write(&mut out, style).unwrap_or_else(|e| panic!("{what} for people: {e}"));
    }
}

/// Every command in every format: `get` (table, wide, json, yaml), `get kinds`, `check`,
/// `tree` and `graph` (dot, mermaid) of everything; of every object, `describe` (and
/// `-o tree`), `effective`, `tree` and `graph` around it; of every policy, `describe`
/// (and `-o tree`) and `blast-radius`; of every Secret, ConfigMap or Service a policy
/// names (there or not), `describe` and `blast-radius`.
pub fn answer_everything(w: &Rebuildable) {
    answer_in(w, &STYLES);
}

/// `answer_everything`, the pages for people written in each of `styles`.
fn answer_in(w: &Rebuildable, styles: &[Style]) {
    everything(w, styles);
    let t = &w.topology;
    for n in NodeId::all(t.nodes().len()) {
        object(w, n, styles);
    }
    for p in PolicyId::all(t.policies().len()) {
        policy(w, p, styles);
    }
    named(w, styles);
}

/// `describe` and `blast-radius` of every object policies name (`named_objects`), the
/// pages for people in each of `styles` (none: as data only).
pub fn named(w: &Rebuildable, styles: &[Style]) {
    for object in named_objects(w) {
        let what = format!("deleting {object}");
        let d = dependents::describe_dependency(w, &object);
        data(&what, &d);
        text(&what, styles, |o, style| {
            human::dependency_page(o, &d, &printer(style))
        });
        let b = blast::delete_object(w, &object, &[]);
        data(&what, &b);
        text(&what, styles, |o, style| {
            human::blast_radius(o, &b, &printer(style))
        });
    }
}

/// The answers about everything in scope.
fn everything(w: &World, styles: &[Style]) {
    let rows = query::policy_rows(w, None);
    let items: Vec<_> = rows
        .iter()
        .map(|r| query::policy_item(r, w.policy_object(&r.policy)))
        .collect();
    let blind = &w.topology.snapshot().blind_spots;
    data("get", &query::ListOf::of_objects(&items, blind));
    for (wide, headers) in [(false, true), (true, true), (false, false)] {
        text("get", styles, |o, style| {
            let printer = Printer {
                wide,
                headers,
                with_namespace: true,
                show_labels: wide,
                ..printer(style)
            };
            human::policies_table(o, &rows, None, &printer)
        });
    }
    let kinds = query::kind_rows(w);
    data("get kinds", &kinds);
    text("get kinds", styles, |o, style| {
        human::kinds_table(o, &kinds, &printer(style))
    });
    let findings = query::check(w);
    data("check", &findings);
    text("check", styles, |o, style| {
        human::findings_table(o, &findings, &printer(style))
    });
    let roots = query::tree(w, None, None);
    data("tree", &roots);
    text("tree", styles, |o, style| {
        render::tree::write(o, &roots, &printer(style))
    });
    graph("graph", w, None);
}

/// `graph` as dot and mermaid.
fn graph(what: &str, w: &World, focus: Option<NodeId>) {
    let picture = query::graph::graph(w, focus, None);
    let (mut dot, mut mermaid) = (Vec::new(), Vec::new());
    render::graph::dot(&mut dot, &picture).unwrap_or_else(|e| panic!("{what} as dot: {e}"));
    render::graph::mermaid(&mut mermaid, &picture)
        .unwrap_or_else(|e| panic!("{what} as mermaid: {e}"));
}

/// The answers about one object (or section) of the hierarchy.
fn object(w: &World, n: NodeId, styles: &[Style]) {
    let what = format!("{}", w.topology.node(n).obj_ref);
    let d = query::describe_target(w, n);
    data(&what, &d);
    for wide in [false, true] {
        text(&what, styles, |o, style| {
            human::target_page(
                o,
                &d,
                &Printer {
                    wide,
                    ..printer(style)
                },
            )
        });
    }
    let outline = outline::target(w, n, &d);
    text(&what, styles, |o, style| {
        render::tree::write(o, &outline, &printer(style))
    });
    let e = query::effective(w, n, None);
    data(&what, &e);
    text(&what, styles, |o, style| {
        human::effective_page(o, &e, &d.policies, &printer(style))
    });
    let below = query::tree(w, Some(n), None);
    data(&what, &below);
    text(&what, styles, |o, style| {
        render::tree::write(o, &below, &printer(style))
    });
    graph(&what, w, Some(n));
}

/// The answers about one policy: `describe` and `blast-radius`.
fn policy(w: &Rebuildable, p: PolicyId, styles: &[Style]) {
    let what = format!("{}", w.topology.policy(p).obj_ref);
    let d = query::describe_policy(w, p);
    data(&what, &d);
    text(&what, styles, |o, style| {
        human::policy_page(o, &d, &printer(style))
    });
    let outline = outline::policy(w, p);
    text(&what, styles, |o, style| {
        render::tree::write_policy(o, &outline, &printer(style))
    });
    let b = blast::delete_policy(w, p, &[]);
    data(&what, &b);
    text(&what, styles, |o, style| {
        human::blast_radius(o, &b, &printer(style))
    });
}

/// The Secrets, ConfigMaps, Services… policies' specs name, there or not, and those of
/// the input.
fn named_objects(w: &World) -> BTreeSet<ObjRef> {
    let t = &w.topology;
    let mut named: BTreeSet<ObjRef> = t
        .objects()
        .iter()
        .map(|o| o.obj_ref())
        .filter(|r| dependents::is_referenced_kind(w, &r.group_kind()))
        .collect();
    for p in PolicyId::all(t.policies().len()) {
        let d = query::describe_policy(w, p);
        named.extend(d.references.iter().map(|r| r.target.clone()));
    }
    named
}
