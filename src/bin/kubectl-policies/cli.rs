//! Flag definitions (docs/reference.md is the user's reference; it follows the
//! project's command-line contract).

use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};
use kubectl_policies::catalog::Declared;

#[derive(Parser, Debug)]
#[command(
    name = "kubectl policies",
    bin_name = "kubectl policies",
    version,
    about = "See which Gateway API policies affect what: the hierarchy, the effective settings with the policy behind each, and what a policy touches",
    long_about = None,
    after_help = "Examples:\n  kubectl policies --demo describe httproute/baker -n baker\n  kubectl policies --demo get -A\n  kubectl policies -f cluster-dump.yaml check -A"
)]
/// The command line: the global flags and one command.
pub struct Args {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags every command takes: where objects come from, the scope, the output.
#[derive(ClapArgs, Debug, Clone)]
pub struct Global {
    /// Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact.
    #[arg(short = 'f', long = "filename", global = true, value_name = "PATH")]
    pub filename: Vec<String>,
    /// Use the example cluster bundled in the binary (the GEP-713 parable; offline).
    #[arg(long, global = true)]
    pub demo: bool,
    /// Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too).
    #[arg(long, global = true, value_name = "PATH", help_heading = CONNECTION)]
    pub kubeconfig: Option<String>,
    /// The kubeconfig context to use.
    #[arg(long, global = true, value_name = "NAME", help_heading = CONNECTION)]
    pub context: Option<String>,
    /// How long one request to the API server (or a credential plugin) may take.
    #[arg(long, global = true, default_value = "30s", value_name = "DURATION", help_heading = CONNECTION)]
    pub request_timeout: String,
    /// The namespace (default: the context's, else default).
    #[arg(short = 'n', long, global = true, value_name = "NS")]
    pub namespace: Option<String>,
    /// Every namespace.
    #[arg(short = 'A', long = "all-namespaces", global = true)]
    pub all_namespaces: bool,
    /// Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown).
    #[arg(short = 'o', long, global = true, value_name = "FORMAT")]
    pub output: Option<String>,
    /// When to colour: auto (a terminal, and NO_COLOR unset), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Tables without the header row.
    #[arg(long, global = true)]
    pub no_headers: bool,
    /// Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable).
    #[arg(long = "policy-kind", global = true, value_name = "KIND.GROUP=CLASS")]
    pub policy_kind: Vec<Declared>,
    /// `get`: only policies whose labels match, in kubectl's syntax (a=b, a!=b, 'a in (x,y)', 'a notin (x)', a, !a; commas AND them).
    #[arg(short = 'l', long, global = true, value_name = "SELECTOR")]
    pub selector: Option<String>,
    /// Last: its heading would carry over to the flags after it.
    #[command(flatten)]
    pub connection: Connection,
}

/// The `--help` heading of the flags that say how to reach the cluster (kubectl lists
/// them in `kubectl options`).
pub const CONNECTION: &str =
    "Cluster connection (kubectl's global flags; ignored with -f and --demo)";

/// kubectl's connection flags, with kubectl's meaning: each one given replaces what the
/// kubeconfig says, and `--server` works with no kubeconfig at all.
#[derive(ClapArgs, Debug, Clone, Default)]
#[command(next_help_heading = CONNECTION)]
pub struct Connection {
    /// The address and port of the Kubernetes API server.
    #[arg(short = 's', long, global = true, value_name = "URL")]
    pub server: Option<String>,
    /// Bearer token for authentication to the API server (replaces the user's credentials).
    #[arg(long, global = true, value_name = "TOKEN")]
    pub token: Option<String>,
    /// The name of the kubeconfig user to use.
    #[arg(long, global = true, value_name = "NAME")]
    pub user: Option<String>,
    /// The name of the kubeconfig cluster to use.
    #[arg(long, global = true, value_name = "NAME")]
    pub cluster: Option<String>,
    /// Path to a cert file for the certificate authority.
    #[arg(long, global = true, value_name = "PATH")]
    pub certificate_authority: Option<String>,
    /// Path to a client certificate file for TLS.
    #[arg(long, global = true, value_name = "PATH")]
    pub client_certificate: Option<String>,
    /// Path to a client key file for TLS.
    #[arg(long, global = true, value_name = "PATH")]
    pub client_key: Option<String>,
    /// If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure.
    #[arg(long, global = true, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "false", action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub insecure_skip_tls_verify: bool,
    /// Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used.
    #[arg(long, global = true, value_name = "NAME")]
    pub tls_server_name: Option<String>,
    /// Username to impersonate for the operation. User could be a regular user or a service account in a namespace.
    #[arg(long = "as", global = true, value_name = "USER")]
    pub impersonate: Option<String>,
    /// Group to impersonate for the operation; repeat for several groups.
    #[arg(long = "as-group", global = true, value_name = "GROUP")]
    pub impersonate_groups: Vec<String>,
    /// UID to impersonate for the operation.
    #[arg(long = "as-uid", global = true, value_name = "UID")]
    pub impersonate_uid: Option<String>,
}

/// `-o` per command (`get kinds` apart from `get`); the first is the default.
pub const FORMATS: &[(&str, &[&str])] = &[
    (
        "get",
        &[
            "table",
            "wide",
            "json",
            "yaml",
            "name",
            "jsonpath=",
            "jsonpath-file=",
            "jsonpath-as-json=",
            "custom-columns=",
            "custom-columns-file=",
        ],
    ),
    ("get kinds", &["table", "wide", "json", "yaml"]),
    ("describe", &["human", "wide", "json", "yaml", "tree"]),
    ("effective", &["human", "yaml", "json"]),
    ("tree", &["tree", "json", "yaml"]),
    ("blast-radius", &["human", "json", "yaml"]),
    ("diff", &["human", "json", "yaml", "markdown"]),
    ("graph", &["dot", "mermaid"]),
    ("check", &["table", "json", "yaml"]),
    ("dump", &["yaml", "json"]),
];

/// The `-o` values of a command, default first (empty for one without `-o`).
pub fn formats(command: &str) -> &'static [&'static str] {
    FORMATS
        .iter()
        .find(|(c, _)| *c == command)
        .map(|(_, f)| *f)
        .unwrap_or_default()
}

