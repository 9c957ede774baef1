//! ARCHITECTURE.md's one rule for imports, as a test: a module of the library imports
//! only the layers below it. Test modules (`#[cfg(test)]`, at the end of a file) may
//! reach anything.

use crate::source_tree;
use std::collections::BTreeSet;

/// Each layer and the layers it may import, as ARCHITECTURE.md's table has them. No pure
/// layer imports `source`, the I/O: the plain data a read is asked for and reports
/// (`model::read`, `model::watch`) are in `model`, which both sides import.
const LAYERS: [(&str, &[&str]); 8] = [
    ("model", &[]),
    ("source", &["model"]),
    ("catalog", &["model"]),
    ("focus", &["model", "catalog"]),
    ("topology", &["model", "catalog"]),
    ("effective", &["model", "catalog", "topology"]),
    (
        "query",
        &["model", "catalog", "focus", "topology", "effective"],
    ),
    ("render", &["model", "topology", "effective", "query"]),
];

/// The layers `code` names through `crate::`, grouped imports (`crate::{a, b::c}`) too.
fn layers_named(code: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                named.extend(top_level_items(group).map(ident).filter(|s| !s.is_empty()))
            }
            None => {
                named.insert(ident(rest));
            }
        }
    }
    named
}

/// The items of a group whose `{` is just before `group`, up to its `}`: those at its top
/// level only (`a::{b, c}, d` is `a::{b, c}` and `d`).
fn top_level_items(group: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut items = Vec::new();
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items.into_iter();
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
    items.into_iter()
}

#[test]
fn every_module_imports_only_the_layers_below_it() {
    let src = source_tree::src();
    let all: BTreeSet<&str> = LAYERS.iter().map(|(l, _)| *l).collect();
    // Every module of the library is in a layer this test reads.
    for entry in std::fs::read_dir(&src).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let module = name.strip_suffix(".rs").unwrap_or(&name);
        assert!(
            all.contains(module) || ["lib", "bin"].contains(&module),
            "src/{name} is in no layer of ARCHITECTURE.md's table (nor in LAYERS here)"
        );
    }
    let mut broken = Vec::new();
    for (layer, allowed) in LAYERS {
        let files = source_tree::rust_files(&src.join(layer), &[]);
        assert!(!files.is_empty(), "no files in src/{layer}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for named in layers_named(source_tree::non_test_code(&text)) {
                let is_layer = all.contains(named.as_str());
                if is_layer && named != layer && !allowed.contains(&named.as_str()) {
                    broken.push(format!(
                        "{} imports {named}",
                        file.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports against the layer order:\n{}",
        broken.join("\n")
    );
}

/// The reader of imports itself: plain paths and groups.
#[test]
fn imports_are_read_in_both_spellings() {
    let named = layers_named("use crate::model::Val;\nuse crate::{query, render::Style};\nlet x = crate::topology::NodeId::new(1);");
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    assert_eq!(named, ["model", "query", "render", "topology"]);
    // A nested group does not hide what follows it.
    let named = layers_named("use crate::{\n    catalog::{Class, Flow},\n    effective,\n};");
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    assert_eq!(named, ["catalog", "effective"]);
}

/// The binary resolves its command line once (`plan.rs`): the session and the commands
/// receive the plan, never the flags (`cli::Global`, `cli::Args`). Only the routing
/// (`commands.rs`) and completion, which reads the words typed so far, see them.
#[test]
fn the_session_and_the_commands_never_see_the_flags() {
    let bin = crate::command::repo("src/bin/kubectl-policies");
    let mut files = vec![bin.join("session.rs"), bin.join("warn.rs")];
    files.extend(source_tree::rust_files(&bin.join("commands"), &[]));
    assert!(files.len() >= 3, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = source_tree::non_test_code(&text);
        for flag_word in ["Global", "cli::", "Args", "flags."] {
            assert!(
                !code.contains(flag_word),
                "{} names {flag_word}: it should read the plan (plan.rs)",
                file.display()
            );
        }
    }
}
