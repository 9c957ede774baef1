//! `kubectl policies`: parse, run, exit.

// A tool run during incidents must not panic: no unwrap/expect outside tests.
#![deny(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod complete;
mod run;
mod selector;

use clap::Parser as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match cli::Args::try_parse() {
        Ok(a) => a,
        // --help and --version are answers; every other parse failure is a usage error,
        // which CLI.md maps to exit 1 (clap's own default is 2).
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(1);
        }
    };
    match run::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) if run::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
