//! Picks the source, calls one query, picks one renderer, maps outcomes to exit codes.

use crate::cli::{self, Args, ColorWhen, Command, Global};
use crate::complete;
use crate::selector;
use anyhow::{anyhow, bail, Context, Result};
use kubectl_policies::catalog::policy::LabelSelector;
use kubectl_policies::catalog::Catalog;
use kubectl_policies::focus;
use kubectl_policies::model::{BlindSpot, Object};
use kubectl_policies::model::{GroupKind, ObjRef};
use kubectl_policies::query::{self, types::resolve_type, World};
use kubectl_policies::render::{self, age, human, Style};
use kubectl_policies::source::files::Loaded;
use kubectl_policies::source::live::{self, LiveOptions};
use kubectl_policies::source::{demo, files};
use kubectl_policies::topology::{NodeId, PolicyId, Severity};
use std::io::{IsTerminal, Write};
use std::mem::ManuallyDrop;
use std::path::PathBuf;
use std::time::Duration;

pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Colour is decided once, here: `always`, `never`, or a terminal with NO_COLOR unset or empty.
fn style(g: &Global, structured: bool) -> Style {
    let color = !structured
        && wants_colour(
            g.color,
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        );
    Style { color }
}

fn wants_colour(when: ColorWhen, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
    }
}

