//! Shell completion. `completion SHELL` prints clap_complete's script for the
//! `kubectl-policies` executable. `__complete WORDS...` answers kubectl's plugin
//! completion: kubectl (1.26 or newer) runs `kubectl_complete-policies` with the words
//! typed after `kubectl policies`, the last one being the word to complete, and reads
//! cobra's answer: one candidate per line (`value<TAB>description`), then a line
//! `:<directive>`.

use crate::cli::{self, Args, Global, Shell};
use anyhow::Result;
use clap::{Arg, Command, CommandFactory, Parser};
use kubectl_policies::catalog::Catalog;
use kubectl_policies::model::{GroupKind, ObjRef};
use kubectl_policies::query::names::{self, TypeSet};
use kubectl_policies::query::types::resolve_type;
use kubectl_policies::query::World;
use std::io::{self, Write};

/// cobra's ShellCompDirective: 0 lets the shell complete file names.
const FILES: u8 = 0;
const ERROR: u8 = 1;
const NO_SPACE: u8 = 2;
const NO_FILES: u8 = 4;

pub fn script(shell: Shell, out: &mut impl Write) -> io::Result<()> {
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    // The executable's own name, and no hidden subcommands (`__complete`): the same
    // command rebuilt from the visible parts.
    let full = Args::command();
    let mut visible = Command::new("kubectl-policies")
        .version(env!("CARGO_PKG_VERSION"))
        .args(full.get_arguments().cloned())
        .subcommands(full.get_subcommands().filter(|c| !c.is_hide_set()).cloned());
    // clap_complete panics when its writer fails; write it whole ourselves instead.
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut visible, "kubectl-policies", &mut text);
    out.write_all(&text)
}

/// What completion may ask a live cluster (when no offline source is on the line): its
/// namespaces, and the objects of one kind in a namespace (None: all).
pub struct Live<'a> {
    pub namespaces: &'a dyn Fn(&Global) -> Result<Vec<String>>,
    pub objects: &'a ObjectsOfType,
}

/// The objects TYPE names (the kind it names without the cluster, if any) in a namespace
/// (None: all).
pub type ObjectsOfType =
    dyn Fn(&Global, &str, Option<&GroupKind>, Option<&str>) -> Result<Vec<ObjRef>>;

/// The candidates for the last of `words`, then the directive line.
pub fn candidates(
    words: &[String],
    out: &mut impl Write,
    load: impl Fn(&Global) -> Result<World>,
    live: Live<'_>,
) -> io::Result<()> {
    let (current, typed) = match words.split_last() {
        Some((last, before)) => (last.as_str(), before),
        None => ("", &[][..]),
    };
    let mut root = Args::command();
    root.build();
    let line = Line::read(&root, typed);
    let world = || line.source().map(|flags| load(&flags));
    // `-n <TAB>` on a live cluster: its namespaces, one request.
    let namespaces = || match line.source() {
        Some(flags) => load(&flags).map(|w| names::namespaces(&w)),
        None => line
            .live()
            .map_or(Ok(Vec::new()), |flags| (live.namespaces)(&flags)),
    };
    // The objects of TYPE on a live cluster, in a namespace (None: all).
    let live_objects = |ty: &str, ns: Option<&str>| -> Result<Vec<ObjRef>> {
        let Some(flags) = line.live() else {
            return Ok(Vec::new());
        };
        // The kinds known without the cluster first; the cluster's discovery names the rest.
        let catalog = Catalog::build(&[], &flags.policy_kind);
        let known = resolve_type(ty, &catalog, &[]).ok();
        (live.objects)(&flags, ty, known.as_ref(), ns)
    };
    let (found, mut directive) = match line.pending {
        Some(arg) if arg.get_id() == "namespace" => match namespaces() {
            Ok(found) => (plain(found), NO_FILES),
            Err(_) => (Vec::new(), ERROR),
        },
        Some(arg) if arg.get_id() == "output" && template_file_format(current).is_some() => {
            template_files(current)
        }
        _ => answer(&line, current, &world, &live_objects),
    };
    let found: Vec<&(String, String)> = found
        .iter()
        .filter(|(v, _)| v.starts_with(current))
        .collect();
    // `jsonpath=` is to be continued: no space after it.
    if !found.is_empty() && found.iter().all(|(v, _)| v.ends_with('=')) {
        directive |= NO_SPACE;
    }
    for (value, help) in found {
        if help.is_empty() {
            writeln!(out, "{value}")?;
        } else {
            writeln!(out, "{value}\t{help}")?;
        }
    }
    writeln!(out, ":{directive}")
}

