//! `diff`: both sides read and analysed through the session code (`--from` left out:
//! the input, live or the demo), compared, and written for people, for programs, or
//! as a pull-request comment.

use super::{structured, Outcome};
use crate::plan::{Plan, Source};
use crate::session::{self, Question, Session};
use crate::settings::Format;
use anyhow::{Context, Result};
use kubectl_policies::query::diff::{self, PolicyDiff};
use kubectl_policies::query::Rebuildable;
use kubectl_policies::render::{self, human};
use std::io::Write;

/// `diff --from … --to …`: exit 3 with `--exit-code` when anything changes.
pub(super) fn diff(
    plan: &Plan,
    (from, to): (&[String], &[String]),
    exit_code: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    // The sides are read and analysed at once, each on the pool's threads as it frees
    // them; a side that fails is reported, `--from` first.
    let (before, after) = rayon::join(|| side(plan, from, "--from"), || side(plan, to, "--to"));
    let (before, after) = (before?, after?);
    let from_names = match (from, &plan.input.source) {
        ([], Source::Demo) => vec!["demo".to_string()],
        ([], _) => vec!["cluster".to_string()],
        (paths, _) => paths.to_vec(),
    };
    let mut answer = diff::diff(&before.world, &after.world, from_names, to.to_vec());
    // Every namespace, unless -n names one: a change's reach is what a reviewer reads.
    if let (Some(ns), false) = (&plan.input.namespace, plan.input.all_namespaces) {
        answer = answer.in_namespace(ns);
    }
    write(plan, &answer, &after, out)?;
    Ok(match exit_code && !answer.is_empty() {
        true => Outcome::Changes,
        false => Outcome::Answered,
    })
}

fn write(
    plan: &Plan,
    answer: &PolicyDiff,
    after: &Session<Rebuildable>,
    out: &mut impl Write,
) -> Result<()> {
    let format = plan.output.format;
    match format {
        Format::Json | Format::Yaml => structured(out, format, answer)?,
        Format::Markdown => {
            let picture = diff::picture(&after.world, answer);
            render::markdown::diff(out, answer, &picture)?
        }
        _ => human::diff(out, answer, &plan.output.printer)?,
    }
    Ok(())
}

/// One side, read and analysed (its links kept: the sides are compared node by node);
/// an error names the side.
fn side(plan: &Plan, paths: &[String], name: &str) -> Result<Session<Rebuildable>> {
    let input = match paths {
        [] => session::load_rebuildable(&plan.input, Question::Changes),
        _ => session::load_rebuildable(&plan.input.with_files(paths), Question::Changes),
    };
    input.with_context(|| format!("the {name} side"))
}
