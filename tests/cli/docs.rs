//! The README and the guide in `docs/`: every relative link resolves (to a file, and a
//! `#anchor` to a heading of it, by GitHub's rules), every demo command shown runs as
//! written and prints what is shown, and every flag is documented.

use crate::command::{kp, repo, stdout};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The pages a reader follows links through: the README, the guide, ARCHITECTURE.md and
/// the CHANGELOG when there is one.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"]
        .into_iter()
        .map(repo)
        .filter(|p| p.is_file())
        .collect();
    let mut guide: Vec<PathBuf> = std::fs::read_dir(repo("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    pages.extend(guide);
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// A line without its inline code spans (a link inside backticks is text, not a link).
fn without_code_spans(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The targets of the inline links `[text](target)` of a line.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    out
}

/// GitHub's anchor for a heading: lowercase, every character that is not a letter, a
/// digit, a space, `-` or `_` dropped, spaces made `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a page: its headings' slugs, a repeated one with `-1`, `-2`… as
/// GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// What is wrong with the relative links of one page (`page` is where it lives).
fn broken_links(page: &Path, text: &str) -> Vec<String> {
    let dir = page.parent().unwrap();
    let mut broken = Vec::new();
    for (number, line) in prose_lines(text) {
        for target in link_targets(line) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.to_path_buf()
            } else {
                dir.join(file)
            };
            let at = format!("{}:{number}: {target}", page.display());
            if !path.exists() {
                broken.push(format!("{at}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let target_text = if file.is_empty() {
                text.to_string()
            } else {
                read(&path)
            };
            if path.extension().is_none_or(|e| e != "md") {
                broken.push(format!("{at}: an anchor into a file that is not Markdown"));
            } else if !anchors(&target_text).contains(anchor) {
                broken.push(format!("{at}: no heading makes #{anchor}"));
            }
        }
    }
    broken
}

#[test]
fn headings_make_githubs_anchors() {
    assert_eq!(slug(" JSON shapes (`-o json`)"), "json-shapes--o-json");
    assert_eq!(
        slug(" `get -w`: re-answering a change"),
        "get--w-re-answering-a-change"
    );
    assert_eq!(slug(" A backend's ports"), "a-backends-ports");
    let twice = anchors("# A\n## Notes\n```\n## not a heading\n```\n### Notes\n");
    assert_eq!(
        twice.into_iter().collect::<Vec<_>>(),
        ["a", "notes", "notes-1"]
    );
}

#[test]
fn a_broken_link_is_found() {
    let page = repo("docs/README.md");
    let text = "[ok](reference.md#blind-spots) [file](no-such-page.md) [anchor](reference.md#no-such-heading) `[code](no-such.md)` [self](#the-guide)\n\n# The guide\n";
    let broken = broken_links(&page, text);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(broken[0].contains("no-such-page.md: no such file"));
    assert!(broken[1].contains("no heading makes #no-such-heading"));
}

/// Every relative link of the README, the guide, ARCHITECTURE.md and the CHANGELOG leads
/// to a file that exists, and its `#anchor` to a heading there.
#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let mut links = 0;
    for page in pages() {
        let text = read(&page);
        links += prose_lines(&text)
            .iter()
            .map(|(_, l)| link_targets(l).len())
            .sum::<usize>();
        broken.extend(broken_links(&page, &text));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(links > 50, "only {links} links found");
}

/// The words of a command line as a POSIX shell splits them: '…' and "…" quoting, `\`
/// escapes.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|c| *c != '\''));
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The demo commands a page shows in its code blocks (`$ kubectl policies --demo …`),
/// each with the lines shown after it (up to the next `$ ` line or the block's end).
fn shown_demo_commands(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut fenced = false;
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.extend(current.take());
            continue;
        }
        if !fenced {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.extend(current.take());
            if command.starts_with("kubectl policies --demo ") {
                current = Some((command.to_string(), String::new()));
            }
        } else if let Some((_, shown)) = current.as_mut() {
            shown.push_str(line);
            shown.push('\n');
        }
    }
    out
}

/// What a command line prints, run as written (the binary for `kubectl policies`; a
/// `| head -N` keeps the first N lines): stdout, then stderr.
fn run_shown(command: &str) -> String {
    let words = shell_words(command);
    let (args, pipe) = match words.iter().position(|w| w == "|") {
        Some(at) => (&words[2..at], Some(&words[at + 1..])),
        None => (&words[2..], None),
    };
    let out = kp().args(args).output().unwrap();
    let mut text = String::from_utf8(out.stdout).unwrap();
    if let Some(pipe) = pipe {
        let lines: usize = match pipe {
            [head, n] if head == "head" => n.trim_start_matches('-').parse().unwrap(),
            _ => panic!("{command}: only `| head -N` is run here"),
        };
        text = text.lines().take(lines).map(|l| format!("{l}\n")).collect();
    } else {
        text.push_str(&String::from_utf8(out.stderr).unwrap());
    }
    text
}