/// The words before the one being completed, read the way clap would read them.
struct Line<'a> {
    root: &'a Command,
    sub: Option<&'a Command>,
    positionals: Vec<&'a str>,
    /// Flags given, by clap id, with their values.
    flags: Vec<(&'a Arg, Option<&'a str>)>,
    /// A flag still waiting for its value: the word being completed is that value.
    pending: Option<&'a Arg>,
    /// After `--`, every word is positional.
    dash_dash: bool,
}

impl<'a> Line<'a> {
    fn read(root: &'a Command, words: &'a [String]) -> Line<'a> {
        let mut line = Line {
            root,
            sub: None,
            positionals: Vec::new(),
            flags: Vec::new(),
            pending: None,
            dash_dash: false,
        };
        for word in words {
            let word = word.as_str();
            if let Some(arg) = line.pending.take() {
                line.flags.push((arg, Some(word)));
            } else if line.dash_dash || word == "-" || !word.starts_with('-') {
                match root.find_subcommand(word) {
                    Some(sub) if line.sub.is_none() && !line.dash_dash => line.sub = Some(sub),
                    _ => line.positionals.push(word),
                }
            } else if word == "--" {
                line.dash_dash = true;
            } else if let Some(long) = word.strip_prefix("--") {
                let (name, value) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (long, None),
                };
                if let Some(arg) = line.args().find(|a| a.get_long() == Some(name)) {
                    line.flag(arg, value);
                }
            } else {
                // A cluster of short flags: `-An`, `-oyaml`, `-o=yaml`.
                let cluster = word.get(1..).unwrap_or_default();
                for (at, c) in cluster.char_indices() {
                    let Some(arg) = line.args().find(|a| a.get_short() == Some(c)) else {
                        break;
                    };
                    if takes_value(arg) {
                        let rest = cluster.get(at + c.len_utf8()..).unwrap_or_default();
                        let rest = rest.strip_prefix('=').unwrap_or(rest);
                        line.flag(arg, (!rest.is_empty()).then_some(rest));
                        break;
                    }
                    line.flag(arg, None);
                }
            }
        }
        line
    }

    fn flag(&mut self, arg: &'a Arg, value: Option<&'a str>) {
        // `--insecure-skip-tls-verify[=BOOL]` takes its value only after `=`.
        if takes_value(arg) && value.is_none() && !arg.is_require_equals_set() {
            self.pending = Some(arg);
        } else {
            self.flags.push((arg, value));
        }
    }

    /// The flags of the command typed so far (global ones are propagated to each).
    fn args(&self) -> impl Iterator<Item = &'a Arg> {
        self.sub.unwrap_or(self.root).get_arguments()
    }

    fn value(&self, id: &str) -> Option<&'a str> {
        self.flags
            .iter()
            .rev()
            .find(|(a, _)| a.get_id() == id)
            .and_then(|(_, v)| *v)
    }

    fn has(&self, id: &str) -> bool {
        self.flags.iter().any(|(a, _)| a.get_id() == id)
    }

    /// The flags that say where objects come from, when they name an offline source
    /// (`--demo`, or `-f` with a path: stdin is the terminal here).
    fn source(&self) -> Option<Global> {
        let files = self
            .flags
            .iter()
            .any(|(a, v)| a.get_id() == "filename" && v.is_some_and(|v| v != "-"));
        if !files && !self.has("demo") {
            return None;
        }
        let mut argv = vec!["kubectl-policies".to_string()];
        for (arg, value) in &self.flags {
            let id = arg.get_id().as_str();
            if !matches!(id, "demo" | "filename" | "policy_kind") || *value == Some("-") {
                continue;
            }
            argv.push(format!("--{}", arg.get_long()?));
            argv.extend(value.map(str::to_string));
        }
        argv.push("check".into());
        Args::try_parse_from(argv).ok().map(|a| a.global)
    }

    /// The flags that say how to reach the live cluster (kubeconfig, context, kubectl's
    /// connection flags, the request timeout), when no offline source is named.
    fn live(&self) -> Option<Global> {
        let mut argv = vec!["kubectl-policies".to_string()];
        for (arg, value) in &self.flags {
            let Some(long) = arg.get_long() else {
                continue;
            };
            let connection = arg.get_help_heading() == Some(cli::CONNECTION);
            let other = matches!(
                long,
                "kubeconfig" | "context" | "request-timeout" | "policy-kind"
            );
            if !connection && !other {
                continue;
            }
            match value {
                Some(v) if long == "insecure-skip-tls-verify" => argv.push(format!("--{long}={v}")),
                Some(v) => argv.extend([format!("--{long}"), v.to_string()]),
                None => argv.push(format!("--{long}")),
            }
        }
        argv.push("check".into());
        Args::try_parse_from(argv).ok().map(|a| a.global)
    }

    /// `-n` (`None` for `-A`), or `default` when neither was typed.
    fn namespace(&self) -> (Option<&'a str>, bool) {
        if self.has("all_namespaces") {
            (None, true)
        } else {
            match self.value("namespace") {
                Some(ns) => (Some(ns), true),
                None => (Some("default"), false),
            }
        }
    }

    /// The key of `cli::FORMATS` for the command typed.
    fn command_key(&self) -> &'a str {
        match self.sub.map(Command::get_name) {
            Some("get")
                if self
                    .positionals
                    .first()
                    .is_some_and(|w| w.starts_with("kind")) =>
            {
                "get kinds"
            }
            Some(name) => name,
            None => "",
        }
    }
}

