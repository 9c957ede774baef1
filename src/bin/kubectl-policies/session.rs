//! Reading the objects (the demo, files, or the live cluster) and analysing them: what
//! every command starts with. Entered once, from the routing (`commands::run`), with
//! the plan's `Input`.

use crate::plan::{Input, Source};
use crate::warn::{warn_blind_spots, warn_line};
use anyhow::{anyhow, bail, Result};
use kubectl_policies::catalog::{Catalog, Declared};
use kubectl_policies::focus::{self, Need};
use kubectl_policies::model::watch::Change;
use kubectl_policies::model::{namespace_name_problem, BlindReason, MalformedObject, Snapshot};
use kubectl_policies::query::{self, subject, Rebuildable, World};
use kubectl_policies::source::files::Loaded;
use kubectl_policies::source::live::{self, LiveOptions};
use kubectl_policies::source::{demo, files};
use std::mem::ManuallyDrop;
use std::time::Duration;

/// What a command's answer depends on, as the command line names it (TYPE/NAME words
/// are resolved once the kinds are known: before a live read, after reading files).
#[derive(Clone, Copy)]
pub enum Question<'a> {
    /// Everything in scope (`get`, `tree`, `check`, `graph`).
    Everything,
    /// Everything in scope, to be analysed again with changes (`blast-radius --apply`,
    /// or of an object policies name).
    Changes,
    /// One object's answer (`describe`, `effective`).
    Object(&'a [String]),
    /// A policy's reach (`blast-radius`).
    Reach(&'a [String]),
    /// `dump` without -A: one namespace and its objects' ancestors.
    Namespace,
}

/// The analysed world and the namespace names resolve in: a `World` (`load`), or for
/// `blast-radius`, which analyses a changed copy of it again, a `Rebuildable`
/// (`load_rebuildable`).
pub struct Session<W = World> {
    /// Never dropped: a one-shot command leaves its memory to the OS at exit instead of
    /// freeing a large cluster object by object (as clang's -disable-free does).
    pub world: ManuallyDrop<W>,
    /// `-n`, else the context's namespace, else `default`.
    pub namespace: String,
    all_namespaces: bool,
}

impl<W: AsRef<World>> Session<W> {
    /// The namespace in scope: none with `-A`.
    pub fn scope(&self) -> Option<&str> {
        (!self.all_namespaces).then_some(self.namespace.as_str())
    }

    /// What `TYPE/NAME` names.
    pub fn subject(&self, words: &[String]) -> Result<subject::Subject> {
        subject::find_subject((*self.world).as_ref(), words, &self.namespace)
            .map_err(|e| anyhow!(e))
    }

    /// The object of the hierarchy `TYPE/NAME` names, for a command (`what`) that starts
    /// at one.
    pub fn node(&self, words: &[String], what: &str) -> Result<kubectl_policies::topology::NodeId> {
        subject::node_of((*self.world).as_ref(), self.subject(words)?, what).map_err(|e| anyhow!(e))
    }
}

/// Reads, warns about every blind spot on stderr, analyses into a world answered from
/// and never built again: its routes' and backends' links are let go
/// (`query::analyze_once`).
pub fn load(input: &Input, question: Question) -> Result<Session> {
    load_with(input, question, query::analyze_once)
}

/// `load`, into a world that keeps its links (`query::analyze`): for `blast-radius`,
/// which analyses a copy of it again without a policy or an object, or with objects
/// applied.
pub fn load_rebuildable(input: &Input, question: Question) -> Result<Session<Rebuildable>> {
    load_with(input, question, query::analyze)
}

fn load_with<W: AsRef<World>>(
    input: &Input,
    question: Question,
    analyze: fn(Snapshot, &[Declared], &[MalformedObject]) -> W,
) -> Result<Session<W>> {
    let (loaded, namespace) = read(input, question)?;
    warn_blind_spots(&loaded.snapshot.blind_spots);
    let world = analyze(loaded.snapshot, &input.policy_kinds, &loaded.malformed);
    // The references that could not be checked are known once analysed.
    let unchecked = world.as_ref().topology.snapshot().blind_spots.iter();
    for spot in unchecked.filter(|b| b.reason == BlindReason::Unchecked) {
        warn_line(&format!("warning: {}", spot.message));
    }
    Ok(Session {
        world: ManuallyDrop::new(world),
        namespace,
        all_namespaces: input.all_namespaces,
    })
}

/// Reads the objects: the demo, files, or the live cluster; and the namespace in scope.
/// Every spec and status is built, on every core, and the text it was read from let go
/// (`Snapshot::settle`): the answers look at all of them.
fn read(input: &Input, question: Question) -> Result<(Loaded, String)> {
    let (mut loaded, ns) = read_unsettled(input, question)?;
    loaded.snapshot.settle();
    Ok((loaded, ns))
}

/// `read`, with the specs and statuses read from JSON left as that text, built only when
/// looked at: for an answer that only passes them through (`dump`).
pub fn read_unsettled(input: &Input, question: Question) -> Result<(Loaded, String)> {
    let mut loaded = match &input.source {
        Source::Demo => demo::load()?,
        Source::Files(paths) => files::load_paths(paths)?,
        Source::Live(options) => return read_live(input, options, question),
    };
    let ns = offline_namespace(input);
    loaded.place_in(&ns);
    narrow(input, &mut loaded, question, &ns);
    Ok((loaded, ns))
}

/// `get -w`: reads the live cluster as `load` does (warning about every blind spot),
/// hands the objects read and the namespace in scope (None with `-A`) to `initial`,
/// then each batch of changes the watches see to `on_changes`, until Ctrl-C.
pub fn watch(
    input: &Input,
    initial: impl FnOnce(Snapshot, Option<String>) -> Result<()>,
    on_changes: impl FnMut(Vec<Change>) -> Result<()>,
) -> Result<()> {
    let opts = live_only(input)?;
    let catalog = Catalog::build(&[], &input.policy_kinds);
    let guide = guide(&catalog);
    live::load_and_watch::<anyhow::Error>(
        opts,
        &guide,
        |cluster, _| {
            let ns = namespace_or(input, &cluster.default_namespace)?;
            Ok(focus::live_scope(
                &Need::Everything,
                &catalog,
                &ns,
                input.all_namespaces,
            ))
        },
        |mut loaded, cluster| {
            loaded.snapshot.settle();
            warn_blind_spots(&loaded.snapshot.blind_spots);
            let ns = namespace_or(input, &cluster.default_namespace)?;
            initial(loaded.snapshot, (!input.all_namespaces).then_some(ns))
        },
        on_changes,
    )
}

/// The live cluster's namespaces, for `-n <TAB>`: one request, given at most five
/// seconds (a shell waits on it).
pub fn live_namespaces(input: &Input) -> Result<Vec<String>> {
    let mut opts = live_only(input)?.clone();
    opts.request_timeout = opts.request_timeout.min(Duration::from_secs(5));
    Ok(live::names::namespace_names(&opts)?)
}

/// The live cluster's objects of one kind in `namespace` (None: all), for `TYPE/<TAB>`:
/// discovery, then one list, given at most five seconds each.
pub fn live_objects(
    input: &Input,
    type_word: &str,
    known: Option<&kubectl_policies::model::GroupKind>,
    namespace: Option<&str>,
) -> Result<Vec<kubectl_policies::model::ObjRef>> {
    let mut opts = live_only(input)?.clone();
    opts.request_timeout = opts.request_timeout.min(Duration::from_secs(5));
    Ok(live::names::object_refs(
        &opts, type_word, known, namespace,
    )?)
}

/// What the live reader is handed from above: the kinds known before anything is read
/// (the registry's and the declared ones) and how to follow references and Pods.
fn guide(catalog: &Catalog) -> live::Guide {
    live::Guide {
        policy_kinds: catalog.kinds_for_reading(),
        follow: focus::needed_namespaces,
        pod_picking_kinds: catalog.pod_picking_kinds(),
        pod_lists: focus::pod_lists,
        referenced: focus::referenced,
        referring_kinds: focus::referring_kinds(),
    }
}

/// The live cluster's connection settings: the plan's source is live when completion
/// asks the cluster (it does not ask with -f or --demo) and for `get -w` (refused offline).
fn live_only(input: &Input) -> Result<&LiveOptions> {
    match &input.source {
        Source::Live(options) => Ok(options),
        Source::Demo | Source::Files(_) => bail!("-f and --demo read no cluster"),
    }
}

fn read_live(input: &Input, opts: &LiveOptions, question: Question) -> Result<(Loaded, String)> {
    // The kinds known before anything is read: the registry's and the declared ones.
    let catalog = Catalog::build(&[], &input.policy_kinds);
    let guide = guide(&catalog);
    let (loaded, cluster) = live::load::<anyhow::Error>(opts, &guide, |cluster, _| {
        let ns = namespace_or(input, &cluster.default_namespace)?;
        let need = match question {
            Question::Object(words) => match subject::name_target(words, &catalog, &[], &ns) {
                // A section is read with its object.
                Ok((_, r)) => Need::Object(r.object()),
                Err(_) => Need::Everything,
            },
            Question::Namespace => Need::Namespace,
            Question::Everything | Question::Changes | Question::Reach(_) => Need::Everything,
        };
        Ok(focus::live_scope(
            &need,
            &catalog,
            &ns,
            input.all_namespaces,
        ))
    })?;
    Ok((loaded, namespace_or(input, &cluster.default_namespace)?))
}

/// `-n` (already checked), else the context's namespace, which must be a namespace
/// name too before it goes into a URL.
fn namespace_or(input: &Input, context_namespace: &str) -> Result<String> {
    if let Some(ns) = &input.namespace {
        return Ok(ns.clone());
    }
    if let Some(problem) = namespace_name_problem(context_namespace) {
        bail!("the kubeconfig context's namespace {context_namespace:?} is not a namespace name: {problem}; fix the context or give -n NAMESPACE");
    }
    Ok(context_namespace.to_string())
}

/// Offline, an answer about one object or one policy's reach is computed from the
/// objects it can depend on (`focus::narrow`), as a scoped live read would have read
/// them: building the hierarchy of a whole large cluster to answer about one route is
/// most of the work.
fn narrow(input: &Input, loaded: &mut Loaded, question: Question, ns: &str) {
    let (Question::Object(words) | Question::Reach(words)) = question else {
        return;
    };
    let catalog = Catalog::build(&loaded.snapshot.objects, &input.policy_kinds);
    let Ok((_, start)) = subject::name_target(words, &catalog, &loaded.snapshot.objects, ns) else {
        return;
    };
    let aside = focus::narrow(&mut loaded.snapshot, &catalog, &start.object());
    // Left to the OS at exit, as the world is (see `Session::world`).
    std::mem::forget(aside);
}

/// Offline, the namespace is `-n`, else the kubeconfig context's (read from the file,
/// no cluster contact), else `default`: where `kubectl apply -f` would put an object
/// that names none.
fn offline_namespace(input: &Input) -> String {
    if let Some(ns) = &input.namespace {
        return ns.clone();
    }
    let kubeconfig = input.kubeconfig.as_ref().map(std::path::Path::new);
    match live::context_namespace(kubeconfig, input.context.as_deref()) {
        Ok(Some(ns)) if namespace_name_problem(&ns).is_some() => {
            warn_line(&format!("warning: the kubeconfig context's namespace {ns:?} is not a namespace name; the namespace is default"));
            "default".to_string()
        }
        Ok(Some(ns)) => ns,
        Ok(None) => "default".to_string(),
        Err(e) => {
            warn_line(&format!("warning: {e:#}; the namespace is default"));
            "default".to_string()
        }
    }
}
