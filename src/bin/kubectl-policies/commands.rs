//! One small function per command: read, ask one question of the library, render the
//! answer in the format asked for. Each returns what the answer was, and `main` alone
//! turns that into an exit code.

mod get;

use crate::cli::{Args, Command, Global};
use crate::complete;
use crate::session::{self, Question};
use crate::settings::{self, Format};
use anyhow::{anyhow, bail, Context, Result};
use kubectl_policies::query::hint;
use kubectl_policies::query::subject::{self, Subject};
use kubectl_policies::query::{self, outline, types::resolve_type, CheckResult};
use kubectl_policies::render::escape::SafeWriter;
use kubectl_policies::render::{self, age, human};
use kubectl_policies::source::dump::DumpList;
use kubectl_policies::source::files;
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
        Command::Get { words, .. } if is_kinds(words) => get::get_kinds(flags, &mut out)?,
        Command::Get { watch: true, .. } if !get_policies => {
            bail!("-w/--watch follows the policies `get` lists; `get kinds` cannot be watched")
        }
        Command::Get {
            words,
            sort_by,
            show_labels,
            watch: true,
            output_watch_events,
        } => {
            let shown = get::Shown {
                sort_by: sort_by.as_deref(),
                show_labels: *show_labels,
                events: *output_watch_events,
            };
            get::get_watch(flags, words, shown, &mut out)?
        }
        Command::Get {
            words,
            sort_by,
            show_labels,
            ..
        } => get::get(flags, words, sort_by.as_deref(), *show_labels, &mut out)?,
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
        if let Some(e) = loaded.malformed.first() {
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
