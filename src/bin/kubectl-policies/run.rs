//! Picks the source, calls one query, picks one renderer, maps outcomes to exit codes.

use crate::cli::{Args, ColorWhen, Command, Global};
use anyhow::{anyhow, bail, Context, Result};
use kubectl_policies::model::{GroupKind, ObjRef};
use kubectl_policies::query::{self, types::resolve_type, World};
use kubectl_policies::render::{self, age, human, Style};
use kubectl_policies::source::{demo, files};
use kubectl_policies::topology::{NodeId, PolicyId, Severity};
use std::io::{IsTerminal, Write};
use std::mem::ManuallyDrop;

pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Colour is decided once, here: `always`, `never`, or a terminal with NO_COLOR unset or empty.
fn style(g: &Global, structured: bool) -> Style {
    let color = !structured
        && match g.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var("NO_COLOR")
                        .map(|v| v.is_empty())
                        .unwrap_or(true)
            }
        };
    Style { color }
}

/// The world is never dropped: a one-shot command leaves its memory to the OS at exit
/// instead of freeing a large cluster object by object (as clang's -disable-free does).
fn load(g: &Global) -> Result<ManuallyDrop<World>> {
    let loaded = if g.demo {
        if !g.filename.is_empty() {
            bail!("--demo and -f cannot be used together");
        }
        demo::load()?
    } else if !g.filename.is_empty() {
        files::load_paths(&g.filename)?
    } else {
        bail!(
            "reading a live cluster is not available in this build yet; give -f PATH (a file, a directory, or - for stdin, e.g. from `kubectl get ... -A -o yaml`) or try --demo"
        );
    };
    Ok(ManuallyDrop::new(kubectl_policies::analyze(
        loaded.snapshot,
        &g.policy_kind,
        &loaded.shape_errors,
    )))
}

/// Offline, the namespace is `-n` or `default` (kubectl's rule with no context).
fn namespace(g: &Global) -> String {
    g.namespace.clone().unwrap_or_else(|| "default".to_string())
}

fn scope_ns(g: &Global) -> Option<String> {
    if g.all_namespaces {
        None
    } else {
        Some(namespace(g))
    }
}

/// `TYPE/NAME` or `TYPE NAME`.
fn split_target(words: &[String]) -> Result<(String, String)> {
    match words {
        [one] => {
            let (t, n) = one.split_once('/').ok_or_else(|| {
                anyhow!("{one:?}: expected TYPE/NAME (for example httproute/baker) or TYPE NAME")
            })?;
            if t.is_empty() || n.is_empty() {
                bail!("{one:?}: expected TYPE/NAME");
            }
            Ok((t.to_string(), n.to_string()))
        }
        [t, n] => Ok((t.clone(), n.clone())),
        _ => bail!("expected TYPE/NAME"),
    }
}

/// What a TYPE/NAME names: a policy, or a node of the hierarchy.
enum Subject {
    Policy(PolicyId),
    Node(NodeId),
}

fn find_subject(w: &World, g: &Global, words: &[String]) -> Result<Subject> {
    let (ty, name) = split_target(words)?;
    let gk = resolve_type(&ty, &w.t.catalog, &w.t.snapshot.objects).map_err(|e| anyhow!(e))?;
    let cluster_scoped = kubectl_policies::catalog::policy::is_cluster_scoped(&gk.kind);
    let ns = if cluster_scoped {
        None
    } else {
        Some(namespace(g))
    };
    let r = ObjRef::new(&gk.group, &gk.kind, ns.as_deref(), &name);
    if w.t.catalog.get(&gk).is_some() {
        if let Some(&p) = w.t.policy_index.get(&r) {
            return Ok(Subject::Policy(p));
        }
        return Err(not_found(w, &gk, &name, ns.as_deref()));
    }
    if let Some(n) = w.t.lookup(&r) {
        return Ok(Subject::Node(n));
    }
    // ListenerSet is XListenerSet in the experimental channel.
    if gk.kind == "ListenerSet" {
        let x = ObjRef::new(
            kubectl_policies::model::GATEWAY_X_GROUP,
            "XListenerSet",
            ns.as_deref(),
            &name,
        );
        if let Some(n) = w.t.lookup(&x) {
            return Ok(Subject::Node(n));
        }
    }
    Err(not_found(w, &gk, &name, ns.as_deref()))
}

