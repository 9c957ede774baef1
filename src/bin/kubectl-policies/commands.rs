//! One small function per command: read, ask one question of the library, render the
//! answer in the format asked for. Each returns what the answer was, and `main` alone
//! turns that into an exit code.

mod diff;
mod get;

use crate::cli::{Args, Command, Global};
use crate::complete;
use crate::plan::{BlastPlan, Input, Plan, Task};
use crate::session::{self, Question, Session};
use crate::settings::{self, Format};
use crate::warn::{warn_blind_spots, warn_line};
use anyhow::{anyhow, bail, Context, Result};
use kubectl_policies::model::BlindReason;
use kubectl_policies::query::hint;
use kubectl_policies::query::subject::Subject;
use kubectl_policies::query::{self, outline, types::resolve_type, CheckResult};
use kubectl_policies::render::escape::SafeWriter;
use kubectl_policies::render::{self, human};
use kubectl_policies::source::dump::DumpList;
use kubectl_policies::source::files::{self, Loaded};
use kubectl_policies::topology::Severity;
use serde::Serialize;
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

/// Routes the command to its function: the command line resolved into a plan once, the
/// objects read and analysed once (`session`), then the command's answer; output is
/// buffered and flushed at the end.
pub fn run(args: Args) -> Result<Outcome> {
    let Args { global, command } = args;
    let plan = match command {
        Command::Completion { shell } => {
            let mut out = writer(true, false);
            complete::script(shell, &mut out)?;
            out.flush().context("writing output")?;
            return Ok(Outcome::Answered);
        }
        Command::Complete { words } => return complete_words(&global, &words),
        command => Plan::resolve(global, command)?,
    };
    let mut out = writer(plan.output.exact, plan.output.colour);
    let outcome = route(&plan, &mut out)?;
    out.flush().context("writing output")?;
    Ok(outcome)
}

/// Standard output, buffered: JSON and YAML written exact, everything else a person reads
/// through the terminal-safe writer (render::escape), whatever renderer wrote it.
fn writer(exact: bool, colour: bool) -> Box<dyn Write> {
    let buffered = std::io::BufWriter::new(std::io::stdout().lock());
    match exact {
        true => Box::new(buffered),
        false => Box::new(SafeWriter::new(buffered, colour)),
    }
}

/// The session the task needs, read once, then the task's function.
fn route(plan: &Plan, out: &mut impl Write) -> Result<Outcome> {
    let question = match &plan.task {
        Task::Watch(get) => {
            let watch = get::Watch::new(plan, get, out);
            let first = |snapshot, scope| watch.first(snapshot, scope);
            session::watch(&plan.input, first, |changes| watch.changed(changes))?;
            return Ok(Outcome::Answered);
        }
        Task::Dump => {
            // Specs and statuses are passed through: left as the text they were read as.
            let (loaded, _) = session::read_unsettled(&plan.input, Question::Namespace)?;
            return dump(plan, loaded, out);
        }
        Task::Diff {
            from,
            to,
            exit_code,
        } => return diff::diff(plan, (from, to), *exit_code, out),
        Task::Describe { targets } | Task::Effective { targets, .. } => {
            question_for(targets, Question::Object)
        }
        Task::BlastRadius(blast) => match blast.apply.as_slice() {
            // An object policies name (a Secret) is deleted from a copy analysed again.
            [] if names_no_policy(&blast.targets) => Question::Changes,
            [] => question_for(&blast.targets, Question::Reach),
            _ => Question::Changes,
        },
        Task::GetKinds | Task::Get(_) | Task::Tree { .. } | Task::Check | Task::Graph { .. } => {
            Question::Everything
        }
    };
    if let Task::BlastRadius(blast) = &plan.task {
        // Analysed again without a policy or an object, or with objects applied: the
        // world keeps its links.
        let session = session::load_rebuildable(&plan.input, question)?;
        return blast_radius(plan, &session, blast, out);
    }
    let session = session::load(&plan.input, question)?;
    let s = &session;
    match &plan.task {
        Task::GetKinds => get::get_kinds(plan, s, out),
        Task::Get(get) => get::get(plan, get, s, out),
        Task::Describe { targets } => describe(plan, s, targets, out),
        Task::Effective { targets, kind } => effective(plan, s, targets, kind.as_deref(), out),
        Task::Tree { targets } => tree(plan, s, targets.as_deref(), out),
        Task::Check => check(plan, s, out),
        Task::Graph { target } => graph(plan, s, target, out),
        // Answered above.
        Task::Watch(_) | Task::Dump | Task::BlastRadius(_) | Task::Diff { .. } => {
            Ok(Outcome::Answered)
        }
    }
}

