//! One small function per command: read, ask one question of the library, render the
//! answer in the format asked for. Each returns what the answer was, and `main` alone
//! turns that into an exit code.

use crate::cli::{Args, Command, Global};
use crate::complete;
use crate::session::{self, Question};
use crate::settings::{self, Format};
use anyhow::{anyhow, bail, Context, Result};
use kubectl_policies::catalog::policy::LabelSelector;
use kubectl_policies::model::{ObjRef, Snapshot};
use kubectl_policies::query::hint;
use kubectl_policies::query::select::{self, Selection};
use kubectl_policies::query::subject::{self, Subject};
use kubectl_policies::query::{
    self, outline, types::resolve_type, CheckResult, ListOf, NameError, World,
};
use kubectl_policies::render::escape::SafeWriter;
use kubectl_policies::render::{self, age, columns, human, jsonpath};
use kubectl_policies::source::dump::DumpList;
use kubectl_policies::source::files;
use kubectl_policies::source::live::watch::Change;
use kubectl_policies::topology::Severity;
use serde::Serialize;
use std::cell::RefCell;
use std::io::Write;
use std::mem::ManuallyDrop;

/// What an answer was, for the exit code (docs/reference.md#exit-codes-and-streams: 0, 1 for `check` errors, 3 for
/// `blast-radius --exit-code` changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Answered,
    /// `check` found an error-level finding.
    Errors,
    /// `blast-radius --exit-code` found changes.
    Changes,
    /// Some of the objects named were not found (the others were answered).
    Missing,
}

impl Outcome {
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Answered => 0,
            Outcome::Errors | Outcome::Missing => 1,
            Outcome::Changes => 3,
        }
    }
}

/// Routes the command to its function; output is buffered and flushed at the end.
pub fn run(args: Args) -> Result<Outcome> {
    let flags = &args.global;
    let get_policies = matches!(&args.command, Command::Get { words, .. } if !is_kinds(words));
    let completing = matches!(
        args.command,
        Command::Complete { .. } | Command::Completion { .. }
    );
    if flags.selector.is_some() && !get_policies && !completing {
        bail!("-l/--selector filters the policies `get` lists; it does not apply to this command");
    }
    if !completing {
        settings::check_namespace(flags)?;
    }
    let stdout = std::io::stdout();
    let buffered = std::io::BufWriter::new(stdout.lock());
    // JSON and YAML are written exact; everything else a person reads goes through the
    // terminal-safe writer (render::escape), whatever renderer wrote it.
    let exact = matches!(flags.output.as_deref(), Some("json" | "yaml"))
        || matches!(args.command, Command::Dump | Command::Completion { .. });
    let mut out: Box<dyn Write> = if exact {
        Box::new(buffered)
    } else {
        let colour = settings::style(flags, settings::Format::Table).color;
        Box::new(SafeWriter::new(buffered, colour))
    };
    let outcome = match &args.command {
        Command::Get { words, .. } if is_kinds(words) => get_kinds(flags, &mut out)?,
        Command::Get { watch: true, .. } if !get_policies => {
            bail!("-w/--watch follows the policies `get` lists; `get kinds` cannot be watched")
        }
        Command::Get {
            words,
            sort_by,
            show_labels,
            watch: true,
        } => get_watch(flags, words, sort_by.as_deref(), *show_labels, &mut out)?,
        Command::Get {
            words,
            sort_by,
            show_labels,
            ..
        } => get(flags, words, sort_by.as_deref(), *show_labels, &mut out)?,
        Command::Describe { target } => describe(flags, target, &mut out)?,
        Command::Effective { target, kind } => effective(flags, target, kind.as_deref(), &mut out)?,
        Command::Tree { target } => tree(flags, target, &mut out)?,
        Command::BlastRadius {
            target,
            apply,
            exit_code,
        } => blast_radius(flags, target, apply, *exit_code, &mut out)?,
        Command::Dump => dump(flags, &mut out)?,
        Command::Check => check(flags, &mut out)?,
        Command::Graph { target } => graph(flags, target, &mut out)?,
        Command::Completion { shell } => {
            complete::script(*shell, &mut out)?;
            Outcome::Answered
        }
        Command::Complete { words } => {
            complete::candidates(
                words,
                &mut out,
                |flags| {
                    let session = session::load(flags, Question::Everything)?;
                    Ok(ManuallyDrop::into_inner(session.world))
                },
                complete::Live {
                    namespaces: &session::live_namespaces,
                    objects: &session::live_objects,
                },
            )?;
            Outcome::Answered
        }
    };
    out.flush().context("writing output")?;
    Ok(outcome)
}