/// What a command needs read from a live cluster.
#[derive(Clone, Copy)]
enum Need<'a> {
    /// Cluster-wide lists (`get`, `tree`, `check`, blast radius, a policy's reach).
    Everything,
    /// One object's answer (`describe`, `effective`): its namespace and its ancestors'.
    Object(&'a [String]),
    /// A policy's reach (`blast-radius`): live, everything; offline, what lies below
    /// its targets and above that.
    Reach(&'a [String]),
    /// `dump` without -A: one namespace and its objects' ancestors.
    Namespace,
}

/// The analysed world and the namespace names resolve in.
struct Session {
    /// Never dropped: a one-shot command leaves its memory to the OS at exit instead of
    /// freeing a large cluster object by object (as clang's -disable-free does).
    w: ManuallyDrop<World>,
    /// `-n`, else the context's namespace, else `default` (offline: `-n` or `default`).
    namespace: String,
}

impl Session {
    fn scope_ns(&self, g: &Global) -> Option<String> {
        if g.all_namespaces {
            None
        } else {
            Some(self.namespace.clone())
        }
    }
}

/// Reads the objects: the demo, files, or the live cluster.
fn read(g: &Global, need: Need) -> Result<(Loaded, String)> {
    if g.demo {
        if !g.filename.is_empty() {
            bail!("--demo and -f cannot be used together");
        }
        let ns = offline_namespace(g);
        let mut loaded = demo::load()?;
        loaded.place_in(&ns);
        return Ok((narrowed(g, loaded, need, &ns), ns));
    }
    if !g.filename.is_empty() {
        let ns = offline_namespace(g);
        let mut loaded = files::load_paths(&g.filename)?;
        loaded.place_in(&ns);
        return Ok((narrowed(g, loaded, need, &ns), ns));
    }
    let opts = LiveOptions {
        kubeconfig: g.kubeconfig.as_ref().map(PathBuf::from),
        context: g.context.clone(),
        request_timeout: parse_duration(&g.request_timeout)
            .map_err(|e| anyhow!("--request-timeout {:?}: {e}", g.request_timeout))?,
        overrides: overrides(&g.connection),
        ..LiveOptions::default()
    };
    let catalog = Catalog::build(&[], &g.policy_kind);
    let guide = live::Guide {
        policy_kinds: catalog.kinds_for_reading(),
        follow: focus::needed_namespaces,
    };
    let (loaded, cluster) = live::load(&opts, &guide, |cluster, _| {
        let ns = g
            .namespace
            .clone()
            .unwrap_or_else(|| cluster.default_namespace.clone());
        let need = match need {
            Need::Object(words) => match named(words, &catalog, &[], &ns) {
                Ok((_, r)) => focus::Need::Object(r),
                Err(_) => focus::Need::Everything,
            },
            Need::Namespace => focus::Need::Namespace,
            _ => focus::Need::Everything,
        };
        focus::live_scope(&need, &catalog, &ns, g.all_namespaces)
    })?;
    let namespace = g
        .namespace
        .clone()
        .unwrap_or_else(|| cluster.default_namespace.clone());
    Ok((loaded, namespace))
}

/// kubectl's connection flags, as the live source takes them.
fn overrides(c: &cli::Connection) -> live::config::Overrides {
    live::config::Overrides {
        server: c.server.clone(),
        token: c.token.clone(),
        user: c.user.clone(),
        cluster: c.cluster.clone(),
        certificate_authority: c.certificate_authority.clone(),
        client_certificate: c.client_certificate.clone(),
        client_key: c.client_key.clone(),
        insecure_skip_tls_verify: c.insecure_skip_tls_verify,
        tls_server_name: c.tls_server_name.clone(),
        impersonate: c.impersonate.clone(),
        impersonate_groups: c.impersonate_groups.clone(),
        impersonate_uid: c.impersonate_uid.clone(),
    }
}

/// `-l`, read before anything is loaded so that a bad selector fails at once.
fn label_selector(g: &Global) -> Result<Option<LabelSelector>> {
    g.selector
        .as_deref()
        .map(|text| selector::parse(text).map_err(|e| anyhow!("--selector {text:?}: {e}")))
        .transpose()
}

/// Whether the policy a `get` row lists has labels that `selector` selects.
fn selected(w: &World, selector: &LabelSelector, policy: &ObjRef) -> bool {
    w.topology
        .policy_index
        .get(policy)
        .and_then(|&p| {
            w.topology
                .snapshot
                .objects
                .get(w.topology.policies[p].object)
        })
        .is_some_and(|o| selector.matches(&o.labels))
}

/// Offline, an answer about one object or one policy's reach is computed from the
/// objects it can depend on (`kubectl_policies::narrow`), as a scoped live read would
/// have read them: building the hierarchy of a whole large cluster to answer about
/// one route is most of the work.
fn narrowed(g: &Global, mut loaded: Loaded, need: Need, ns: &str) -> Loaded {
    let (Need::Object(words) | Need::Reach(words)) = need else {
        return loaded;
    };
    let catalog = Catalog::build(&loaded.snapshot.objects, &g.policy_kind);
    let Ok((_, focus)) = named(words, &catalog, &loaded.snapshot.objects, ns) else {
        return loaded;
    };
    let aside =
        kubectl_policies::focus::narrow(&mut loaded.snapshot, &loaded.links, &catalog, &focus);
    // Left to the OS at exit, as the world is (see `Session::w`).
    std::mem::forget(aside);
    loaded
}

/// Reads, warns about every blind spot on stderr, analyses.
fn load(g: &Global, need: Need) -> Result<Session> {
    let (loaded, namespace) = read(g, need)?;
    warn_blind_spots(&loaded.snapshot.blind_spots);
    Ok(Session {
        w: ManuallyDrop::new(kubectl_policies::analyze(
            loaded.snapshot,
            &g.policy_kind,
            &loaded.shape_errors,
        )),
        namespace,
    })
}

fn warn_blind_spots(spots: &[BlindSpot]) {
    for spot in spots {
        eprintln!("warning: {}", spot.message);
    }
}

/// Offline, the namespace is `-n`, else the kubeconfig context's (read from the file,
/// no cluster contact), else `default`: where `kubectl apply -f` would put an object
/// that names none.
fn offline_namespace(g: &Global) -> String {
    if let Some(ns) = &g.namespace {
        return ns.clone();
    }
    let kubeconfig = g.kubeconfig.as_ref().map(std::path::Path::new);
    match live::context_namespace(kubeconfig, g.context.as_deref()) {
        Ok(Some(ns)) => ns,
        Ok(None) => "default".to_string(),
        Err(e) => {
            eprintln!("warning: {e:#}; the namespace is default");
            "default".to_string()
        }
    }
}

/// kubectl's words for an empty answer, in a namespace or in all of them.
fn nothing_found(ns: Option<&str>) -> String {
    match ns {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found.".to_string(),
    }
}

/// kubectl's durations: `30s`, `1m30s`, `500ms`, `2h`, a bare number of seconds; `0`
/// means no limit.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if let Ok(secs) = t.parse::<u64>() {
        return match secs {
            0 => Ok(Duration::from_secs(365 * 24 * 3600)),
            s if s > 365 * 24 * 3600 => Err(format!("{text:?} is longer than a year")),
            s => Ok(Duration::from_secs(s)),
        };
    }
    let mut total = Duration::ZERO;
    let mut rest = t;
    if rest.is_empty() {
        return Err("expected a duration such as 30s, 1m or 500ms".into());
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or("a number needs a unit (ms, s, m, h)")?;
        let (num, tail) = rest.split_at(digits);
        let value: f64 = num
            .parse()
            .map_err(|_| format!("{num:?} is not a number"))?;
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_len);
        let scale = match unit {
            "ms" => 0.001,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return Err(format!("unknown unit {unit:?} (use ms, s, m or h)")),
        };
        let part = Duration::try_from_secs_f64(value * scale)
            .map_err(|_| format!("{text:?} is out of range"))?;
        total = total
            .checked_add(part)
            .filter(|t| *t <= Duration::from_secs(365 * 24 * 3600))
            .ok_or_else(|| format!("{text:?} is longer than a year"))?;
        rest = next;
    }
    if total.is_zero() {
        return Ok(Duration::from_secs(365 * 24 * 3600));
    }
    Ok(total)
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
    /// A namespace: its level is not a node, unless a Direct policy targets it.
    Namespace(String),
}

