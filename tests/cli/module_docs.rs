//! Every module under `src/` says what it is: its file opens with a module doc comment
//! (`//!`). The comment owns the module's details; ARCHITECTURE.md keeps the layers, the
//! import rule and where to look first.

use crate::source_tree;

/// Whether `text` opens with a module doc comment that says something: its first
/// non-blank line is `//! ...`.
fn opens_with_doc(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .and_then(|line| line.strip_prefix("//!"))
        .is_some_and(|rest| !rest.trim().is_empty())
}

#[test]
fn every_module_under_src_opens_with_a_doc_comment() {
    let src = source_tree::src();
    let files = source_tree::rust_files(&src, &[]);
    // The scan found the modules it is meant to hold (the binary's among them).
    assert!(files.len() > 100, "only {} files found", files.len());
    assert!(files
        .iter()
        .any(|f| f.ends_with("bin/kubectl-policies/main.rs")));
    let undocumented: Vec<String> = files
        .iter()
        .filter(|file| !opens_with_doc(&std::fs::read_to_string(file).unwrap()))
        .map(|file| format!("src/{}", file.strip_prefix(&src).unwrap().display()))
        .collect();
    assert!(
        undocumented.is_empty(),
        "modules without a module doc comment (a first line `//! what it is`):\n{}",
        undocumented.join("\n")
    );
}

/// The reader on literal files: a doc comment after blank lines counts; a plain
/// comment, an item first, or an empty `//!` does not.
#[test]
fn a_module_doc_is_told_from_a_plain_comment_or_none() {
    assert!(opens_with_doc("//! The fold.\n\nuse x;\n"));
    assert!(opens_with_doc("\n\n  //! Indented, after blank lines.\n"));
    assert!(!opens_with_doc("// A plain comment.\nuse x;\n"));
    assert!(!opens_with_doc("/// An item's doc.\nfn f() {}\n"));
    assert!(!opens_with_doc("use x;\n//! Too late.\n"));
    assert!(!opens_with_doc("//!\nuse x;\n"));
    assert!(!opens_with_doc(""));
}
