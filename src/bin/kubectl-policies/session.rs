//! Reading the objects (the demo, files, or the live cluster) and analysing them: what
//! every command starts with.

use crate::cli::{self, Global};
use anyhow::{anyhow, bail, Result};
use kubectl_policies::catalog::Catalog;
use kubectl_policies::focus::{self, Need};
use kubectl_policies::model::BlindReason;
use kubectl_policies::model::{namespace_name_problem, BlindSpot, Snapshot};
use kubectl_policies::query::{self, subject, World};
use kubectl_policies::render::escape::terminal_safe;
use kubectl_policies::source::files::Loaded;
use kubectl_policies::source::live::watch::Change;
use kubectl_policies::source::live::{self, LiveOptions};
use kubectl_policies::source::{demo, files};
use std::mem::ManuallyDrop;
use std::path::PathBuf;
use std::time::Duration;

/// What a command's answer depends on, as the command line names it (TYPE/NAME words
/// are resolved once the kinds are known: before a live read, after reading files).
#[derive(Clone, Copy)]
pub enum Question<'a> {
    /// Everything in scope (`get`, `tree`, `check`, `graph`).
    Everything,
    /// Everything in scope, to be analysed again with changes (`blast-radius --apply`).
    Changes,
    /// One object's answer (`describe`, `effective`).
    Object(&'a [String]),
    /// A policy's reach (`blast-radius`).
    Reach(&'a [String]),
    /// `dump` without -A: one namespace and its objects' ancestors.
    Namespace,
}

/// The analysed world and the namespace names resolve in.
pub struct Session {
    /// Never dropped: a one-shot command leaves its memory to the OS at exit instead of
    /// freeing a large cluster object by object (as clang's -disable-free does).
    pub world: ManuallyDrop<World>,
    /// `-n`, else the context's namespace, else `default`.
    pub namespace: String,
    all_namespaces: bool,
}

impl Session {
    /// The namespace in scope: none with `-A`.
    pub fn scope(&self) -> Option<&str> {
        (!self.all_namespaces).then_some(self.namespace.as_str())
    }

    /// What `TYPE/NAME` names.
    pub fn subject(&self, words: &[String]) -> Result<subject::Subject> {
        subject::find_subject(&self.world, words, &self.namespace).map_err(|e| anyhow!(e))
    }

    /// The object of the hierarchy `TYPE/NAME` names, for a command (`what`) that starts
    /// at one.
    pub fn node(&self, words: &[String], what: &str) -> Result<kubectl_policies::topology::NodeId> {
        subject::node_of(&self.world, self.subject(words)?, what).map_err(|e| anyhow!(e))
    }
}

/// Reads, warns about every blind spot on stderr, analyses.
pub fn load(flags: &Global, question: Question) -> Result<Session> {
    let (loaded, namespace) = read(flags, question)?;
    warn_blind_spots(&loaded.snapshot.blind_spots);
    let analyze = match question {
        Question::Changes => query::analyze,
        _ => query::analyze_once,
    };
    let world = analyze(loaded.snapshot, &flags.policy_kind, &loaded.malformed);
    // The references that could not be checked are known once analysed.
    let unchecked = world.topology.snapshot.blind_spots.iter();
    for spot in unchecked.filter(|b| b.reason == BlindReason::Unchecked) {
        warn_line(&format!("warning: {}", spot.message));
    }
    Ok(Session {
        world: ManuallyDrop::new(world),
        namespace,
        all_namespaces: flags.all_namespaces,
    })
}

pub fn warn_blind_spots(spots: &[BlindSpot]) {
    for spot in spots {
        warn_line(&format!("warning: {}", spot.message));
    }
}

/// One line on stderr, its text from input or a server escaped (docs/reference.md#terminal-safety).
pub fn warn_line(text: &str) {
    eprintln!("{}", terminal_safe(text));
}

/// Reads the objects: the demo, files, or the live cluster; and the namespace in scope.
/// Every spec and status is built, on every core, and the text it was read from let go
/// (`Snapshot::settle`): the answers look at all of them.
pub fn read(flags: &Global, question: Question) -> Result<(Loaded, String)> {
    let (mut loaded, ns) = read_unsettled(flags, question)?;
    loaded.snapshot.settle();
    Ok((loaded, ns))
}

/// `read`, with the specs and statuses read from JSON left as that text, built only when
/// looked at: for an answer that only passes them through (`dump`).
pub fn read_unsettled(flags: &Global, question: Question) -> Result<(Loaded, String)> {
    let offline = match (flags.demo, flags.filename.is_empty()) {
        (true, false) => bail!("--demo and -f cannot be used together"),
        (true, true) => Some(demo::load()?),
        (false, false) => Some(files::load_paths(&flags.filename)?),
        (false, true) => None,
    };
    match offline {
        Some(mut loaded) => {
            let ns = offline_namespace(flags);
            loaded.place_in(&ns);
            narrow(flags, &mut loaded, question, &ns);
            Ok((loaded, ns))
        }
        None => read_live(flags, question),
    }
}

/// How to reach the live cluster, from the flags.
fn live_options(flags: &Global) -> Result<LiveOptions> {
    Ok(LiveOptions {
        kubeconfig: flags.kubeconfig.as_ref().map(PathBuf::from),
        context: flags.context.clone(),
        request_timeout: parse_duration(&flags.request_timeout)
            .map_err(|e| anyhow!("--request-timeout {:?}: {e}", flags.request_timeout))?,
        overrides: overrides(&flags.connection),
        ..LiveOptions::default()
    })
}

/// `get -w`: reads the live cluster as `load` does (warning about every blind spot),
/// hands the objects read and the namespace in scope (None with `-A`) to `initial`,
/// then each batch of changes the watches see to `on_changes`, until Ctrl-C.
pub fn watch(
    flags: &Global,
    initial: impl FnOnce(Snapshot, Option<String>) -> Result<()>,
    on_changes: impl FnMut(Vec<Change>) -> Result<()>,
) -> Result<()> {
    let opts = live_options(flags)?;
    let catalog = Catalog::build(&[], &flags.policy_kind);
    let guide = guide(&catalog);
    live::load_and_watch::<anyhow::Error>(
        &opts,
        &guide,
        |cluster, _| {
            let ns = namespace_or(flags, &cluster.default_namespace)?;
            Ok(focus::live_scope(
                &Need::Everything,
                &catalog,
                &ns,
                flags.all_namespaces,
            ))
        },
        |mut loaded, cluster| {
            loaded.snapshot.settle();
            warn_blind_spots(&loaded.snapshot.blind_spots);
            let ns = namespace_or(flags, &cluster.default_namespace)?;
            initial(loaded.snapshot, (!flags.all_namespaces).then_some(ns))
        },
        on_changes,
    )
}

/// The live cluster's namespaces, for `-n <TAB>`: one request, given at most five
/// seconds (a shell waits on it).
pub fn live_namespaces(flags: &Global) -> Result<Vec<String>> {
    let mut opts = live_options(flags)?;
    opts.request_timeout = opts.request_timeout.min(Duration::from_secs(5));
    Ok(live::names::namespace_names(&opts)?)
}

/// The live cluster's objects of one kind in `namespace` (None: all), for `TYPE/<TAB>`:
/// discovery, then one list, given at most five seconds each.
pub fn live_objects(
    flags: &Global,
    type_word: &str,
    known: Option<&kubectl_policies::model::GroupKind>,
    namespace: Option<&str>,
) -> Result<Vec<kubectl_policies::model::ObjRef>> {
    let mut opts = live_options(flags)?;
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

fn read_live(flags: &Global, question: Question) -> Result<(Loaded, String)> {
    let opts = live_options(flags)?;
    // The kinds known before anything is read: the registry's and the declared ones.
    let catalog = Catalog::build(&[], &flags.policy_kind);
    let guide = guide(&catalog);
    let (loaded, cluster) = live::load::<anyhow::Error>(&opts, &guide, |cluster, _| {
        let ns = namespace_or(flags, &cluster.default_namespace)?;
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
            flags.all_namespaces,
        ))
    })?;
    Ok((loaded, namespace_or(flags, &cluster.default_namespace)?))
}

