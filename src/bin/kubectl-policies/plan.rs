//! The command line resolved once, before any command runs (as ripgrep resolves its flags
//! into `HiArgs`): where objects come from (files, the demo, or a live cluster with its
//! connection settings), the scope, the output (kubectl's printer flags: the format and
//! its templates, `--sort-by`, colour, headers, labels, as one `Output` whose
//! `render::Printer` every renderer takes), and the command's own options (`-l`, the
//! TYPE/NAME words).
//! A combination the command line cannot mean is refused here, in one place, with one
//! message; the commands receive a `Plan` and never the flags.

use crate::cli::{Command, Connection, Global};
use crate::settings::{self, parse_duration, Format};
use anyhow::{anyhow, bail, Result};
use kubectl_policies::catalog::policy::LabelSelector;
use kubectl_policies::catalog::Declared;
use kubectl_policies::query::subject;
use kubectl_policies::render::{columns, jsonpath, Clock, Printer, Style};
use kubectl_policies::source::live::{self, LiveOptions};
use std::path::PathBuf;

/// A command, its flags resolved.
pub struct Plan {
    pub input: Input,
    pub output: Output,
    pub task: Task,
}

/// Where the objects come from and what scope names resolve in.
pub struct Input {
    pub source: Source,
    /// `-n`, checked to be a namespace's name.
    pub namespace: Option<String>,
    /// `-A`.
    pub all_namespaces: bool,
    /// `--kubeconfig` and `--context`: offline too, the context's namespace is the default.
    pub kubeconfig: Option<String>,
    pub context: Option<String>,
    /// `--policy-kind`.
    pub policy_kinds: Vec<Declared>,
}

/// Where objects come from.
pub enum Source {
    Demo,
    /// `-f`: files, directories, `-` for stdin.
    Files(Vec<String>),
    /// The cluster, reached as the kubeconfig and kubectl's connection flags say.
    Live(Box<LiveOptions>),
}

/// How answers are written: kubectl's printer flags, resolved once.
pub struct Output {
    pub format: Format,
    /// The text after `=` of `-o jsonpath=…` and the like.
    pub argument: String,
    /// `--sort-by` and `-o`'s templates (`get`'s), read before anything is loaded.
    pub templates: Templates,
    /// JSON and YAML are written exact; everything else a person reads goes through the
    /// terminal-safe writer (render::escape), coloured or not (`colour`).
    pub exact: bool,
    pub colour: bool,
    /// What every human renderer is given: colour (never for structured output),
    /// headers, `-o wide`, `--show-labels`, the NAMESPACE column of `-A`, the clock.
    pub printer: Printer,
}

/// What the command is, with its own options resolved.
pub enum Task {
    /// `get kinds` (or `get kind`).
    GetKinds,
    Get(GetPlan),
    /// `get -w`.
    Watch(GetPlan),
    /// TYPE/NAMEs, one answer each.
    Describe {
        targets: Vec<String>,
    },
    Effective {
        targets: Vec<String>,
        kind: Option<String>,
    },
    /// None: the whole hierarchy in scope.
    Tree {
        targets: Option<Vec<String>>,
    },
    BlastRadius(BlastPlan),
    /// `diff`: the sides' paths (`from` empty: the input, live or the demo).
    Diff {
        from: Vec<String>,
        to: Vec<String>,
        exit_code: bool,
    },
    Dump,
    Check,
    Graph {
        target: Vec<String>,
    },
}

/// `blast-radius`'s own options: what is deleted or applied.
pub struct BlastPlan {
    /// The policies (or objects policies name) to delete (empty with `--apply`).
    pub targets: Vec<String>,
    pub apply: Vec<String>,
    pub exit_code: bool,
}

/// `get`'s own options: what it lists and which rows (how: `Output`).
pub struct GetPlan {
    pub words: Vec<String>,
    /// `-l`.
    pub selector: Option<LabelSelector>,
    /// `--output-watch-events`: with -w, each row as kubectl's watch event (accepted and
    /// ignored without -w, as kubectl).
    pub events: bool,
}

/// The templates `--sort-by` and `-o` name, read before anything is loaded so that a bad
/// one fails at once.
pub struct Templates {
    pub sort_by: Option<SortBy>,
    /// `-o jsonpath=...`.
    pub jsonpath: Option<jsonpath::Template>,
    /// `-o custom-columns=...`.
    pub columns: Option<columns::Columns>,
}

/// `--sort-by`'s path, and the path as kubectl names it in its error
/// (`{.metadata.name}`).
pub struct SortBy {
    pub path: jsonpath::Path,
    pub named: String,
}