/// `get kinds` (or `get kind`): the policy kinds, not policies.
fn is_kinds(words: &[String]) -> bool {
    matches!(words, [one] if one == "kinds" || one == "kind")
}

/// JSON or YAML of an answer.
fn structured(out: &mut impl Write, format: Format, answer: &impl Serialize) -> Result<()> {
    match format {
        Format::Json => render::json(out, answer)?,
        _ => render::yaml(out, answer)?,
    }
    Ok(())
}

/// kubectl's words for an empty answer, in a namespace or in all of them.
fn nothing_found(ns: Option<&str>) -> String {
    match ns {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found.".to_string(),
    }
}

fn get_kinds(flags: &Global, out: &mut impl Write) -> Result<Outcome> {
    let format = Format::for_command(flags, "get kinds")?;
    let session = session::load(flags, Question::Everything)?;
    let rows = query::get_kinds(&session.world);
    match format {
        Format::Json | Format::Yaml => {
            let blind = &session.world.topology.snapshot.blind_spots;
            structured(out, format, &ListOf::new("PolicyKindList", &rows, blind))?
        }
        _ => human::get_kinds(
            out,
            &rows,
            format == Format::Wide,
            !flags.no_headers,
            settings::style(flags, format),
        )?,
    }
    Ok(Outcome::Answered)
}

fn get(
    flags: &Global,
    words: &[String],
    sort_by: Option<&str>,
    show_labels: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    let format = Format::for_command(flags, "get")?;
    let selector = settings::label_selector(flags)?;
    let output = GetOutput {
        templates: Templates::read(flags, format, sort_by)?,
        flags,
        format,
        show_labels,
    };
    let session = session::load(flags, Question::Everything)?;
    let selection = select::read_selection(&session.world, words).map_err(|e| anyhow!(e))?;
    let all = query::get_policies(&session.world, session.scope());
    let (mut rows, missing) = select::select(&session.world, all, &selection, session.scope());
    // kubectl answers for the names it finds and reports the others (exit 1 at the end).
    for m in &missing {
        session::warn_line(&format!("Error from server (NotFound): {m}"));
    }
    // Statuses are computed over every policy; -l only chooses the rows shown.
    if let Some(sel) = &selector {
        rows.retain(|r| selected(&session.world, sel, &r.policy));
    }
    if let Some(path) = &output.templates.sort_by {
        rows = sorted_by(rows, path)?;
    }
    output.policies(out, &session, &selection, &rows, !missing.is_empty())?;
    Ok(match missing.is_empty() {
        true => Outcome::Answered,
        false => Outcome::Missing,
    })
}

/// `--sort-by`'s path.
fn sort_path(sort_by: Option<&str>) -> Result<Option<jsonpath::Path>> {
    sort_by
        .map(|p| jsonpath::relaxed(p).map_err(|e| anyhow!("--sort-by {p:?}: {e}")))
        .transpose()
}

/// The templates `--sort-by` and `-o` name.
struct Templates {
    sort_by: Option<jsonpath::Path>,
    /// `-o jsonpath=...`.
    jsonpath: Option<jsonpath::Template>,
    /// `-o custom-columns=...`.
    columns: Option<columns::Columns>,
}

impl Templates {
    /// Read before anything is loaded, so that a bad one fails at once.
    fn read(flags: &Global, format: Format, sort_by: Option<&str>) -> Result<Templates> {
        let sort_by = sort_path(sort_by)?;
        let jsonpath = match format {
            Format::JsonPath => Some(
                jsonpath::Template::parse(Format::argument(flags))
                    .map_err(|e| anyhow!("-o jsonpath: {e}"))?,
            ),
            _ => None,
        };
        let columns = match format {
            Format::CustomColumns => Some(
                columns::Columns::parse(Format::argument(flags))
                    .map_err(|e| anyhow!("-o custom-columns: {e}"))?,
            ),
            _ => None,
        };
        Ok(Templates {
            sort_by,
            jsonpath,
            columns,
        })
    }
}

/// How `get` writes the policies it lists.
struct GetOutput<'a> {
    flags: &'a Global,
    format: Format,
    templates: Templates,
    show_labels: bool,
}