fn not_found(w: &World, gk: &GroupKind, name: &str, ns: Option<&str>) -> anyhow::Error {
    let resource = if gk.group.is_empty() {
        query::types::plural(&gk.kind)
    } else {
        format!("{}.{}", query::types::plural(&gk.kind), gk.group)
    };
    let elsewhere: Vec<String> =
        w.t.snapshot
            .objects
            .iter()
            .filter(|o| o.group_kind() == *gk && o.name == name)
            .filter_map(|o| o.namespace.clone())
            .collect();
    let hint = match elsewhere.as_slice() {
        [] => String::new(),
        [one] => format!(" (there is one in namespace {one}: add -n {one})"),
        many => format!(" (there are some in namespaces {})", many.join(", ")),
    };
    match ns {
        Some(ns) => anyhow!("{resource} {name:?} not found in namespace {ns}{hint}"),
        None => anyhow!("{resource} {name:?} not found"),
    }
}

fn output<'a>(g: &'a Global, default: &'a str, allowed: &[&str], command: &str) -> Result<&'a str> {
    let o = g.output.as_deref().unwrap_or(default);
    if !allowed.contains(&o) {
        bail!(
            "{command}: unknown output format {o:?} (use one of: {})",
            allowed.join(", ")
        );
    }
    Ok(o)
}