/// `-n` (already checked), else the context's namespace, which must be a namespace
/// name too before it goes into a URL.
fn namespace_or(flags: &Global, context_namespace: &str) -> Result<String> {
    if let Some(ns) = &flags.namespace {
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
fn narrow(flags: &Global, loaded: &mut Loaded, question: Question, ns: &str) {
    let (Question::Object(words) | Question::Reach(words)) = question else {
        return;
    };
    let catalog = Catalog::build(&loaded.snapshot.objects, &flags.policy_kind);
    let Ok((_, start)) = subject::name_target(words, &catalog, &loaded.snapshot.objects, ns) else {
        return;
    };
    let aside = focus::narrow(&mut loaded.snapshot, &catalog, &start.object());
    // Left to the OS at exit, as the world is (see `Session::world`).
    std::mem::forget(aside);
}

/// kubectl's connection flags, as the live source takes them.
fn overrides(connection: &cli::Connection) -> live::config::Overrides {
    live::config::Overrides {
        server: connection.server.clone(),
        token: connection.token.clone(),
        user: connection.user.clone(),
        cluster: connection.cluster.clone(),
        certificate_authority: connection.certificate_authority.clone(),
        client_certificate: connection.client_certificate.clone(),
        client_key: connection.client_key.clone(),
        insecure_skip_tls_verify: connection.insecure_skip_tls_verify,
        tls_server_name: connection.tls_server_name.clone(),
        impersonate: connection.impersonate.clone(),
        impersonate_groups: connection.impersonate_groups.clone(),
        impersonate_uid: connection.impersonate_uid.clone(),
    }
}

/// Offline, the namespace is `-n`, else the kubeconfig context's (read from the file,
/// no cluster contact), else `default`: where `kubectl apply -f` would put an object
/// that names none.
fn offline_namespace(flags: &Global) -> String {
    if let Some(ns) = &flags.namespace {
        return ns.clone();
    }
    let kubeconfig = flags.kubeconfig.as_ref().map(std::path::Path::new);
    match live::context_namespace(kubeconfig, flags.context.as_deref()) {
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

/// A year: what `0` (no limit) means for a request.
const NO_LIMIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// Why a `--request-timeout` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("expected a duration such as 30s, 1m or 500ms")]
    Empty,
    #[error("a number needs a unit (ms, s, m, h)")]
    NoUnit,
    #[error("{number:?} is not a number")]
    NotANumber { number: String },
    #[error("unknown unit {unit:?} (use ms, s, m or h)")]
    UnknownUnit { unit: String },
    #[error("{text:?} is out of range")]
    OutOfRange { text: String },
    #[error("{text:?} is longer than a year")]
    TooLong { text: String },
}

/// kubectl's durations: `30s`, `1m30s`, `500ms`, `2h`, a bare number of seconds; `0`
/// means no limit.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let too_long = || DurationError::TooLong {
        text: text.to_string(),
    };
    let trimmed = text.trim();
    if let Ok(secs) = trimmed.parse::<u64>() {
        return match secs {
            0 => Ok(NO_LIMIT),
            secs if secs > NO_LIMIT.as_secs() => Err(too_long()),
            secs => Ok(Duration::from_secs(secs)),
        };
    }
    if trimmed.is_empty() {
        return Err(DurationError::Empty);
    }
    let mut total = Duration::ZERO;
    let mut rest = trimmed;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or(DurationError::NoUnit)?;
        let (num, tail) = rest.split_at(digits);
        let value: f64 = num.parse().map_err(|_| DurationError::NotANumber {
            number: num.to_string(),
        })?;
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_len);
        let scale = match unit {
            "ms" => 0.001,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => {
                return Err(DurationError::UnknownUnit {
                    unit: unit.to_string(),
                })
            }
        };
        let part =
            Duration::try_from_secs_f64(value * scale).map_err(|_| DurationError::OutOfRange {
                text: text.to_string(),
            })?;
        total = total
            .checked_add(part)
            .filter(|t| *t <= NO_LIMIT)
            .ok_or_else(too_long)?;
        rest = next;
    }
    Ok(if total.is_zero() { NO_LIMIT } else { total })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("0"), Ok(NO_LIMIT));
        assert_eq!(
            parse_duration("5x"),
            Err(DurationError::UnknownUnit {
                unit: "x".to_string()
            })
        );
        assert_eq!(
            parse_duration("5x").unwrap_err().to_string(),
            "unknown unit \"x\" (use ms, s, m or h)"
        );
        assert_eq!(
            parse_duration("9999999h").unwrap_err().to_string(),
            "\"9999999h\" is longer than a year"
        );
        assert_eq!(parse_duration(" "), Err(DurationError::Empty));
        assert_eq!(parse_duration("5"), Ok(Duration::from_secs(5)));
        assert_eq!(
            parse_duration("1.5.2s").unwrap_err().to_string(),
            "\"1.5.2\" is not a number"
        );
        assert_eq!(parse_duration("3s5"), Err(DurationError::NoUnit));
    }
}