impl GetOutput<'_> {
    /// `rows` in the format asked for, or kubectl's words for none on stderr (none when
    /// only names not found were asked for: `some_missing`, already said).
    fn policies(
        &self,
        out: &mut impl Write,
        session: &session::Session,
        selection: &Selection,
        rows: &[query::PolicyRow],
        some_missing: bool,
    ) -> Result<()> {
        let (flags, format) = (self.flags, self.format);
        let blind = &session.world.topology.snapshot.blind_spots;
        // One policy asked for by name is answered as itself, as `kubectl get KIND NAME`
        // answers, when everything could be read; anything else as a List, with what
        // could not be read beside the items (docs/reference.md#blind-spots).
        let as_itself = one_named(selection, rows) && blind.is_empty();
        match format {
            Format::Json | Format::Yaml if as_itself => structured(out, format, &rows[0])?,
            Format::Json | Format::Yaml => {
                structured(out, format, &ListOf::new("PolicyList", rows, blind))?
            }
            // kubectl's template, over the `-o json` answer; its text is written as it is
            // (escaped on a terminal, as all text).
            Format::JsonPath => {
                let list = match as_itself {
                    true => serde_json::to_value(&rows[0])?,
                    false => serde_json::to_value(ListOf::new("PolicyList", rows, blind))?,
                };
                if let Some(t) = &self.templates.jsonpath {
                    let text = t.execute(&list).map_err(|e| {
                        anyhow!(
                            "error executing jsonpath {:?}: {e}",
                            Format::argument(flags)
                        )
                    })?;
                    out.write_all(text.as_bytes())?;
                }
            }
            Format::Name => {
                for r in rows {
                    let p = &r.policy;
                    writeln!(out, "{}.{}/{}", p.kind.to_lowercase(), p.group, p.name)?;
                }
            }
            _ if rows.is_empty() && some_missing => {}
            Format::CustomColumns if !rows.is_empty() => {
                let items = serde_json::to_value(rows)?;
                if let Some(c) = &self.templates.columns {
                    let items = items.as_array().map(Vec::as_slice).unwrap_or_default();
                    c.write(
                        out,
                        items,
                        !flags.no_headers,
                        settings::style(flags, format),
                    )?;
                }
            }
            _ if rows.is_empty() && *selection != Selection::All => {
                session::warn_line(&nothing_found(session.scope()))
            }
            _ if rows.is_empty() => session::warn_line(&no_policies_found(session.scope())),
            _ => human::get_policies(
                out,
                rows,
                format == Format::Wide,
                !flags.no_headers,
                session.scope().is_none(),
                age::now(),
                settings::style(flags, format),
                self.show_labels,
            )?,
        }
        Ok(())
    }
}

/// What `get` says when no policy is in scope.
fn no_policies_found(ns: Option<&str>) -> String {
    match ns {
        Some(ns) => format!("No policies found in {ns} namespace."),
        None => "No policies found.".to_string(),
    }
}

/// `get -w`: the table (or json lines) as `get` prints it, then, after each batch of
/// changes the watches see, a row for every policy in scope whose status, targets or
/// reach changed, without the header (as `kubectl get -w`), until Ctrl-C.
fn get_watch(
    flags: &Global,
    words: &[String],
    sort_by: Option<&str>,
    show_labels: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    let watch = WatchRows {
        format: watch_format(flags)?,
        selector: settings::label_selector(flags)?,
        sort_by: sort_path(sort_by)?,
        flags,
        show_labels,
        out: RefCell::new(out),
    };
    // Set by the first answer, read by each batch of changes.
    let first: RefCell<Option<FirstAnswer>> = RefCell::new(None);
    session::watch(
        flags,
        |snapshot, scope| {
            *first.borrow_mut() = Some(watch.first(snapshot, scope, words)?);
            Ok(())
        },
        |changes| match first.borrow_mut().as_mut() {
            Some(first) => watch.changed(first, changes),
            None => Ok(()),
        },
    )?;
    Ok(Outcome::Answered)
}

/// The format `get -w` prints in: a cluster is followed, as a table or json lines.
fn watch_format(flags: &Global) -> Result<Format> {
    if flags.demo || !flags.filename.is_empty() {
        bail!("-w/--watch follows a live cluster; it cannot be used with -f or --demo (files and the demo do not change)");
    }
    let format = Format::for_command(flags, "get")?;
    if !matches!(format, Format::Table | Format::Wide | Format::Json) {
        bail!(
            "-w/--watch prints the table (-o wide too) or json lines (-o json); not -o {}",
            flags.output.as_deref().unwrap_or_default()
        );
    }
    Ok(format)
}