pub fn run(args: Args) -> Result<u8> {
    let g = &args.global;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let code = match &args.command {
        Command::Get { what } if what.starts_with("kind") => {
            let o = output(g, "table", &["table", "wide", "json", "yaml"], "get kinds")?;
            let w = load(g)?;
            let rows = query::get_kinds(&w);
            match o {
                "json" => render::json(&mut out, &list("PolicyKindList", &rows))?,
                "yaml" => render::yaml(&mut out, &list("PolicyKindList", &rows))?,
                _ => {
                    human::get_kinds(&mut out, &rows, o == "wide", !g.no_headers, style(g, false))?
                }
            }
            0
        }
        Command::Get { .. } => {
            let o = output(
                g,
                "table",
                &["table", "wide", "json", "yaml", "name"],
                "get",
            )?;
            let w = load(g)?;
            let ns = scope_ns(g);
            let rows = query::get_policies(&w, ns.as_deref());
            match o {
                "json" => render::json(&mut out, &list("PolicyList", &rows))?,
                "yaml" => render::yaml(&mut out, &list("PolicyList", &rows))?,
                "name" => {
                    for r in &rows {
                        writeln!(
                            out,
                            "{}.{}/{}",
                            r.policy.kind.to_lowercase(),
                            r.policy.group,
                            r.policy.name
                        )?;
                    }
                }
                _ => {
                    if rows.is_empty() {
                        match &ns {
                            Some(ns) => eprintln!("No policies found in {ns} namespace."),
                            None => eprintln!("No policies found."),
                        }
                    } else {
                        human::get_policies(
                            &mut out,
                            &rows,
                            o == "wide",
                            !g.no_headers,
                            ns.is_none(),
                            age::now(),
                            style(g, false),
                        )?;
                    }
                }
            }
            0
        }
        Command::Describe { target } => {
            let o = output(g, "human", &["human", "json", "yaml"], "describe")?;
            let w = load(g)?;
            let st = style(g, false);
            match find_subject(&w, g, target)? {
                Subject::Policy(p) => {
                    let d = query::describe_policy(&w, p);
                    match o {
                        "json" => render::json(&mut out, &d)?,
                        "yaml" => render::yaml(&mut out, &d)?,
                        _ => human::describe_policy(&mut out, &d, age::now(), st)?,
                    }
                }
                Subject::Node(n) => {
                    let d = query::describe_target(&w, n);
                    match o {
                        "json" => render::json(&mut out, &d)?,
                        "yaml" => render::yaml(&mut out, &d)?,
                        _ => human::describe_target(&mut out, &d, st)?,
                    }
                }
            }
            0
        }
        Command::Effective { target, kind } => {
            let o = output(g, "yaml", &["yaml", "json"], "effective")?;
            let w = load(g)?;
            let kind = match kind {
                Some(k) => Some(
                    resolve_type(k, &w.t.catalog, &w.t.snapshot.objects).map_err(|e| anyhow!(e))?,
                ),
                None => None,
            };
            let n = match find_subject(&w, g, target)? {
                Subject::Node(n) => n,
                Subject::Policy(_) => bail!("effective answers for objects of the hierarchy, not for policies: try describe"),
            };
            let e = query::effective(&w, n, kind.as_ref());
            if o == "json" {
                render::json(&mut out, &e)?
            } else {
                render::yaml(&mut out, &e)?
            }
            0
        }
        Command::Tree { target } => {
            let o = output(g, "tree", &["tree", "json", "yaml"], "tree")?;
            let w = load(g)?;
            let root = if target.is_empty() {
                None
            } else {
                match find_subject(&w, g, target)? {
                    Subject::Node(n) => Some(n),
                    Subject::Policy(_) => {
                        bail!("tree starts at an object of the hierarchy, not a policy")
                    }
                }
            };
            let ns = if root.is_some() { None } else { scope_ns(g) };
            let roots = query::tree(&w, root, ns.as_deref());
            match o {
                "json" => render::json(&mut out, &roots)?,
                "yaml" => render::yaml(&mut out, &roots)?,
                _ => {
                    if roots.is_empty() {
                        eprintln!("Nothing found in {} namespace.", ns.unwrap_or_default());
                    }
                    render::tree::write(&mut out, &roots, style(g, false))?
                }
            }
            0
        }
        Command::BlastRadius {
            target,
            apply,
            exit_code,
        } => {
            let o = output(g, "human", &["human", "json", "yaml"], "blast-radius")?;
            let w = load(g)?;
            let b = if apply.is_empty() {
                match find_subject(&w, g, target)? {
                    Subject::Policy(p) => query::blast::delete_policy(&w, p, &g.policy_kind),
                    Subject::Node(_) => bail!(
                        "blast-radius takes a policy (TYPE/NAME of a policy kind) or --apply PATH"
                    ),
                }
            } else {
                let loaded = files::load_paths(apply)?;
                if let Some(e) = loaded.shape_errors.first() {
                    bail!("{e}");
                }
                query::blast::apply_objects(
                    &w,
                    loaded.snapshot.objects,
                    apply.clone(),
                    &g.policy_kind,
                )
            };
            for spot in &b.blind_spots {
                eprintln!("warning: {}", spot.message);
            }
            match o {
                "json" => render::json(&mut out, &b)?,
                "yaml" => render::yaml(&mut out, &b)?,
                _ => human::blast_radius(&mut out, &b, style(g, false))?,
            }
            if *exit_code && !b.changes.is_empty() {
                3
            } else {
                0
            }
        }
        Command::Check => {
            let o = output(g, "table", &["table", "json", "yaml"], "check")?;
            let w = load(g)?;
            let ns = scope_ns(g);
            let findings: Vec<_> = query::check(&w)
                .into_iter()
                .filter(|f| {
                    ns.is_none() || f.object.namespace.is_none() || f.object.namespace == ns
                })
                .collect();
            let errors = findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .count();
            match o {
                "json" => render::json(
                    &mut out,
                    &serde_json::json!({"kind": "CheckResult", "findings": findings, "blindSpots": w.t.snapshot.blind_spots}),
                )?,
                "yaml" => render::yaml(
                    &mut out,
                    &serde_json::json!({"kind": "CheckResult", "findings": findings, "blindSpots": w.t.snapshot.blind_spots}),
                )?,
                _ => {
                    if findings.is_empty() {
                        writeln!(out, "No findings.")?;
                    } else {
                        human::findings_table(&mut out, &findings, !g.no_headers, style(g, false))?;
                    }
                }
            }
            u8::from(errors > 0)
        }
    };
    out.flush().context("writing output")?;
    Ok(code)
}

fn list<T: serde::Serialize>(kind: &str, items: &[T]) -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {"listKind": kind}, "items": items})
}