/// The shells `completion` writes a script for.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// `--color`: when to colour tables, trees and pages.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// What each status word means, the same in `get`, `tree` and `describe` (their
/// `--help` and the README's "Status words" hold this text).
pub const STATUS_LEGEND: &str = "\
Status words (the same in get, tree and describe):
  Enforced           every setting of the policy holds
  PartiallyEnforced  some of its settings hold and others lose to other policies (or it loses
                     a conflict on one of its targets, or its controller refuses it on one of
                     them, or a more specific policy replaces it whole on some objects, and it
                     holds elsewhere)
  Overridden         none of its settings holds: other policies set every one of them, or
                     replace it whole wherever it reaches (Envoy Gateway: even one that sets
                     nothing)
  Conflicted         another policy of its kind wins on the same target, by its kind's rule
                     (GEP-713: the older one; kgateway's HTTPListenerPolicy: the newer; some
                     kinds: none of them when several disagree), or its controller says so
                     (Kong: Services of one route rule naming different policies): nothing
                     of it applies there
  TargetNotFound     the object it targets is not there
  SectionNotFound    its target is there but not the listener, rule or port it names
  SelectorBound      bound by a workload selector, outside the Gateway API hierarchy
  Invalid            its spec cannot be read, or its controller or its CRD refuses it
Over which objects: in get, tree and describe POLICY's Status, every object the policy
reaches; in describe POLICY's Affects (and its -o tree), each object or section on its own;
in describe OBJECT (and its -o tree), that object and its sections.";

/// A command's `--help` text after the flags: its examples, then the status words.
fn with_legend(examples: &str) -> String {
    match examples {
        "" => STATUS_LEGEND.to_string(),
        _ => format!("{examples}\n\n{STATUS_LEGEND}"),
    }
}