/// What the first answer of `get -w` fixed: the objects, the rows' selection, the scope.
struct FirstAnswer {
    watched: query::watch::Watched,
    selection: Selection,
    scope: Option<String>,
}

/// Which rows `get -w` shows and how it prints them.
struct WatchRows<'a, W> {
    flags: &'a Global,
    format: Format,
    selector: Option<LabelSelector>,
    sort_by: Option<jsonpath::Path>,
    show_labels: bool,
    /// Rows are written as they come: each batch is flushed at once.
    out: RefCell<&'a mut W>,
}

impl<W: Write> WatchRows<'_, W> {
    /// The first answer: the rows `get` prints (with what it says of names not found and
    /// of no policies), from the objects first read.
    fn first(
        &self,
        snapshot: Snapshot,
        scope: Option<String>,
        words: &[String],
    ) -> Result<FirstAnswer> {
        let watched = query::watch::Watched::new(snapshot, &self.flags.policy_kind);
        let world = watched.world();
        let selection = select::read_selection(world, words).map_err(|e| anyhow!(e))?;
        let (mut rows, missing) = self.shown(world, watched.rows(), &selection, scope.as_deref());
        // As `get`: a name not found is said (the watch goes on: it may come).
        for m in &missing {
            session::warn_line(&format!("Error from server (NotFound): {m}"));
        }
        if let Some(path) = &self.sort_by {
            rows = sorted_by(rows, path)?;
        }
        if rows.is_empty() && missing.is_empty() && self.format != Format::Json {
            session::warn_line(&no_policies_found(scope.as_deref()));
        }
        self.write(rows, scope.as_deref(), true)?;
        let mut watched = watched;
        watched.forget_first();
        Ok(FirstAnswer {
            watched,
            selection,
            scope,
        })
    }

    /// After a batch of changes: the rows shown that changed, and those of the policies
    /// gone, without the header.
    fn changed(&self, first: &mut FirstAnswer, changes: Vec<Change>) -> Result<()> {
        let (changed, spots) = first.watched.apply(changes);
        session::warn_blind_spots(&spots);
        if !changed {
            return Ok(());
        }
        let answer = first.watched.answer();
        let mut rows = answer.changed;
        rows.extend(answer.deleted);
        let scope = first.scope.as_deref();
        let (rows, _) = self.shown(answer.world, rows, &first.selection, scope);
        if !rows.is_empty() {
            self.write(rows, scope, false)?;
        }
        Ok(())
    }

    /// The rows `get` would show: in scope, of the kind or names asked for, selected by
    /// -l; and the names not found.
    fn shown(
        &self,
        world: &World,
        rows: Vec<query::PolicyRow>,
        selection: &Selection,
        scope: Option<&str>,
    ) -> (Vec<query::PolicyRow>, Vec<NameError>) {
        let rows: Vec<query::PolicyRow> = rows
            .into_iter()
            .filter(|r| scope.is_none() || r.policy.namespace.as_deref() == scope)
            .collect();
        let (mut rows, missing) = select::select(world, rows, selection, scope);
        if let Some(sel) = &self.selector {
            rows.retain(|r| sel.matches(&r.labels));
        }
        (rows, missing)
    }

    /// Rows as `get` prints them (json lines for `-o json`), then flushed.
    fn write(&self, rows: Vec<query::PolicyRow>, scope: Option<&str>, headers: bool) -> Result<()> {
        let (flags, format) = (self.flags, self.format);
        let mut o = self.out.borrow_mut();
        match format {
            Format::Json => {
                for r in &rows {
                    serde_json::to_writer(&mut **o, r)?;
                    writeln!(o)?;
                }
            }
            _ => human::get_policies(
                &mut **o,
                &rows,
                format == Format::Wide,
                headers && !flags.no_headers,
                scope.is_none(),
                age::now(),
                settings::style(flags, format),
                self.show_labels,
            )?,
        }
        o.flush().context("writing output")?;
        Ok(())
    }
}