/// `get policies` and `get kinds` take no more words.
fn is_fixed_get_word(word: &str) -> bool {
    matches!(word, "policies" | "policy" | "kinds" | "kind")
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

type Found = (Vec<(String, String)>, u8);

/// `jsonpath-file=PATH` or `custom-columns-file=PATH` being typed: the format and PATH.
fn template_file_format(current: &str) -> Option<(&str, &str)> {
    current
        .split_once('=')
        .filter(|(format, _)| matches!(*format, "jsonpath-file" | "custom-columns-file"))
}

/// The files and directories the PATH of `-o jsonpath-file=PATH` (or
/// `custom-columns-file=`) begins to name, each after the format's `=`: the shell cannot
/// complete a file name inside that word on its own. Hidden entries when PATH's last part
/// starts with `.`; names with control characters are left out (one candidate a line).
fn template_files(current: &str) -> Found {
    let Some((format, typed)) = template_file_format(current) else {
        return (Vec::new(), NO_FILES);
    };
    let (shown_dir, read_dir, start) = match typed.rsplit_once('/') {
        Some(("", start)) => ("/".to_string(), "/".to_string(), start),
        Some((dir, start)) => (format!("{dir}/"), dir.to_string(), start),
        None => (String::new(), ".".to_string(), typed),
    };
    let Ok(entries) = std::fs::read_dir(&read_dir) else {
        return (Vec::new(), NO_FILES);
    };
    let mut found = Vec::new();
    let mut all_dirs = true;
    for entry in entries.flatten() {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let hidden = name.starts_with('.') && !start.starts_with('.');
        if hidden || !name.starts_with(start) || name.chars().any(char::is_control) {
            continue;
        }
        // A symbolic link to a directory is followed as a directory.
        let dir = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
        all_dirs &= dir;
        let slash = if dir { "/" } else { "" };
        found.push(format!("{format}={shown_dir}{name}{slash}"));
    }
    found.sort();
    // A directory is to be continued: no space after it.
    let directive = match !found.is_empty() && all_dirs {
        true => NO_FILES | NO_SPACE,
        false => NO_FILES,
    };
    (plain(found), directive)
}

fn plain(words: Vec<String>) -> Vec<(String, String)> {
    words.into_iter().map(|w| (w, String::new())).collect()
}

fn possible_values(arg: &Arg) -> Vec<(String, String)> {
    arg.get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| {
            let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
            (v.get_name().to_string(), help)
        })
        .collect()
}