/// `__complete`: the candidates for the words typed, read from what they name.
fn complete_words(flags: &Global, words: &[String]) -> Result<Outcome> {
    let mut out = writer(false, settings::colour(flags.color));
    complete::candidates(
        words,
        &mut out,
        |flags| {
            let session = session::load(&Input::resolve(flags)?, Question::Everything)?;
            Ok(ManuallyDrop::into_inner(session.world))
        },
        complete::Live {
            namespaces: &|flags| session::live_namespaces(&Input::resolve(flags)?),
            objects: &|flags, ty, known, ns| {
                session::live_objects(&Input::resolve(flags)?, ty, known, ns)
            },
        },
    )?;
    out.flush().context("writing output")?;
    Ok(Outcome::Answered)
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
        warn_line(&format!("Error from server (NotFound): {text}"));
    } else {
        warn_line(&format!("error: {text}"));
    }
}

fn describe(
    plan: &Plan,
    session: &Session,
    targets: &[String],
    out: &mut impl Write,
) -> Result<Outcome> {
    let (format, printer) = (plan.output.format, &plan.output.printer);
    let world = &session.world;
    let data = matches!(format, Format::Json | Format::Yaml);
    answer_each(targets, format, out, |target| {
        match session.subject(target)? {
            Subject::Policy(policy) => {
                let description = query::describe_policy(world, policy);
                match format {
                    _ if data => One::data(&description),
                    Format::Tree => One::text(|o| {
                        render::tree::write_policy(o, &outline::policy(world, policy), printer)
                    }),
                    _ => One::text(|o| human::policy_page(o, &description, printer)),
                }
            }
            Subject::Node(node) => {
                let description = query::describe_target(world, node);
                match format {
                    _ if data => One::data(&description),
                    Format::Tree => One::text(|o| {
                        render::tree::write(o, &outline::target(world, node, &description), printer)
                    }),
                    _ => One::text(|o| human::target_page(o, &description, printer)),
                }
            }
            Subject::Referenced(object) => {
                let description = query::dependents::describe_dependency(world, &object);
                match format {
                    _ if data => One::data(&description),
                    _ => One::text(|o| human::dependency_page(o, &description, printer)),
                }
            }
            Subject::Namespace(ns) => {
                let description = query::describe_namespace(world, &ns)
                    .ok_or_else(|| anyhow!("namespaces {ns:?} not found"))?;
                match format {
                    _ if data => One::data(&description),
                    Format::Tree => One::text(|o| {
                        render::tree::write(o, &outline::namespace(&description), printer)
                    }),
                    _ => One::text(|o| human::target_page(o, &description, printer)),
                }
            }
        }
    })
}

fn effective(
    plan: &Plan,
    session: &Session,
    targets: &[String],
    kind: Option<&str>,
    out: &mut impl Write,
) -> Result<Outcome> {
    let (format, printer) = (plan.output.format, &plan.output.printer);
    let topology = &session.world.topology;
    let kind = kind
        .map(|k| {
            resolve_type(k, topology.catalog(), topology.objects())
                .map_err(|e| anyhow!(hint::unknown_type(&session.world, k, e)))
        })
        .transpose()?;
    answer_each(targets, format, out, |target| {
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
                One::text(|o| human::effective_page(o, &answer, &reaching, printer))
            }
        }
    })
}

fn tree(
    plan: &Plan,
    session: &Session,
    targets: Option<&[String]>,
    out: &mut impl Write,
) -> Result<Outcome> {
    let (format, printer) = (plan.output.format, &plan.output.printer);
    let Some(targets) = targets else {
        let ns = session.scope();
        let roots = query::tree(&session.world, None, ns);
        match format {
            Format::Json | Format::Yaml => structured(out, format, &roots)?,
            _ => {
                if roots.is_empty() {
                    warn_line(&nothing_found(ns));
                }
                render::tree::write(out, &roots, printer)?
            }
        }
        return Ok(Outcome::Answered);
    };
    answer_each(targets, format, out, |target| {
        let roots = query::tree(&session.world, Some(session.node(target, "tree")?), None);
        match format {
            // One object's tree is its list of roots (as before); several, a List of them.
            Format::Json | Format::Yaml => One::data(&roots),
            _ => One::text(|o| render::tree::write(o, &roots, printer)),
        }
    })
}