/// The kind and the object `TYPE/NAME` names, in namespace `ns` unless the kind is
/// cluster-scoped.
fn named(
    words: &[String],
    catalog: &Catalog,
    objects: &[Object],
    ns: &str,
) -> Result<(GroupKind, ObjRef)> {
    let (ty, name) = split_target(words)?;
    let gk = resolve_type(&ty, catalog, objects).map_err(|e| anyhow!(e))?;
    let ns = (!kubectl_policies::model::is_cluster_scoped(&gk.kind)).then_some(ns);
    let r = ObjRef::new(&gk.group, &gk.kind, ns, &name);
    Ok((gk, r))
}

fn find_subject(s: &Session, words: &[String]) -> Result<Subject> {
    let w = &s.w;
    let (gk, r) = named(
        words,
        &w.topology.catalog,
        &w.topology.snapshot.objects,
        &s.namespace,
    )?;
    if w.topology.catalog.get(&gk).is_some() {
        if let Some(&p) = w.topology.policy_index.get(&r) {
            return Ok(Subject::Policy(p));
        }
        return Err(not_found(w, &gk, &r.name, r.namespace.as_deref()));
    }
    if gk.group.is_empty() && gk.kind == "Namespace" && w.topology.namespaces.contains_key(&r.name)
    {
        return Ok(Subject::Namespace(r.name));
    }
    if let Some(n) = w.topology.lookup(&r) {
        return Ok(Subject::Node(n));
    }
    // ListenerSet is XListenerSet in the experimental channel.
    if gk.kind == "ListenerSet" {
        let x = ObjRef::new(
            kubectl_policies::model::GATEWAY_X_GROUP,
            "XListenerSet",
            r.namespace.as_deref(),
            &r.name,
        );
        if let Some(n) = w.topology.lookup(&x) {
            return Ok(Subject::Node(n));
        }
    }
    Err(not_found(w, &gk, &r.name, r.namespace.as_deref()))
}

fn not_found(w: &World, gk: &GroupKind, name: &str, ns: Option<&str>) -> anyhow::Error {
    let resource = if gk.group.is_empty() {
        kubectl_policies::model::resource_plural(&gk.kind)
    } else {
        format!(
            "{}.{}",
            kubectl_policies::model::resource_plural(&gk.kind),
            gk.group
        )
    };
    let elsewhere: Vec<String> = w
        .topology
        .snapshot
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
    // The object may exist where the user cannot see: say so rather than "not found".
    let blind = w.topology.snapshot.blind_spots.iter().find(|b| {
        b.group == gk.group
            && b.kind == gk.kind
            && (b.namespace.is_none() || b.namespace.as_deref() == ns)
    });
    if let Some(b) = blind {
        return anyhow!("{resource} {name:?}: {}", b.message);
    }
    match ns {
        Some(ns) => anyhow!("{resource} {name:?} not found in namespace {ns}{hint}"),
        None => anyhow!("{resource} {name:?} not found"),
    }
}

/// `-o` as `cli::FORMATS` lists it for the command.
fn output_for<'a>(g: &'a Global, command: &str) -> Result<&'a str> {
    let allowed = cli::formats(command);
    output(
        g,
        allowed.first().copied().unwrap_or_default(),
        allowed,
        command,
    )
}