/// Whether `get` named exactly one policy and found it: kubectl then prints the object,
/// not a list.
fn one_named(selection: &Selection, rows: &[query::PolicyRow]) -> bool {
    matches!(selection, Selection::Named(names) if names.len() == 1) && rows.len() == 1
}

/// The rows in kubectl's `--sort-by` order of `path` over each row's `-o json` item
/// (stable: rows that tie keep their order). A path that yields several values sorts by
/// the first.
fn sorted_by(rows: Vec<query::PolicyRow>, path: &jsonpath::Path) -> Result<Vec<query::PolicyRow>> {
    let items: Vec<serde_json::Value> = rows
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<_, _>>()?;
    let mut keys: Vec<(Option<&serde_json::Value>, query::PolicyRow)> =
        Vec::with_capacity(rows.len());
    for (item, row) in items.iter().zip(rows) {
        let found = path.find(item).map_err(|e| anyhow!("--sort-by: {e}"))?;
        keys.push((found.first().copied(), row));
    }
    keys.sort_by(|a, b| jsonpath::sort_order(a.0, b.0));
    Ok(keys.into_iter().map(|(_, r)| r).collect())
}

/// Whether the policy a `get` row lists has labels that `selector` selects.
fn selected(world: &World, selector: &LabelSelector, policy: &ObjRef) -> bool {
    let topology = &world.topology;
    topology
        .policy_index
        .get(policy)
        .and_then(|&id| {
            topology
                .snapshot
                .objects
                .get(topology.policies[id].object.index())
        })
        .is_some_and(|o| selector.matches(&o.labels))
}

/// One object's answer: text (human, tree) or data (JSON, YAML), gathered so that
/// several are written in order: texts apart as `kubectl describe` sets them, data as
/// one `List`.
enum One {
    Text(Vec<u8>),
    Data(serde_json::Value),
}

impl One {
    fn data(answer: &impl Serialize) -> Result<One> {
        Ok(One::Data(serde_json::to_value(answer)?))
    }

    fn text(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<One> {
        let mut text = Vec::new();
        write(&mut text)?;
        Ok(One::Text(text))
    }
}

/// What several `TYPE/NAME`s need read: one object's answer is read narrowly, several
/// read everything in scope.
fn question_for<'a>(targets: &'a [String], one: fn(&'a [String]) -> Question<'a>) -> Question<'a> {
    match targets {
        [_] => one(targets),
        _ => Question::Everything,
    }
}

/// Answers each object in order. One object answers as before (its error is the
/// command's); of several, one that cannot be answered is reported on stderr, the others
/// are still answered, and the outcome is `Missing` (exit 1).
fn answer_each(
    targets: &[String],
    format: Format,
    out: &mut impl Write,
    mut one: impl FnMut(&[String]) -> Result<One>,
) -> Result<Outcome> {
    let (mut items, mut written, mut outcome) = (Vec::new(), false, Outcome::Answered);
    for target in targets {
        let answer = match one(std::slice::from_ref(target)) {
            Ok(a) => a,
            Err(e) if targets.len() == 1 || is_broken_pipe(&e) => return Err(e),
            Err(e) => {
                report(&e);
                outcome = Outcome::Missing;
                continue;
            }
        };
        match answer {
            One::Data(v) => items.push(v),
            One::Text(text) => {
                if written {
                    out.write_all(b"\n\n")?;
                }
                out.write_all(&text)?;
                written = true;
            }
        }
    }
    // Nothing answered (every one reported): nothing to print, as kubectl.
    if matches!(format, Format::Json | Format::Yaml) && !items.is_empty() {
        match (targets.len(), items.as_slice()) {
            (1, [one]) => structured(out, format, one)?,
            _ => structured(
                out,
                format,
                &serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}),
            )?,
        }
    }
    Ok(outcome)
}

/// One object that could not be answered, as kubectl reports it and goes on.
fn report(e: &anyhow::Error) {
    let text = format!("{e:#}");
    if text.contains(" not found") {
        session::warn_line(&format!("Error from server (NotFound): {text}"));
    } else {
        session::warn_line(&format!("error: {text}"));
    }
}

