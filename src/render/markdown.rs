//! `diff -o markdown`: a plan written to be posted as one pull-request comment. A
//! one-line headline of counts; a table of verdict changes; the effective changes
//! grouped by object (a long group inside `<details>`); the new findings; a Mermaid
//! picture of the part of the hierarchy that changes, changed policies marked; then
//! what each side could not read. At most `LIMIT` characters (GitHub's limit for a
//! comment): what does not fit is left out, and the comment says what.
//!
//! Every name or value from the input goes through `text`: each character Markdown or
//! HTML could read as markup is written as an HTML entity, so a resource name cannot
//! make a link, a table cell, a heading or a tag.

use super::graph::mermaid_marked;
use super::human::value_diff_lines;
use crate::model::ObjRef;
use crate::query::diff::{EffectiveChange, PolicyDiff, Verdict};
use crate::query::graph::Graph;
use crate::query::Source;
use crate::topology::Finding;
use std::fmt::Write as _;
use std::io::{self, Write};

/// GitHub's limit for a comment's body, in characters.
pub(crate) const LIMIT: usize = 65_536;

/// What is kept for the closing note of what was left out.
const RESERVE: usize = 600;

/// A group of changes on one object longer than this is folded into `<details>`.
const FOLD: usize = 3;

/// The first line of every plan: a comment posting step finds its earlier comment by it.
pub(crate) const MARKER: &str = "<!-- kubectl-policies diff -->";

/// `diff -o markdown`.
pub fn diff(out: &mut impl Write, d: &PolicyDiff, picture: &Graph) -> io::Result<()> {
    let mut page = Page::default();
    page.push_always(&format!(
        "{MARKER}\n### Policy plan: {}\n",
        text(&d.headline())
    ));
    let sides = |paths: &[String]| -> String {
        let names: Vec<String> = paths.iter().map(|p| code(p)).collect();
        names.join(", ")
    };
    page.push_always(&format!("\nFrom {} to {}.\n", sides(&d.from), sides(&d.to)));
    if d.is_empty() {
        page.push_always("\nNo changes.\n");
    }
    if !d.verdicts.is_empty() {
        page.push("verdict changes", &verdicts(d));
    }
    if !d.changes.is_empty() {
        page.push_always("\n#### Effective changes\n");
        let groups = by_object(&d.changes);
        let total = groups.len();
        for (i, (object, changes)) in groups.iter().enumerate() {
            if !page.fits(&group(object, changes)) {
                page.left_out
                    .push(format!("effective changes on {} objects", total - i));
                break;
            }
            page.push("", &group(object, changes));
        }
    }
    if !d.findings.appeared.is_empty() {
        page.push(
            "new findings",
            &findings("New findings", &d.findings.appeared),
        );
    }
    if !d.findings.cleared.is_empty() {
        page.push(
            "findings cleared",
            &findings("Findings cleared", &d.findings.cleared),
        );
    }
    if !picture.is_empty() {
        let marked: Vec<ObjRef> = d.verdicts.iter().map(|v| v.policy.clone()).collect();
        let mut chart = Vec::new();
        mermaid_marked(&mut chart, picture, &marked)?;
        let chart = String::from_utf8_lossy(&chart);
        page.push(
            "the picture",
            &format!("\n#### What changes, drawn\n\nChanged policies are filled.\n\n```mermaid\n{chart}```\n"),
        );
    }
    if !d.objects.is_empty() {
        page.push("the objects changed", &objects(d));
    }
    for (side, spots) in [("--from", &d.blind_spots.from), ("--to", &d.blind_spots.to)] {
        if spots.is_empty() {
            continue;
        }
        let mut s = format!(
            "\n#### Blind spots of the `{side}` side\n\nWhat it holds there is not compared:\n\n"
        );
        for b in spots {
            // The message names the file and document where there is one.
            let place = match &b.file {
                Some(f) if !b.message.contains(f.as_str()) => format!("{}: ", text(f)),
                _ => String::new(),
            };
            let kind = if b.group.is_empty() {
                b.kind.clone()
            } else {
                format!("{}.{}", b.kind, b.group)
            };
            let _ = writeln!(
                s,
                "- {place}{} {:?}: {}",
                text(&kind),
                b.reason,
                text(&b.message)
            );
        }
        page.push_always(&s);
    }
    page.finish(out)
}

/// The comment as it grows, within `LIMIT`.
#[derive(Default)]
struct Page {
    text: String,
    chars: usize,
    left_out: Vec<String>,
}

impl Page {
    fn fits(&self, s: &str) -> bool {
        self.chars + s.chars().count() + RESERVE <= LIMIT
    }

    /// `s`, or, where it does not fit, `what` is said to be left out.
    fn push(&mut self, what: &str, s: &str) {
        if self.fits(s) {
            self.push_always(s);
        } else if !what.is_empty() {
            self.left_out.push(what.to_string());
        }
    }

    /// `s`, cut to what fits (the headline and the blind spots are never left out).
    fn push_always(&mut self, s: &str) {
        let room = (LIMIT - RESERVE / 2).saturating_sub(self.chars);
        let cut: String = s.chars().take(room).collect();
        if cut.len() < s.len() {
            self.left_out.push("the end of a section".to_string());
        }
        self.chars += cut.chars().count();
        self.text.push_str(&cut);
    }

    fn finish(mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.left_out.is_empty() {
            let note = format!(
                "\n> [!NOTE]\n> Left out to stay within GitHub's {LIMIT} characters: {}. Run `kubectl policies diff` for the whole plan.\n",
                self.left_out.join(", ")
            );
            self.text.push_str(&note);
        }
        out.write_all(self.text.as_bytes())
    }
}

