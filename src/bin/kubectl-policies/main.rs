//! `kubectl policies`: parse, run, exit.

mod cli;
mod run;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match run::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) if run::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