impl Plan {
    /// `command` (not a completion one) with `flags`, resolved: what each refuses is
    /// refused here, in the order the command line is read (the flags `get` alone takes,
    /// `-n`, the command's format and options, then the source).
    pub fn resolve(flags: Global, command: Command) -> Result<Plan> {
        let get_policies = matches!(&command, Command::Get { words, .. } if !is_kinds(words));
        if flags.selector.is_some() && !get_policies {
            bail!(
                "-l/--selector filters the policies `get` lists; it does not apply to this command"
            );
        }
        settings::check_namespace(flags.namespace.as_deref())?;
        // `get`'s printer flags (`get kinds` takes none of them).
        let (sort_by, show_labels) = match &command {
            Command::Get {
                sort_by,
                show_labels,
                ..
            } if get_policies => (sort_by.clone(), *show_labels),
            _ => (None, false),
        };
        let (task, format) = task(&flags, command)?;
        let output = Output::resolve(&flags, format, sort_by.as_deref(), show_labels)?;
        let input = Input::resolve(&flags)?;
        Ok(Plan {
            input,
            output,
            task,
        })
    }
}

/// The command's task and the format it answers in.
fn task(flags: &Global, command: Command) -> Result<(Task, Format)> {
    let output = flags.output.as_deref();
    let format = |name: &str| Format::for_command(output, name);
    let targets = |words: &[String]| subject::split_targets(words).map_err(|e| anyhow!(e));
    Ok(match command {
        Command::Get { words, .. } if is_kinds(&words) => (Task::GetKinds, format("get kinds")?),
        Command::Get {
            words,
            watch,
            output_watch_events,
            ..
        } => {
            let format = match watch {
                true => watch_format(flags)?,
                false => format("get")?,
            };
            let get = GetPlan {
                words,
                selector: settings::label_selector(flags.selector.as_deref())?,
                events: output_watch_events,
            };
            match watch {
                true => (Task::Watch(get), format),
                false => (Task::Get(get), format),
            }
        }
        Command::Describe { target } => {
            let format = format("describe")?;
            let targets = targets(&target)?;
            (Task::Describe { targets }, format)
        }
        Command::Effective { target, kind } => {
            let format = format("effective")?;
            let targets = targets(&target)?;
            (Task::Effective { targets, kind }, format)
        }
        Command::Tree { target } => {
            let format = format("tree")?;
            let targets = match target.as_slice() {
                [] => None,
                words => Some(targets(words)?),
            };
            (Task::Tree { targets }, format)
        }
        Command::BlastRadius {
            target,
            apply,
            exit_code,
        } => {
            let format = format("blast-radius")?;
            let targets = match apply.as_slice() {
                [] => targets(&target)?,
                _ => Vec::new(),
            };
            let task = Task::BlastRadius(BlastPlan {
                targets,
                apply,
                exit_code,
            });
            (task, format)
        }
        Command::Diff {
            from,
            to,
            exit_code,
        } => (diff_task(flags, from, to, exit_code)?, format("diff")?),
        Command::Dump => (Task::Dump, format("dump")?),
        Command::Check => (Task::Check, format("check")?),
        Command::Graph { target } => (Task::Graph { target }, format("graph")?),
        Command::Completion { .. } | Command::Complete { .. } => {
            bail!("completion is answered before the command line is resolved")
        }
    })
}

/// `diff`'s task: `-` on one side at most; the side before is `--from`, else the
/// input (`--demo` or live), never `-f`.
fn diff_task(flags: &Global, from: Vec<String>, to: Vec<String>, exit_code: bool) -> Result<Task> {
    let stdin = |side: &[String]| side.iter().any(|p| p == "-");
    if stdin(&from) && stdin(&to) {
        bail!("diff: - (stdin) may be one side only, --from or --to");
    }
    if !flags.filename.is_empty() {
        bail!("diff reads its sides from --from and --to; -f is not used (without --from, the live cluster or --demo is the side before)");
    }
    if flags.demo && !from.is_empty() {
        bail!("diff: --demo is the side before when --from is not given; not both");
    }
    Ok(Task::Diff {
        from,
        to,
        exit_code,
    })
}

/// The format `get -w` prints in: a cluster is followed, as a table or json lines.
fn watch_format(flags: &Global) -> Result<Format> {
    if flags.demo || !flags.filename.is_empty() {
        bail!("-w/--watch follows a live cluster; it cannot be used with -f or --demo (files and the demo do not change)");
    }
    let format = Format::for_command(flags.output.as_deref(), "get")?;
    if !matches!(format, Format::Table | Format::Wide | Format::Json) {
        bail!(
            "-w/--watch prints the table (-o wide too) or json lines (-o json); not -o {}",
            flags.output.as_deref().unwrap_or_default()
        );
    }
    Ok(format)
}

/// `get kinds` (or `get kind`): the policy kinds, not policies.
fn is_kinds(words: &[String]) -> bool {
    matches!(words, [one] if one == "kinds" || one == "kind")
}