fn describe(flags: &Global, target: &[String], out: &mut impl Write) -> Result<Outcome> {
    let format = Format::for_command(flags, "describe")?;
    let targets = subject::split_targets(target).map_err(|e| anyhow!(e))?;
    let session = session::load(flags, question_for(&targets, Question::Object))?;
    let (world, style) = (&session.world, settings::style(flags, format));
    let data = matches!(format, Format::Json | Format::Yaml);
    answer_each(&targets, format, out, |target| {
        match session.subject(target)? {
            Subject::Policy(policy) => {
                let description = query::describe_policy(world, policy);
                match format {
                    _ if data => One::data(&description),
                    Format::Tree => One::text(|o| {
                        render::tree::write_policy(o, &outline::policy(world, policy), style)
                    }),
                    _ => One::text(|o| human::describe_policy(o, &description, age::now(), style)),
                }
            }
            Subject::Node(node) => {
                let description = query::describe_target(world, node);
                match format {
                    _ if data => One::data(&description),
                    Format::Tree => One::text(|o| {
                        render::tree::write(o, &outline::target(world, node, &description), style)
                    }),
                    _ => One::text(|o| {
                        human::describe_target(o, &description, format == Format::Wide, style)
                    }),
                }
            }
            Subject::Namespace(ns) => {
                let description = query::describe_namespace(world, &ns)
                    .ok_or_else(|| anyhow!("namespaces {ns:?} not found"))?;
                match format {
                    _ if data => One::data(&description),
                    Format::Tree => One::text(|o| {
                        render::tree::write(o, &outline::namespace(&description), style)
                    }),
                    _ => One::text(|o| {
                        human::describe_target(o, &description, format == Format::Wide, style)
                    }),
                }
            }
        }
    })
}

fn effective(
    flags: &Global,
    target: &[String],
    kind: Option<&str>,
    out: &mut impl Write,
) -> Result<Outcome> {
    let format = Format::for_command(flags, "effective")?;
    let targets = subject::split_targets(target).map_err(|e| anyhow!(e))?;
    let session = session::load(flags, question_for(&targets, Question::Object))?;
    let topology = &session.world.topology;
    let kind = kind
        .map(|k| {
            resolve_type(k, &topology.catalog, &topology.snapshot.objects)
                .map_err(|e| anyhow!(hint::unknown_type(&session.world, k, e)))
        })
        .transpose()?;
    let style = settings::style(flags, format);
    answer_each(&targets, format, out, |target| {
        let node = match session.subject(target)? {
            Subject::Policy(_) => bail!(
                "effective answers for objects of the hierarchy, not for policies: try describe"
            ),
            _ => session.node(target, "effective")?,
        };
        let answer = query::effective(&session.world, node, kind.as_ref());
        match format {
            Format::Json | Format::Yaml => One::data(&answer),
            _ => {
                // How each policy arrives is what describe tells of the object.
                let reaching = query::describe_target(&session.world, node).policies;
                One::text(|o| human::effective(o, &answer, &reaching, style))
            }
        }
    })
}

fn tree(flags: &Global, target: &[String], out: &mut impl Write) -> Result<Outcome> {
    let format = Format::for_command(flags, "tree")?;
    let session = session::load(flags, Question::Everything)?;
    let style = settings::style(flags, format);
    if target.is_empty() {
        let ns = session.scope();
        let roots = query::tree(&session.world, None, ns);
        match format {
            Format::Json | Format::Yaml => structured(out, format, &roots)?,
            _ => {
                if roots.is_empty() {
                    session::warn_line(&nothing_found(ns));
                }
                render::tree::write(out, &roots, style)?
            }
        }
        return Ok(Outcome::Answered);
    }
    let targets = subject::split_targets(target).map_err(|e| anyhow!(e))?;
    answer_each(&targets, format, out, |target| {
        let roots = query::tree(&session.world, Some(session.node(target, "tree")?), None);
        match format {
            // One object's tree is its list of roots (as before); several, a List of them.
            Format::Json | Format::Yaml => One::data(&roots),
            _ => One::text(|o| render::tree::write(o, &roots, style)),
        }
    })
}

