//! Flag definitions (CLI.md is the contract).

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
pub struct Args {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(ClapArgs, Debug, Clone)]
pub struct Global {
    /// Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact.
    #[arg(short = 'f', long = "filename", global = true, value_name = "PATH")]
    pub filename: Vec<String>,
    /// Use the example cluster bundled in the binary (the GEP-713 parable; offline).
    #[arg(long, global = true)]
    pub demo: bool,
    /// Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too).
    #[arg(long, global = true, value_name = "PATH")]
    pub kubeconfig: Option<String>,
    /// The kubeconfig context to use.
    #[arg(long, global = true, value_name = "NAME")]
    pub context: Option<String>,
    /// How long one request to the API server may take.
    #[arg(long, global = true, default_value = "30s", value_name = "DURATION")]
    pub request_timeout: String,
    /// The namespace (default: the context's, else default).
    #[arg(short = 'n', long, global = true, value_name = "NS")]
    pub namespace: Option<String>,
    /// Every namespace.
    #[arg(short = 'A', long = "all-namespaces", global = true)]
    pub all_namespaces: bool,
    /// Output format (per command: table, wide, name, json, yaml, tree).
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
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List policies (STATUS and AFFECTS computed) or the policy kinds known.
    Get {
        /// `policies` (default) or `kinds`.
        #[arg(default_value = "policies", value_parser = ["policies", "policy", "kinds", "kind"])]
        what: String,
    },
    /// That, which and what for an object; class, targets and reach for a policy.
    Describe {
        /// TYPE/NAME, or TYPE then NAME.
        #[arg(value_name = "TYPE/NAME", num_args = 1..=2, required = true)]
        target: Vec<String>,
    },
    /// The effective spec of each policy kind at an object, per context path.
    Effective {
        #[arg(value_name = "TYPE/NAME", num_args = 1..=2, required = true)]
        target: Vec<String>,
        /// Only this policy kind (as TYPE: retrypolicy, kind.group).
        #[arg(long, value_name = "KIND")]
        kind: Option<String>,
    },
    /// The hierarchy with policies on the nodes they attach to, whole or below one object.
    Tree {
        #[arg(value_name = "TYPE/NAME", num_args = 0..=2)]
        target: Vec<String>,
    },
    /// What changes if a policy is deleted (TYPE/NAME), or if the objects in --apply PATH were applied.
    #[command(name = "blast-radius")]
    BlastRadius {
        /// The policy to delete, as TYPE/NAME (or TYPE NAME).
        #[arg(value_name = "TYPE/NAME", num_args = 0..=2, required_unless_present = "apply", conflicts_with = "apply")]
        target: Vec<String>,
        /// New or edited objects (policies, routes, Gateways): a file, a directory or -; repeatable.
        #[arg(long, value_name = "PATH")]
        apply: Vec<String>,
        /// Exit 3 when anything changes (for CI gates).
        #[arg(long)]
        exit_code: bool,
    },
    /// Write everything read from the cluster as one YAML (or JSON) List, for -f later or a bug report.
    Dump,
    /// Findings: dangling targets, missing sections, conflicts, missing ReferenceGrants, status that disagrees. Exit 1 on an error.
    Check,
}