/// Every `$ kubectl policies --demo …` in the README and the guide runs as written and
/// prints what the page shows after it.
#[test]
fn every_demo_command_shown_prints_what_is_shown() {
    let mut ran = 0;
    let mut stale = Vec::new();
    for page in pages() {
        for (command, shown) in shown_demo_commands(&read(&page)) {
            ran += 1;
            let out = run_shown(&command);
            if out != shown {
                stale.push(format!(
                    "{}: $ {command}\nshown:\n{shown}\nprinted:\n{out}",
                    page.display()
                ));
            }
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
    assert!(ran >= 12, "only {ran} demo commands found");
}

#[test]
fn shell_words_split_as_a_shell_does() {
    assert_eq!(
        shell_words(r#"get -o jsonpath='{.a}{"\n"}' "x y" a\ b"#),
        ["get", "-o", r#"jsonpath={.a}{"\n"}"#, "x y", "a b"]
    );
}

/// The graph in the guide is what `graph -o mermaid` prints (a Mermaid block GitHub
/// draws, so without a `$` line).
#[test]
fn the_guides_graph_is_real_output() {
    let page = read(&repo("docs/commands.md"));
    let out = stdout(&[
        "--demo",
        "graph",
        "httproute/baker",
        "-n",
        "baker",
        "-o",
        "mermaid",
    ]);
    assert!(
        page.contains(&format!("```mermaid\n{out}```")),
        "docs/commands.md is stale; paste:\n{out}"
    );
}

/// The flags `--help` lists (of the program, or with `command`, of that command), by
/// their long names.
fn help_flags(command: Option<&str>) -> Vec<String> {
    let help = match command {
        Some(command) => stdout(&[command, "--help"]),
        None => stdout(&["--help"]),
    };
    // The option lines: `  -s, --server <URL>   ...`, `      --demo   ...`.
    let specs = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .map(|l| l.split("  ").next().unwrap_or_default().to_string())
        .collect::<Vec<_>>();
    let mut flags = Vec::new();
    for spec in &specs {
        for word in spec.split(|c: char| c.is_whitespace() || c == ',' || c == '[') {
            let Some(name) = word.strip_prefix("--") else {
                continue;
            };
            let name: String = name
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if !name.is_empty() && name != "help" && name != "version" {
                flags.push(name);
            }
        }
    }
    flags
}

/// Whether `text` names `--name` (not merely a longer flag that starts so: `--as` is
/// not named by `--as-group`).
fn names_flag(text: &str, name: &str) -> bool {
    let flag = format!("--{name}");
    text.match_indices(&flag).any(|(at, _)| {
        !text[at + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// Every flag `--help` lists is in the reference's flag tables (the sections before
/// "Commands"), and every flag the README's short table names is one that `--help` or a
/// command's `--help` lists.
#[test]
fn every_flag_is_documented_and_the_readme_names_only_real_ones() {
    let reference = read(&repo("docs/reference.md"));
    let flag_sections = &reference[..reference.find("\n## Commands\n").unwrap()];
    let flags = help_flags(None);
    assert!(flags.len() > 20, "{} flags found in --help", flags.len());
    for name in &flags {
        assert!(
            names_flag(flag_sections, name),
            "--{name} is not in docs/reference.md's flag tables"
        );
    }
    let readme = read(&repo("README.md"));
    let table = readme
        .split("\n## Flags\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the README has a Flags section");
    let mut every = flags.clone();
    for command in [
        "get",
        "describe",
        "effective",
        "tree",
        "blast-radius",
        "diff",
        "check",
        "graph",
    ] {
        every.extend(help_flags(Some(command)));
    }
    let mut named = 0;
    for row in table.lines().filter(|l| l.starts_with("| `-")) {
        let first = row.split(" | ").next().unwrap();
        for word in first.split(|c: char| c == '`' || c == ',' || c.is_whitespace()) {
            if let Some(name) = word.strip_prefix("--") {
                named += 1;
                assert!(
                    every.iter().any(|f| f == name),
                    "the README names --{name}, which no --help lists"
                );
            }
        }
    }
    assert!(named >= 10, "the README's table names {named} flags");
}