/// The table of policies whose verdict changes.
fn verdicts(d: &PolicyDiff) -> String {
    let mut s = String::from(
        "\n#### Verdict changes\n\n| Policy | Namespace | Status | Affects | Why |\n|---|---|---|---|---|\n",
    );
    let status = |v: &Option<Verdict>| v.as_ref().map_or("–".to_string(), |v| text(&v.status));
    let affects = |v: &Option<Verdict>| {
        v.as_ref()
            .map_or("–".to_string(), |v| v.affects.to_string())
    };
    for v in &d.verdicts {
        let _ = writeln!(
            s,
            "| {} {} | {} | {} → {} | {} → {} | {} |",
            text(&v.policy.kind),
            code(&v.policy.name),
            text(v.policy.namespace.as_deref().unwrap_or("")),
            status(&v.before),
            status(&v.after),
            affects(&v.before),
            affects(&v.after),
            text(&v.reasons.join("; "))
        );
    }
    s
}

/// The changes, grouped by object (a section's changes with its object's), in order.
fn by_object(changes: &[EffectiveChange]) -> Vec<(ObjRef, Vec<&EffectiveChange>)> {
    let mut groups: Vec<(ObjRef, Vec<&EffectiveChange>)> = Vec::new();
    for c in changes {
        let object = c.change.target.object();
        match groups.last_mut() {
            Some((o, list)) if *o == object => list.push(c),
            _ => groups.push((object, vec![c])),
        }
    }
    groups
}

/// One object's changes: a table, inside `<details>` when it is long.
fn group(object: &ObjRef, changes: &[&EffectiveChange]) -> String {
    let name = format!("{} {}", text(&object.kind), code(&object.ns_name()));
    let mut table = String::from(
        "| Section | Policy kind | Setting | Before | After | Set by (before → after) |\n|---|---|---|---|---|---|\n",
    );
    let mut rows = 0;
    for c in changes {
        let section = c
            .change
            .target
            .section
            .as_deref()
            .map_or("–".to_string(), code);
        let by = format!(
            "{} → {}",
            setters(&c.sources_before),
            setters(&c.sources_after)
        );
        let lines = value_diff_lines(c.change.before.as_deref(), c.change.after.as_deref());
        for (path, was, now) in lines {
            rows += 1;
            let _ = writeln!(
                table,
                "| {section} | {} | {} | {} | {} | {by} |",
                text(&c.change.policy_kind.kind),
                code(&path),
                code(&was),
                code(&now),
            );
        }
    }
    let count = match rows {
        1 => "1 setting".to_string(),
        n => format!("{n} settings"),
    };
    if rows > FOLD {
        format!("\n<details><summary>{name}: {count} changed</summary>\n\n{table}\n</details>\n")
    } else {
        format!("\n{name}: {count} changed\n\n{table}")
    }
}

/// The policies behind a spec's values, each once.
fn setters(sources: &[Source]) -> String {
    let mut names: Vec<String> = Vec::new();
    for s in sources {
        let name = format!("{} {}", text(&s.policy.kind), code(&s.policy.ns_name()));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.is_empty() {
        true => "–".to_string(),
        false => names.join(", "),
    }
}

fn findings(title: &str, findings: &[Finding]) -> String {
    let mut s =
        format!("\n#### {title}\n\n| Severity | Code | Object | Message |\n|---|---|---|---|\n");
    for f in findings {
        let _ = writeln!(
            s,
            "| {:?} | {:?} | {} {} | {} |",
            f.severity,
            f.code,
            text(&f.object.kind),
            code(&f.object.ns_name()),
            text(&f.message)
        );
    }
    s
}

/// The objects added, deleted and changed, folded.
fn objects(d: &PolicyDiff) -> String {
    let mut s = format!(
        "\n<details><summary>Objects: {} added, {} deleted, {} changed</summary>\n\n| Kind | Namespace | Name | Change |\n|---|---|---|---|\n",
        d.summary.added, d.summary.deleted, d.summary.changed
    );
    for o in &d.objects {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            text(&o.object.kind),
            text(o.object.namespace.as_deref().unwrap_or("")),
            code(&o.object.name),
            o.change.as_str()
        );
    }
    s.push_str("\n</details>\n");
    s
}

/// Text from the input, safe in Markdown and in HTML: each character that could open
/// markup (`` \`*_[]<>&|~#!@"'{}= ``, a `:` before `/`: an autolink) as a numeric
/// entity, line breaks and other control characters as their escaped spelling (`\n`).
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let autolink = c == ':' && chars.peek() == Some(&'/');
        match c {
            c if c.is_control() => out.extend(c.escape_default()),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' | '#' | '!' | '@'
            | '"' | '\'' | '{' | '}' | '=' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            ':' if autolink => out.push_str("&#58;"),
            c => out.push(c),
        }
    }
    out
}

/// Text from the input set as code: `<code>`, so the entities of `text` still read as
/// the characters they stand for.
fn code(s: &str) -> String {
    format!("<code>{}</code>", text(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_input_cannot_open_markup() {
        assert_eq!(text("shop-api.v2/x"), "shop-api.v2/x");
        assert_eq!(text("<b>|*x*`"), "&#60;b&#62;&#124;&#42;x&#42;&#96;");
        assert_eq!(text("[a](http://e)"), "&#91;a&#93;(http&#58;//e)");
        assert_eq!(text("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert_eq!(text("@team"), "&#64;team");
    }
}