impl Input {
    /// Where objects come from, as `flags` say (`-n` is checked by `Plan::resolve`;
    /// completion reads what was typed so far as it is).
    pub fn resolve(flags: &Global) -> Result<Input> {
        let source = match (flags.demo, flags.filename.is_empty()) {
            (true, false) => bail!("--demo and -f cannot be used together"),
            (true, true) => Source::Demo,
            (false, false) => Source::Files(flags.filename.clone()),
            (false, true) => Source::Live(Box::new(live_options(flags)?)),
        };
        Ok(Input {
            source,
            namespace: flags.namespace.clone(),
            all_namespaces: flags.all_namespaces,
            kubeconfig: flags.kubeconfig.clone(),
            context: flags.context.clone(),
            policy_kinds: flags.policy_kind.clone(),
        })
    }
}

impl Input {
    /// The same input read from files instead (`diff`'s sides): the same namespace,
    /// kubeconfig (for its context's namespace) and declared kinds.
    pub fn with_files(&self, paths: &[String]) -> Input {
        Input {
            source: Source::Files(paths.to_vec()),
            namespace: self.namespace.clone(),
            all_namespaces: self.all_namespaces,
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            policy_kinds: self.policy_kinds.clone(),
        }
    }
}

impl Output {
    /// The printer flags of a command answering in `format` (`get`'s `--sort-by` and
    /// `--show-labels` given); a template that cannot be read is refused here.
    fn resolve(
        flags: &Global,
        format: Format,
        sort_by: Option<&str>,
        show_labels: bool,
    ) -> Result<Output> {
        let output = flags.output.as_deref();
        let colour = settings::colour(flags.color);
        Ok(Output {
            format,
            argument: Format::argument(output).to_string(),
            templates: Templates::read(output, format, sort_by)?,
            exact: matches!(format, Format::Json | Format::Yaml),
            colour,
            printer: Printer {
                style: Style {
                    color: colour && !format.structured(),
                },
                headers: !flags.no_headers,
                wide: format == Format::Wide,
                show_labels,
                with_namespace: flags.all_namespaces,
                clock: Clock::System,
            },
        })
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

/// kubectl's connection flags, as the live source takes them.
fn overrides(connection: &Connection) -> live::config::Overrides {
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

impl Templates {
    fn read(output: Option<&str>, format: Format, sort_by: Option<&str>) -> Result<Templates> {
        let sort_by = sort_by
            .map(|p| {
                let path = jsonpath::relaxed(p).map_err(|e| anyhow!("--sort-by {p:?}: {e}"))?;
                let named = jsonpath::relaxed_text(p);
                Ok::<_, anyhow::Error>(SortBy { path, named })
            })
            .transpose()?;
        let argument = Format::argument(output);
        let jsonpath = match format {
            Format::JsonPath | Format::JsonPathAsJson => {
                Some(jsonpath::Template::parse(argument).map_err(|e| anyhow!("-o jsonpath: {e}"))?)
            }
            Format::JsonPathFile => Some(
                jsonpath::Template::parse(&template_file(argument, "jsonpath-file")?)
                    .map_err(|e| anyhow!("-o jsonpath-file {argument:?}: {e}"))?,
            ),
            _ => None,
        };
        let columns = match format {
            Format::CustomColumns => Some(
                columns::Columns::parse(argument).map_err(|e| anyhow!("-o custom-columns: {e}"))?,
            ),
            Format::CustomColumnsFile => Some(
                columns::Columns::parse_file(&template_file(argument, "custom-columns-file")?)
                    .map_err(|e| anyhow!("-o custom-columns-file {argument:?}: {e}"))?,
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

/// The most a template file may hold: a template is a line or a few, and `/dev/zero`
/// must not be read to the end.
const TEMPLATE_FILE_LIMIT: u64 = 1 << 20;

/// The text of `-o jsonpath-file=PATH` or `-o custom-columns-file=PATH` (`format`), read as
/// it is (kubectl does not trim it): a file that cannot be read, is not UTF-8 or is over
/// 1 MiB is a usage error naming it.
fn template_file(path: &str, format: &str) -> Result<String> {
    use std::io::Read;
    if path.is_empty() {
        bail!("-o {format}: template format specified but no template given");
    }
    let cannot_read = |e: std::io::Error| anyhow!("-o {format}: cannot read {path:?}: {e}");
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(TEMPLATE_FILE_LIMIT + 1).read_to_string(&mut text))
        .map_err(cannot_read)?;
    if text.len() as u64 > TEMPLATE_FILE_LIMIT {
        bail!("-o {format}: {path:?} is over 1 MiB: not a template");
    }
    Ok(text)
}