fn first_line(text: Option<&clap::builder::StyledStr>) -> String {
    text.map(|t| t.to_string())
        .and_then(|t| t.lines().next().map(str::to_string))
        .unwrap_or_default()
}

/// The objects of a TYPE on a live cluster, in a namespace (None: all).
type LiveObjects<'a> = dyn Fn(&str, Option<&str>) -> Result<Vec<ObjRef>> + 'a;

fn answer(
    line: &Line<'_>,
    current: &str,
    world: &dyn Fn() -> Option<Result<World>>,
    live: &LiveObjects<'_>,
) -> Found {
    if let Some(arg) = line.pending {
        return flag_value(line, arg, world);
    }
    if current.starts_with('-') && !line.dash_dash {
        let mut flags: Vec<(String, String)> = Vec::new();
        for arg in line.args().filter(|a| !a.is_hide_set()) {
            let help = first_line(arg.get_help());
            flags.extend(arg.get_long().map(|l| (format!("--{l}"), help.clone())));
            flags.extend(arg.get_short().map(|s| (format!("-{s}"), help.clone())));
        }
        flags.sort();
        return (flags, NO_FILES);
    }
    let Some(sub) = line.sub else {
        let commands = line
            .root
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| (c.get_name().to_string(), first_line(c.get_about())))
            .collect();
        return (commands, NO_FILES);
    };
    let set = match sub.get_name() {
        "get" if matches!(line.positionals.as_slice(), [w] if is_fixed_get_word(w)) => {
            return (Vec::new(), NO_FILES);
        }
        "get" => {
            // `get` takes `policies`, `kinds`, or a policy kind and names.
            let (found, directive) = object_words(line, TypeSet::Policies, current, world, live);
            if !line.positionals.is_empty() || current.contains('/') {
                return (found, directive);
            }
            let mut words = plain(vec!["policies".into(), "kinds".into()]);
            words.extend(found);
            return (words, directive);
        }
        "describe" => TypeSet::Any,
        "effective" | "tree" | "graph" => TypeSet::Hierarchy,
        "blast-radius" => TypeSet::Deletable,
        _ => {
            // `completion` takes one word from a fixed list.
            let fixed = sub
                .get_positionals()
                .next()
                .filter(|_| line.positionals.is_empty())
                .map(possible_values)
                .unwrap_or_default();
            return (fixed, NO_FILES);
        }
    };
    object_words(line, set, current, world, live)
}

/// TYPE, TYPE/NAME, or NAME after `TYPE `: names only when a source is at hand.
fn object_words(
    line: &Line<'_>,
    set: TypeSet,
    current: &str,
    read_world: &dyn Fn() -> Option<Result<World>>,
    live: &LiveObjects<'_>,
) -> Found {
    let world = match read_world() {
        Some(Ok(world)) => Some(world),
        Some(Err(_)) => return (Vec::new(), ERROR),
        None => None,
    };
    // A name lookup that fails (a live cluster out of reach) is cobra's error directive.
    let failed = std::cell::Cell::new(false);
    let names_of = |ty: &str| match &world {
        Some(world) => object_names(|ns| Ok(names::objects(world, ty, ns)), line.namespace())
            .unwrap_or_default(),
        // Live without -n: every namespace's in one list (the context's namespace is
        // not known here), each saying where it is.
        None => {
            let scope = match line.namespace() {
                (ns, true) => (ns, true),
                (_, false) => (None, true),
            };
            object_names(|ns| live(ty, ns), scope).unwrap_or_else(|_| {
                failed.set(true);
                Vec::new()
            })
        }
    };
    let found = object_words_of(line, set, current, &world, &names_of);
    match failed.get() {
        true => (Vec::new(), ERROR),
        false => found,
    }
}