/// The object of the hierarchy a TYPE/NAME names (`what` says which command wants it).
fn find_node(s: &Session, words: &[String], what: &str) -> Result<NodeId> {
    match find_subject(s, words)? {
        Subject::Node(n) => Ok(n),
        Subject::Namespace(ns) => {
            let r = ObjRef::new("", "Namespace", None, &ns);
            s.w.topology.lookup(&r).ok_or_else(|| {
                anyhow!(
                    "{what} starts at an object of the hierarchy; for namespace {ns} use -n {ns}"
                )
            })
        }
        Subject::Policy(_) => bail!("{what} starts at an object of the hierarchy, not a policy"),
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
    let for_get = matches!(&args.command, Command::Get { what } if !what.starts_with("kind"));
    if g.selector.is_some() && !for_get && !matches!(args.command, Command::Complete { .. }) {
        bail!("-l/--selector filters the policies `get` lists; it does not apply to this command");
    }
    let code = match &args.command {
        Command::Get { what } if what.starts_with("kind") => {
            let o = output_for(g, "get kinds")?;
            let s = load(g, Need::Everything)?;
            let w = &s.w;
            let rows = query::get_kinds(w);
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
            let o = output_for(g, "get")?;
            let selector = label_selector(g)?;
            let s = load(g, Need::Everything)?;
            let w = &s.w;
            let ns = s.scope_ns(g);
            let mut rows = query::get_policies(w, ns.as_deref());
            // Statuses are computed over every policy; -l only chooses the rows shown.
            if let Some(sel) = &selector {
                rows.retain(|r| selected(w, sel, &r.policy));
            }
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
            let o = output_for(g, "describe")?;
            let s = load(g, Need::Object(target))?;
            let w = &s.w;
            let st = style(g, false);
            match find_subject(&s, target)? {
                Subject::Policy(p) => {
                    let d = query::describe_policy(w, p);
                    match o {
                        "json" => render::json(&mut out, &d)?,
                        "yaml" => render::yaml(&mut out, &d)?,
                        "tree" => {
                            render::tree::write_policy(&mut out, &query::outline::policy(w, p), st)?
                        }
                        _ => human::describe_policy(&mut out, &d, age::now(), st)?,
                    }
                }
                Subject::Node(n) => {
                    let d = query::describe_target(w, n);
                    match o {
                        "json" => render::json(&mut out, &d)?,
                        "yaml" => render::yaml(&mut out, &d)?,
                        "tree" => {
                            render::tree::write(&mut out, &query::outline::target(w, n, &d), st)?
                        }
                        _ => human::describe_target(&mut out, &d, st)?,
                    }
                }
                Subject::Namespace(ns) => {
                    let d = query::describe_namespace(w, &ns)
                        .ok_or_else(|| anyhow!("namespaces {ns:?} not found"))?;
                    match o {
                        "json" => render::json(&mut out, &d)?,
                        "yaml" => render::yaml(&mut out, &d)?,
                        "tree" => {
                            render::tree::write(&mut out, &query::outline::namespace(&d), st)?
                        }
                        _ => human::describe_target(&mut out, &d, st)?,
                    }
                }
            }
            0
        }
        Command::Effective { target, kind } => {
            let o = output_for(g, "effective")?;
            let s = load(g, Need::Object(target))?;
            let w = &s.w;
            let kind = match kind {
                Some(k) => Some(
                    resolve_type(k, &w.topology.catalog, &w.topology.snapshot.objects)
                        .map_err(|e| anyhow!(e))?,
                ),
                None => None,
            };
            let n = match find_subject(&s, target)? {
                Subject::Node(n) => n,
                Subject::Namespace(_) => find_node(&s, target, "effective")?,
                Subject::Policy(_) => bail!("effective answers for objects of the hierarchy, not for policies: try describe"),
            };
            let e = query::effective(w, n, kind.as_ref());
            if o == "json" {
                render::json(&mut out, &e)?
            } else {
                render::yaml(&mut out, &e)?
            }
            0
        }
        Command::Tree { target } => {
            let o = output_for(g, "tree")?;
            let s = load(g, Need::Everything)?;
            let w = &s.w;
            let root = if target.is_empty() {
                None
            } else {
                match find_subject(&s, target)? {
                    Subject::Node(n) => Some(n),
                    Subject::Namespace(_) => Some(find_node(&s, target, "tree")?),
                    Subject::Policy(_) => {
                        bail!("tree starts at an object of the hierarchy, not a policy")
                    }
                }
            };
            let ns = if root.is_some() { None } else { s.scope_ns(g) };
            let roots = query::tree(w, root, ns.as_deref());
            match o {
                "json" => render::json(&mut out, &roots)?,
                "yaml" => render::yaml(&mut out, &roots)?,
                _ => {
                    if roots.is_empty() {
                        eprintln!("{}", nothing_found(ns.as_deref()));
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
            let o = output_for(g, "blast-radius")?;
            let need = if apply.is_empty() {
                Need::Reach(target)
            } else {
                Need::Everything
            };
            let s = load(g, need)?;
            let w = &s.w;
            let b = if apply.is_empty() {
                match find_subject(&s, target)? {
                    Subject::Policy(p) => query::blast::delete_policy(w, p, &g.policy_kind),
                    Subject::Node(_) | Subject::Namespace(_) => bail!(
                        "blast-radius takes a policy (TYPE/NAME of a policy kind) or --apply PATH"
                    ),
                }
            } else {
                let mut loaded = files::load_paths(apply)?;
                loaded.place_in(&s.namespace);
                if let Some(e) = loaded.shape_errors.first() {
                    bail!("{e}");
                }
                query::blast::apply_objects(
                    w,
                    loaded.snapshot.objects,
                    apply.clone(),
                    &g.policy_kind,
                )
            };
            match o {
                "json" => render::json(&mut out, &b)?,
                "yaml" => render::yaml(&mut out, &b)?,
                _ => human::blast_radius(&mut out, &b, !g.no_headers, style(g, false))?,
            }
            if *exit_code && !b.changes.is_empty() {
                3
            } else {
                0
            }
        }
        Command::Dump => {
            let o = output_for(g, "dump")?;
            let (loaded, _) = read(g, Need::Namespace)?;
            warn_blind_spots(&loaded.snapshot.blind_spots);
            // An object whose shape is wrong cannot be written back; say which.
            for e in &loaded.shape_errors {
                eprintln!("warning: not in the dump: {e}");
            }
            let doc = dump_list(&loaded);
            if o == "json" {
                render::json(&mut out, &doc)?
            } else {
                render::yaml(&mut out, &doc)?
            }
            0
        }
        Command::Check => {
            let o = output_for(g, "check")?;
            let s = load(g, Need::Everything)?;
            let w = &s.w;
            let ns = s.scope_ns(g);
            let findings: Vec<_> = query::check(w)
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
                    &serde_json::json!({"kind": "CheckResult", "findings": findings, "blindSpots": w.topology.snapshot.blind_spots}),
                )?,
                "yaml" => render::yaml(
                    &mut out,
                    &serde_json::json!({"kind": "CheckResult", "findings": findings, "blindSpots": w.topology.snapshot.blind_spots}),
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
        Command::Graph { target } => {
            let o = output_for(g, "graph")?;
            let s = load(g, Need::Everything)?;
            let w = &s.w;
            let focus = if target.is_empty() {
                None
            } else {
                Some(find_node(&s, target, "graph")?)
            };
            let ns = if focus.is_some() { None } else { s.scope_ns(g) };
            let picture = query::graph::graph(w, focus, ns.as_deref());
            if picture.is_empty() {
                eprintln!("{}", nothing_found(ns.as_deref()));
            }
            match o {
                "mermaid" => render::graph::mermaid(&mut out, &picture)?,
                _ => render::graph::dot(&mut out, &picture)?,
            }
            0
        }
        Command::Completion { shell } => {
            complete::script(*shell, &mut out)?;
            0
        }
        Command::Complete { words } => {
            complete::candidates(words, &mut out, |g| {
                Ok(ManuallyDrop::into_inner(load(g, Need::Everything)?.w))
            })?;
            0
        }
    };
    out.flush().context("writing output")?;
    Ok(code)
}

fn list<T: serde::Serialize>(kind: &str, items: &[T]) -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {"listKind": kind}, "items": items})
}

/// What `dump` writes: one `List` of everything read, its blind spots recorded in an
/// annotation so that reading the dump back with `-f` stays honest about them.
fn dump_list(loaded: &Loaded) -> serde_json::Value {
    let items: Vec<serde_json::Value> = loaded
        .snapshot
        .objects
        .iter()
        .map(|o| o.to_value())
        .collect();
    let mut doc =
        serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items});
    if !loaded.snapshot.blind_spots.is_empty() {
        let spots = serde_json::to_string(&loaded.snapshot.blind_spots).unwrap_or_default();
        doc["metadata"]["annotations"] = serde_json::json!({
            kubectl_policies::source::BLIND_SPOTS_ANNOTATION: spots
        });
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn colour_auto_means_a_terminal_and_no_color_unset_or_empty() {
        assert!(wants_colour(ColorWhen::Auto, true, None));
        assert!(wants_colour(ColorWhen::Auto, true, Some(OsStr::new(""))));
        assert!(!wants_colour(ColorWhen::Auto, true, Some(OsStr::new("1"))));
        assert!(!wants_colour(ColorWhen::Auto, false, None));
        assert!(wants_colour(
            ColorWhen::Always,
            false,
            Some(OsStr::new("1"))
        ));
        assert!(!wants_colour(ColorWhen::Never, true, None));
    }
}
