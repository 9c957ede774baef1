//! `kubectl policies`: parse the flags, run one command, exit with its code.
//!
//! `cli` defines the flags, `plan` resolves them once into what the command does (with
//! `settings`, one flag's text read into a typed setting), `session` reads and analyses
//! the objects, `commands` routes and has one small function per command. The library
//! does the rest.

// A tool run during incidents must not panic: no unwrap/expect/panic outside tests, no
// string slicing that could split a character, and no unsafe code at all.
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(not(test), deny(clippy::string_slice))]
// No function over clippy.toml's `too-many-lines-threshold` lines of code.
#![warn(clippy::too_many_lines)]

mod cli;
mod commands;
mod complete;
mod plan;
mod selector;
mod session;
mod settings;
mod warn;

use clap::Parser as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match cli::Args::try_parse() {
        Ok(a) => a,
        // --help and --version are answers; every other parse failure is a usage error,
        // which docs/reference.md maps to exit 1 (clap's own default is 2).
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // A usage error quotes what was typed: escaped, as every line on stderr.
            eprint!(
                "{}",
                kubectl_policies::render::escape::terminal_safe(&e.render().to_string())
            );
            return ExitCode::from(1);
        }
    };
    // CPU work runs on one pool of a thread per core (rayon's), this thread one of them:
    // what it allocates comes from memory the program already freed, not from another
    // thread's arena. Were the pool already built, the default one serves as well.
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
    // The one place an outcome becomes an exit code.
    match commands::run(args) {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(e) if commands::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // The error may quote input or a server: escaped, as every line on stderr.
            warn::warn_line(&format!("error: {e:#}"));
            ExitCode::from(1)
        }
    }
}