fn blast_radius(
    plan: &Plan,
    session: &Session<query::Rebuildable>,
    blast: &BlastPlan,
    out: &mut impl Write,
) -> Result<Outcome> {
    let (format, printer) = (plan.output.format, &plan.output.printer);
    let BlastPlan {
        targets,
        apply,
        exit_code,
    } = blast;
    let kinds = &plan.input.policy_kinds;
    let mut changed = false;
    let mut write = |blast: &query::blast::BlastRadius| -> Result<One> {
        // docs/reference.md#exit-codes-and-streams: exit 3 on changes, or on an error-level finding applied objects bring.
        let errors = blast.findings.iter().any(|f| f.severity == Severity::Error);
        // Deleting an object: any finding it brings (an entry dropped) is a change too.
        let brought = blast.object.is_some() && !blast.findings.is_empty();
        changed |= !blast.changes.is_empty() || errors || brought;
        match format {
            Format::Json | Format::Yaml => One::data(blast),
            _ => One::text(|o| human::blast_radius(o, blast, printer)),
        }
    };
    let outcome = if apply.is_empty() {
        answer_each(targets, format, out, |target| {
            // Left to the OS at exit, as the world is (see `Session::world`): a large blast
            // radius takes a while to free.
            let blast = std::mem::ManuallyDrop::new(match session.subject(target)? {
                Subject::Policy(p) => query::blast::delete_policy(&session.world, p, kinds),
                Subject::Referenced(object) => {
                    query::blast::delete_object(&session.world, &object, kinds)
                }
                Subject::Node(n) if deletable(&session.world, n) => {
                    let object = session.world.topology.node(n).obj_ref.clone();
                    query::blast::delete_object(&session.world, &object, kinds)
                }
                _ => bail!(
                    "blast-radius takes a policy, an object policies' specs name (secret/NAME, configmap/NAME, service/NAME), or --apply PATH"
                ),
            });
            write(&blast)
        })?
    } else {
        let mut loaded = files::load_paths(apply)?;
        loaded.place_in(&session.namespace);
        if let Some(e) = loaded.malformed.first() {
            bail!("{e}");
        }
        let objects = loaded.snapshot.objects;
        let blast = std::mem::ManuallyDrop::new(query::blast::apply_objects(
            &session.world,
            objects,
            apply.to_vec(),
            kinds,
        ));
        answer_each(&["--apply".to_string()], format, out, |_| write(&blast))?
    };
    Ok(match outcome {
        Outcome::Answered if *exit_code && changed => Outcome::Changes,
        other => other,
    })
}

/// Whether some `TYPE/NAME` names a kind no policy kind of the registry is (`secret`,
/// `service`): `blast-radius` then analyses the world again without it.
fn names_no_policy(targets: &[String]) -> bool {
    let registry = kubectl_policies::catalog::Catalog::build(&[], &[]);
    targets.iter().any(|t| {
        let ty = t.split_once('/').map_or(t.as_str(), |(ty, _)| ty);
        resolve_type(ty, &registry, &[]).is_ok_and(|gk| registry.get(&gk).is_none())
    })
}

/// A node `blast-radius` deletes as an object policies' specs may name (a Service).
fn deletable(world: &query::World, node: kubectl_policies::topology::NodeId) -> bool {
    let r = &world.topology.node(node).obj_ref;
    r.section.is_none() && query::dependents::is_referenced_kind(world, &r.group_kind())
}

fn dump(plan: &Plan, loaded: Loaded, out: &mut impl Write) -> Result<Outcome> {
    // Documents whose shape is wrong are among them: they cannot be written back.
    warn_blind_spots(&loaded.snapshot.blind_spots);
    let list = DumpList::of(&loaded);
    match plan.output.format {
        Format::Json => render::json_streamed(out, &list)?,
        _ => render::yaml_streamed(out, &list)?,
    }
    // Left to the OS at exit, as a session's world is.
    std::mem::forget(loaded);
    Ok(Outcome::Answered)
}

fn check(plan: &Plan, session: &Session, out: &mut impl Write) -> Result<Outcome> {
    let format = plan.output.format;
    let findings = query::check_in(&session.world, session.scope());
    let blind = &session.world.topology.snapshot().blind_spots;
    // A reference the input does not say exists or not leaves the verdict standing: the
    // input was read, and the answer holds.
    let unread = blind
        .iter()
        .filter(|b| b.reason != BlindReason::Unchecked)
        .count();
    match format {
        Format::Json | Format::Yaml => structured(out, format, &CheckResult::new(&findings, blind))?,
        // Not "No findings.": what could not be read may hold some (said on stderr).
        _ if findings.is_empty() && unread > 0 => writeln!(
            out,
            "No findings in what could be read; {} part{} of the input could not be read (see the warnings).",
            unread,
            if unread == 1 { "" } else { "s" }
        )?,
        _ if findings.is_empty() => writeln!(out, "No findings.")?,
        _ => human::findings_table(out, &findings, &plan.output.printer)?,
    }
    // docs/reference.md#exit-codes-and-streams: exit 1 on an error-level finding, or when part of the input was not read.
    let errors = findings.iter().any(|f| f.severity == Severity::Error) || unread > 0;
    Ok(if errors {
        Outcome::Errors
    } else {
        Outcome::Answered
    })
}

fn graph(
    plan: &Plan,
    session: &Session,
    target: &[String],
    out: &mut impl Write,
) -> Result<Outcome> {
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
        warn_line(&nothing_found(ns));
    }
    match plan.output.format {
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