/// The commands (docs/reference.md's table).
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List policies (STATUS and AFFECTS computed), of one kind or by name, or the policy kinds known.
    #[command(
        after_help = with_legend("Examples:\n  kubectl policies get -A\n  kubectl policies get retrypolicies -n baker\n  kubectl policies get btp/gateway-timeouts ctp/https-listener -n infra\n  kubectl policies get -A -w\n  kubectl policies get -A --sort-by .computed.affects -o custom-columns=NAME:.metadata.name,AFFECTS:.computed.affects\n  kubectl policies get -A -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.computed.status}{\"\\n\"}{end}'")
    )]
    Get {
        /// `policies` (default), `kinds`, a policy kind (TYPE: retrypolicies, btp, kind.group) then NAMEs, or TYPE/NAME...
        #[arg(value_name = "TYPE[/NAME]")]
        words: Vec<String>,
        /// Sort the rows by this JSONPath over the `-o json` items, the policy objects (for example .metadata.creationTimestamp, '{.computed.affects}').
        #[arg(long, value_name = "JSONPATH")]
        sort_by: Option<String>,
        /// Add a LABELS column: the policy's labels.
        #[arg(long)]
        show_labels: bool,
        /// Live only: after the table, a row for each policy whose row changes in what is shown, until Ctrl-C (-o json: one JSON object per line, at every change of it).
        #[arg(short = 'w', long)]
        watch: bool,
        /// With -w: each row as kubectl's watch event, ADDED, MODIFIED or DELETED (an EVENT column; -o json: {"type": ..., "object": ITEM}); the first rows are ADDED.
        #[arg(long)]
        output_watch_events: bool,
    },
    /// That, which and what for an object; class, targets and reach for a policy.
    #[command(after_help = with_legend(
        "Examples:\n  kubectl policies describe httproute/baker -n baker\n  kubectl policies describe retrypolicy/ns-retries -n baker\n  kubectl policies describe gateway/cupcake-gw -n infra -o wide"
    ))]
    Describe {
        /// TYPE/NAME..., or TYPE then NAME...; answered in order.
        #[arg(value_name = "TYPE/NAME", num_args = 1.., required = true)]
        target: Vec<String>,
    },
    /// The effective spec of each policy kind at an object, per context path.
    Effective {
        #[arg(value_name = "TYPE/NAME", num_args = 1.., required = true)]
        target: Vec<String>,
        /// Only this policy kind (as TYPE: retrypolicy, kind.group).
        #[arg(long, value_name = "KIND")]
        kind: Option<String>,
    },
    /// The hierarchy with policies on the nodes they attach to, whole or below one object.
    #[command(after_help = with_legend(""))]
    Tree {
        #[arg(value_name = "TYPE/NAME", num_args = 0..)]
        target: Vec<String>,
    },
    /// What changes if a policy is deleted (TYPE/NAME), or if the objects in --apply PATH were applied.
    #[command(name = "blast-radius")]
    BlastRadius {
        /// The policies to delete, one answer each: TYPE/NAME... (or TYPE NAME...).
        #[arg(value_name = "TYPE/NAME", num_args = 0.., required_unless_present = "apply", conflicts_with = "apply")]
        target: Vec<String>,
        /// New or edited objects (policies, routes, Gateways): a file, a directory or -; repeatable.
        #[arg(long, value_name = "PATH")]
        apply: Vec<String>,
        /// Exit 3 when anything changes (for CI gates).
        #[arg(long)]
        exit_code: bool,
    },
    /// What a whole change does: objects added, deleted and changed; policies whose verdict changes, and why; every effective change; findings that appear and clear.
    #[command(
        after_help = "Each side takes what -f takes: files, directories (recursive), - (on one side only), dumps; repeatable. Without --from: the live cluster (or --demo). Every namespace is shown unless -n is given.\n\nExamples:\n  kubectl policies diff --from base/ --to head/\n  kustomize build overlays/prod | kubectl policies diff --from live-dump.yaml --to -\n  kubectl policies diff --from base/ --to head/ -o markdown > plan.md\n  kubectl policies diff --to head/ --exit-code"
    )]
    Diff {
        /// The objects before: a file, a directory or -; repeatable (none: the live cluster, or --demo).
        #[arg(long, value_name = "PATH")]
        from: Vec<String>,
        /// The objects after: a file, a directory or -; repeatable.
        #[arg(long, value_name = "PATH", required = true)]
        to: Vec<String>,
        /// Exit 3 when anything changes (for CI gates).
        #[arg(long)]
        exit_code: bool,
    },
    /// Write everything read from the cluster as one YAML (or JSON) List, for -f later or a bug report.
    Dump,
    /// Findings: dangling targets, missing sections, conflicts, missing ReferenceGrants, status that disagrees. Exit 1 on an error.
    Check,
    /// The hierarchy and its policies as a picture (-o dot for Graphviz, -o mermaid), whole or around one object.
    Graph {
        /// Only this object's ancestors, descendants and their policies.
        #[arg(value_name = "TYPE/NAME", num_args = 0..=2)]
        target: Vec<String>,
    },
    /// A completion script for kubectl-policies (see completions/ for `kubectl policies`).
    Completion {
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Completion candidates for the words after `kubectl policies`, one per line, then
    /// cobra's `:<directive>` line (what kubectl_complete-policies asks for).
    #[command(name = "__complete", hide = true)]
    Complete {
        /// The words typed so far, the last one being completed (may be empty); give them after `--`.
        #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true)]
        words: Vec<String>,
    },
}