/// `object_words` with the names of a TYPE told by `names_of`.
fn object_words_of(
    line: &Line<'_>,
    set: TypeSet,
    current: &str,
    world: &Option<World>,
    names_of: &dyn Fn(&str) -> Vec<(String, String)>,
) -> Found {
    // Several objects may be named: TYPE/NAME TYPE/NAME..., or TYPE NAME NAME...
    let typed = line.positionals.as_slice();
    match typed {
        _ if typed.iter().all(|p| p.contains('/')) => match current.split_once('/') {
            // After `#`: the sections of that object.
            Some((ty, rest)) if rest.contains('#') => {
                let name = rest.split('#').next().unwrap_or_default();
                (
                    section_words(world, ty, name, line, |s| format!("{ty}/{name}#{s}")),
                    NO_FILES,
                )
            }
            Some((ty, _)) => (
                names_of(ty)
                    .into_iter()
                    .map(|(n, help)| (format!("{ty}/{n}"), help))
                    .collect(),
                NO_FILES,
            ),
            None => (plain(names::type_words(world.as_ref(), set)), NO_FILES),
        },
        // `TYPE NAME#`: the sections of NAME.
        [ty, ..] if !ty.contains('/') && current.contains('#') => {
            let name = current.split('#').next().unwrap_or_default();
            (
                section_words(world, ty, name, line, |s| format!("{name}#{s}")),
                NO_FILES,
            )
        }
        [ty, ..] if !ty.contains('/') => (names_of(ty), NO_FILES),
        _ => (Vec::new(), NO_FILES),
    }
}

/// The sections of TYPE/NAME in the namespace of the line (any with `-A`), each written
/// by `word`.
fn section_words(
    world: &Option<World>,
    ty: &str,
    name: &str,
    line: &Line<'_>,
    word: impl Fn(&str) -> String,
) -> Vec<(String, String)> {
    let Some(world) = world else {
        return Vec::new();
    };
    let (ns, typed) = line.namespace();
    let mut found = names::sections(world, ty, name, ns);
    if found.is_empty() && !typed {
        found = names::sections(world, ty, name, None);
    }
    plain(found.iter().map(|s| word(s)).collect())
}

/// NAMEs of TYPE, each with the namespaces it is in when that is not plain from the
/// line. With no `-n` typed and nothing of TYPE in `default`, every namespace's are
/// offered, so that the user sees what there is (describe then says which `-n` to add).
fn object_names(
    objects: impl Fn(Option<&str>) -> Result<Vec<ObjRef>>,
    (namespace, typed): (Option<&str>, bool),
) -> Result<Vec<(String, String)>> {
    let mut found = objects(namespace)?;
    let mut everywhere = namespace.is_none();
    if found.is_empty() && !typed {
        found = objects(None)?;
        everywhere = true;
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for object in found {
        let ns = object.namespace.filter(|_| everywhere);
        match out.last_mut() {
            Some((name, help)) if *name == object.name => {
                if let Some(ns) = ns {
                    help.push_str(&format!(", {ns}"));
                }
            }
            _ => out.push((
                object.name.to_string(),
                ns.map(|ns| format!("namespace {ns}")).unwrap_or_default(),
            )),
        }
    }
    Ok(out)
}

fn flag_value(line: &Line<'_>, arg: &Arg, world: &dyn Fn() -> Option<Result<World>>) -> Found {
    match arg.get_id().as_str() {
        "output" => (
            plain(
                cli::formats(line.command_key())
                    .iter()
                    .map(|f| f.to_string())
                    .collect(),
            ),
            NO_FILES,
        ),
        "kind" => match world() {
            Some(Err(_)) => (Vec::new(), ERROR),
            read => (
                plain(names::type_words(
                    read.and_then(Result::ok).as_ref(),
                    TypeSet::Policies,
                )),
                NO_FILES,
            ),
        },
        // The fields of `get -o json`'s items (policy objects) worth sorting by.
        "sort_by" => (
            plain(
                [
                    ".metadata.name",
                    ".metadata.namespace",
                    ".metadata.creationTimestamp",
                    ".kind",
                    ".computed.status",
                    ".computed.affects",
                    ".computed.class",
                ]
                .map(String::from)
                .to_vec(),
            ),
            NO_FILES,
        ),
        "filename"
        | "kubeconfig"
        | "apply"
        | "from"
        | "to"
        | "certificate_authority"
        | "client_certificate"
        | "client_key" => (Vec::new(), FILES),
        _ => (possible_values(arg), NO_FILES),
    }
}