fn blast_radius(
    flags: &Global,
    target: &[String],
    apply: &[String],
    exit_code: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    let format = Format::for_command(flags, "blast-radius")?;
    let targets = match apply {
        [] => subject::split_targets(target).map_err(|e| anyhow!(e))?,
        _ => Vec::new(),
    };
    let question = match apply {
        [] => question_for(&targets, Question::Reach),
        _ => Question::Changes,
    };
    let session = session::load(flags, question)?;
    let style = settings::style(flags, format);
    let mut changed = false;
    let mut write = |blast: &query::blast::BlastRadius| -> Result<One> {
        // docs/reference.md#exit-codes-and-streams: exit 3 on changes, or on an error-level finding applied objects bring.
        let errors = blast.findings.iter().any(|f| f.severity == Severity::Error);
        changed |= !blast.changes.is_empty() || errors;
        match format {
            Format::Json | Format::Yaml => One::data(blast),
            _ => One::text(|o| human::blast_radius(o, blast, !flags.no_headers, style)),
        }
    };
    let outcome = if apply.is_empty() {
        answer_each(&targets, format, out, |target| {
            // Left to the OS at exit, as the world is (see `Session::world`): a large blast
            // radius takes a while to free.
            let blast = std::mem::ManuallyDrop::new(match session.subject(target)? {
                Subject::Policy(p) => {
                    query::blast::delete_policy(&session.world, p, &flags.policy_kind)
                }
                _ => bail!(
                    "blast-radius takes a policy (TYPE/NAME of a policy kind) or --apply PATH"
                ),
            });
            write(&blast)
        })?
    } else {
        let mut loaded = files::load_paths(apply)?;
        loaded.place_in(&session.namespace);
        if let Some(e) = loaded.shape_errors.first() {
            bail!("{e}");
        }
        let objects = loaded.snapshot.objects;
        let blast = std::mem::ManuallyDrop::new(query::blast::apply_objects(
            &session.world,
            objects,
            apply.to_vec(),
            &flags.policy_kind,
        ));
        answer_each(&["--apply".to_string()], format, out, |_| write(&blast))?
    };
    Ok(match outcome {
        Outcome::Answered if exit_code && changed => Outcome::Changes,
        other => other,
    })
}

fn dump(flags: &Global, out: &mut impl Write) -> Result<Outcome> {
    let format = Format::for_command(flags, "dump")?;
    // Specs and statuses are passed through: left as the text they were read as.
    let (loaded, _) = session::read_unsettled(flags, Question::Namespace)?;
    // Documents whose shape is wrong are among them: they cannot be written back.
    session::warn_blind_spots(&loaded.snapshot.blind_spots);
    let list = DumpList::of(&loaded);
    match format {
        Format::Json => render::json_streamed(out, &list)?,
        _ => render::yaml_streamed(out, &list)?,
    }
    // Left to the OS at exit, as a session's world is.
    std::mem::forget(loaded);
    Ok(Outcome::Answered)
}

fn check(flags: &Global, out: &mut impl Write) -> Result<Outcome> {
    let format = Format::for_command(flags, "check")?;
    let session = session::load(flags, Question::Everything)?;
    let findings = query::check_in(&session.world, session.scope());
    let blind = &session.world.topology.snapshot.blind_spots;
    match format {
        Format::Json | Format::Yaml => structured(out, format, &CheckResult::new(&findings, blind))?,
        // Not "No findings.": what could not be read may hold some (said on stderr).
        _ if findings.is_empty() && !blind.is_empty() => writeln!(
            out,
            "No findings in what could be read; {} part{} of the input could not be read (see the warnings).",
            blind.len(),
            if blind.len() == 1 { "" } else { "s" }
        )?,
        _ if findings.is_empty() => writeln!(out, "No findings.")?,
        _ => human::findings_table(out, &findings, !flags.no_headers, settings::style(flags, format))?,
    }
    // docs/reference.md#exit-codes-and-streams: exit 1 on an error-level finding, or when part of the input was not read.
    let errors = findings.iter().any(|f| f.severity == Severity::Error) || !blind.is_empty();
    Ok(if errors {
        Outcome::Errors
    } else {
        Outcome::Answered
    })
}

fn graph(flags: &Global, target: &[String], out: &mut impl Write) -> Result<Outcome> {
    let format = Format::for_command(flags, "graph")?;
    let session = session::load(flags, Question::Everything)?;
    let focus = match target {
        [] => None,
        _ => Some(session.node(target, "graph")?),
    };
    let ns = if focus.is_some() {
        None
    } else {
        session.scope()
    };
    let picture = query::graph::graph(&session.world, focus, ns);
    if picture.is_empty() {
        session::warn_line(&nothing_found(ns));
    }
    match format {
        Format::Mermaid => render::graph::mermaid(out, &picture)?,
        _ => render::graph::dot(out, &picture)?,
    }
    Ok(Outcome::Answered)
}

/// A broken pipe (`| head`) is no error: the reader had what it wanted.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
