//! No import circles: among the modules of one parent (sibling files, `a` and `b` in
//! `layer/a.rs` and `layer/b.rs`, or `a/` and `b/`), none imports another that imports it
//! back, directly or round a longer loop. ARCHITECTURE.md's layer rule (`layers.rs`) keeps
//! the layers in one order; this keeps the modules inside a layer, and the binary's, in
//! one order too: what two modules share goes in a module below both.
//!
//! An import is a path the code names: `crate::a::b`, `super::b`, `self::b`, or a `use`
//! of a child module (`use merge::x`); groups (`crate::{a, b::c}`) are read too. A name
//! a parent re-exports (`pub use child::Item`, `pub use child::*`) counts as an import of
//! the child that defines it. A module may use its parent and its children; test modules
//! (at the end of a file, or a `#[cfg(test)] mod tests;` file) may reach anything.

use crate::source_tree;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from its crate's root (`["effective", "merge", "gep713"]`).
type ModPath = Vec<String>;

/// The modules of one crate: each one's path, file and code (up to its test module).
struct Crate {
    modules: BTreeMap<ModPath, (String, String)>,
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The paths a path written at the start of `rest` names, its groups expanded
/// (`a::{b, c::d}` is `a::b` and `a::c::d`); a path ends at its first non-path character.
fn expand(rest: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut at = rest;
    loop {
        at = at.trim_start();
        if let Some(group) = at.strip_prefix('{') {
            let mut out = Vec::new();
            for item in top_level_items(group) {
                for tail in expand(item) {
                    let mut path = segments.clone();
                    path.extend(tail);
                    out.push(path);
                }
            }
            return out;
        }
        let name = ident(at);
        if name.is_empty() {
            break;
        }
        at = &at[name.len()..];
        segments.push(name);
        match at.trim_start().strip_prefix("::") {
            Some(next) => at = next,
            None => break,
        }
    }
    vec![segments]
}

/// The items of a group whose `{` is just before `group`, up to its `}`.
fn top_level_items(group: &str) -> Vec<&str> {
    let (mut depth, mut start, mut items) = (0usize, 0, Vec::new());
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// Whether the character before `at` in `code` could continue an identifier (`foo_crate::`
/// is no `crate::`).
fn inside_word(code: &str, at: usize) -> bool {
    code[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// Every path `code`, the code of module `here`, names, as a path from the crate's root.
fn paths_named(here: &[String], code: &str, children: &BTreeSet<String>) -> Vec<ModPath> {
    let mut out = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            if inside_word(code, at) {
                continue;
            }
            for path in expand(&code[at..]) {
                let mut absolute: ModPath = match path.first().map(String::as_str) {
                    Some("crate") => Vec::new(),
                    _ => here.to_vec(),
                };
                for segment in path {
                    match segment.as_str() {
                        "crate" | "self" => {}
                        "super" => {
                            absolute.pop();
                        }
                        _ => absolute.push(segment),
                    }
                }
                out.push(absolute);
            }
        }
    }
    // `use child::…`: a path relative to this module.
    for (at, _) in code.match_indices("use ") {
        if inside_word(code, at) {
            continue;
        }
        let rest = &code[at + "use ".len()..];
        let first = ident(rest.trim_start());
        if children.contains(&first) {
            for path in expand(rest) {
                let mut absolute = here.to_vec();
                absolute.extend(path);
                out.push(absolute);
            }
        }
    }
    out
}

/// The names a file declares public (`pub struct Name`, `pub(crate) fn name`, …).
fn public_items(code: &str) -> BTreeSet<String> {
    let mut items = BTreeSet::new();
    for (at, _) in code.match_indices("pub") {
        let rest = code[at + 3..].trim_start();
        let rest = match rest.strip_prefix('(') {
            Some(r) => r.split_once(')').map_or("", |(_, r)| r).trim_start(),
            None => rest,
        };
        for keyword in [
            "struct ", "enum ", "fn ", "trait ", "type ", "const ", "static ",
        ] {
            if let Some(name) = rest.strip_prefix(keyword) {
                items.insert(ident(name.trim_start()));
            }
        }
    }
    items
}

impl Crate {
    /// The crate whose root file is `root_file` in `dir`; `skip` are directories of
    /// other crates inside it (`src/bin`).
    fn read(dir: &Path, root_file: &str, skip: &[&str]) -> Crate {
        let skip: Vec<PathBuf> = skip.iter().map(|s| dir.join(s)).collect();
        let files = source_tree::rust_files(dir, &skip);
        let mut modules = BTreeMap::new();
        for file in files {
            let relative = file.strip_prefix(dir).unwrap();
            let mut path: ModPath = relative
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            if relative == Path::new(root_file) {
                path.clear();
            } else if path.last().is_some_and(|l| l == "mod") {
                path.pop();
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let shown = file.display().to_string();
            modules.insert(path, (shown, source_tree::non_test_code(&text).to_string()));
        }
        Crate::without_test_modules(modules)
    }

    /// `modules` less those a `#[cfg(test)] mod name;` declares.
    fn without_test_modules(mut modules: BTreeMap<ModPath, (String, String)>) -> Crate {
        let mut tests = Vec::new();
        for (path, (file, _)) in &modules {
            // The test module is past `non_test_code`: look it up in the whole file.
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            for (at, _) in text.match_indices("#[cfg(test)]") {
                let rest = text[at + "#[cfg(test)]".len()..].trim_start();
                if let Some(name) = rest.strip_prefix("mod ") {
                    let name = ident(name.trim_start());
                    if rest.contains(&format!("mod {name};")) {
                        let mut child = path.clone();
                        child.push(name);
                        tests.push(child);
                    }
                }
            }
        }
        for t in tests {
            modules.remove(&t);
        }
        Crate { modules }
    }

    fn children(&self, of: &[String]) -> BTreeSet<String> {
        self.modules
            .keys()
            .filter(|p| p.len() == of.len() + 1 && p.starts_with(of))
            .map(|p| p[of.len()].clone())
            .collect()
    }

    /// The module a path names: its longest prefix that is a module, followed into the
    /// child that defines the next name when the module re-exports it.
    fn resolve(&self, path: &[String]) -> Option<ModPath> {
        let mut module = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| self.modules.contains_key(p))?;
        while let Some(item) = path.get(module.len()) {
            match self.reexporter(&module, item) {
                Some(child) => module.push(child),
                None => break,
            }
        }
        Some(module)
    }

    /// The child of `module` whose `item` it re-exports (`pub use child::item`,
    /// `pub use child::*` of a child declaring it public).
    fn reexporter(&self, module: &ModPath, item: &str) -> Option<String> {
        let code = &self.modules.get(module)?.1;
        let reexports: Vec<&str> = code
            .match_indices("use ")
            .filter(|(at, _)| {
                let before = code[..*at].trim_end();
                before.ends_with("pub") || before.ends_with("pub(crate)")
            })
            .map(|(at, _)| code[at + "use ".len()..].trim_start())
            .collect();
        self.children(module).into_iter().find(|child| {
            let mut path = module.clone();
            path.push(child.clone());
            reexports.iter().any(|rest| {
                let glob = rest.starts_with(&format!("{child}::*"));
                (glob && public_items(&self.modules[&path].1).contains(item))
                    || expand(rest).iter().any(|named| {
                        named.first() == Some(child)
                            && named.last().map(String::as_str) == Some(item)
                    })
            })
        })
    }

    /// Imports between siblings: (importer, imported) under the same parent, with the
    /// file and the path that make it.
    fn sibling_imports(&self) -> BTreeMap<(ModPath, ModPath), String> {
        let mut edges = BTreeMap::new();
        for (here, (file, code)) in &self.modules {
            let children = self.children(here);
            for named in paths_named(here, code, &children) {
                let Some(there) = self.resolve(&named) else {
                    continue;
                };
                // A module may use its parent (and what it re-exports) and its children.
                if there.starts_with(here) || here.starts_with(&there) {
                    continue;
                }
                let common = here.iter().zip(&there).take_while(|(a, b)| a == b).count();
                let (from, to) = (here[..=common].to_vec(), there[..=common].to_vec());
                edges
                    .entry((from, to))
                    .or_insert_with(|| format!("{file} names {}", named.join("::")));
            }
        }
        edges
    }

    /// Every set of sibling modules that import each other round a loop, each with the
    /// imports that make it.
    fn circles(&self) -> Vec<String> {
        let edges = self.sibling_imports();
        let mut next: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
        for (from, to) in edges.keys() {
            next.entry(from).or_default().push(to);
        }
        let reach = |start: &ModPath| -> BTreeSet<ModPath> {
            let (mut seen, mut todo) = (BTreeSet::new(), vec![start.clone()]);
            while let Some(m) = todo.pop() {
                for n in next.get(&m).into_iter().flatten() {
                    if seen.insert((*n).clone()) {
                        todo.push((*n).clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&ModPath, BTreeSet<ModPath>> =
            next.keys().map(|m| (*m, reach(m))).collect();
        let mut circles = BTreeSet::new();
        for (m, reached) in &reaches {
            if !reached.contains(*m) {
                continue;
            }
            let circle: BTreeSet<&ModPath> = reached
                .iter()
                .filter(|n| reaches.get(n).is_some_and(|r| r.contains(*m)))
                .collect();
            let names: Vec<String> = circle.iter().map(|p| p.join("::")).collect();
            let why: Vec<&str> = edges
                .iter()
                .filter(|((a, b), _)| circle.contains(a) && circle.contains(b))
                .map(|(_, why)| why.as_str())
                .collect();
            circles.insert(format!("{} ({})", names.join(" <-> "), why.join("; ")));
        }
        circles.into_iter().collect()
    }
}

#[test]
fn no_module_imports_a_sibling_that_imports_it_back() {
    let src = source_tree::src();
    let library = Crate::read(&src, "lib.rs", &["bin"]);
    let binary = Crate::read(&src.join("bin/kubectl-policies"), "main.rs", &[]);
    // The reader found the modules it is meant to check.
    assert!(library
        .modules
        .contains_key(&vec!["effective".to_string(), "combine".to_string()]));
    assert!(binary.modules.contains_key(&vec!["session".to_string()]));
    let mut circles = library.circles();
    circles.extend(binary.circles().into_iter().map(|c| format!("binary: {c}")));
    assert!(
        circles.is_empty(),
        "import circles (give what both share a module below them):\n{}",
        circles.join("\n")
    );
}

/// The reader on literal modules: a→b→a is a circle, however it is spelled (a path
/// from the crate, `super::`, a group, a parent's re-export); a→b alone is not.
#[test]
fn a_circle_between_siblings_is_found_in_every_spelling() {
    let crate_of = |files: &[(&str, &str)]| Crate {
        modules: files
            .iter()
            .map(|(path, code)| {
                let path: ModPath = match *path {
                    "" => Vec::new(),
                    p => p.split("::").map(str::to_string).collect(),
                };
                (path.clone(), (format!("{path:?}"), code.to_string()))
            })
            .collect(),
    };
    let parent = "mod a;\nmod b;\npub use a::Shared;\npub use b::*;";
    let one_way = crate_of(&[
        ("", "mod layer;"),
        ("layer", parent),
        ("layer::a", "use super::b::Thing;\npub struct Shared;"),
        ("layer::b", "pub struct Thing;"),
    ]);
    assert_eq!(one_way.circles(), Vec::<String>::new());
    for back in [
        "use crate::layer::a::Shared;",
        "use super::{a::Shared, x};",
        "use crate::layer::Shared;",
        "use crate::{layer::{a}};",
    ] {
        let circle = crate_of(&[
            ("", "mod layer;"),
            ("layer", parent),
            ("layer::a", "use super::b::Thing;\npub struct Shared;"),
            ("layer::b", &format!("{back}\npub struct Thing;")),
        ]);
        let found = circle.circles();
        assert_eq!(found.len(), 1, "{back}: {found:?}");
        assert!(
            found[0].starts_with("layer::a <-> layer::b"),
            "{back}: {found:?}"
        );
    }
    // Through a re-exported glob: `super::Thing` is `b`'s.
    let glob = crate_of(&[
        ("", "mod layer;"),
        ("layer", parent),
        ("layer::a", "use super::Thing;\npub struct Shared;"),
        ("layer::b", "use super::a::Shared;\npub struct Thing;"),
    ]);
    assert_eq!(glob.circles().len(), 1);
}
