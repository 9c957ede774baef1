//! The source tree as the structure tests read it (`sizes`, `layers`, `import_circles`,
//! `module_docs`): the Rust files under a directory, and a file's code up to its test
//! module.

use std::path::{Path, PathBuf};

/// `src/` of the repository.
pub fn src() -> PathBuf {
    crate::command::repo("src")
}

/// The `.rs` files under `dir`, in path order, but for those under a directory of
/// `skip` (the binary's, `src/bin`, read as a crate of its own).
pub fn rust_files(dir: &Path, skip: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, skip, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if skip.contains(&path) {
            continue;
        }
        if path.is_dir() {
            walk(&path, skip, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file up to its test module (`#[cfg(test)]`, at the end of a file).
pub fn non_test_code(text: &str) -> &str {
    match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// A test module may reach anything: code after `#[cfg(test)]` is not read. The files
/// are found below their directory, in order, and a skipped directory is left out.
#[test]
fn the_code_read_stops_at_the_test_module_and_files_are_found_in_order() {
    assert_eq!(
        non_test_code("use a;\n#[cfg(test)]\nmod tests { use b; }"),
        "use a;\n"
    );
    assert_eq!(non_test_code("use a;\n"), "use a;\n");
    let src = src();
    let all = rust_files(&src, &[]);
    let library = rust_files(&src, &[src.join("bin")]);
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    assert!(all.contains(&src.join("effective/merge/gep713.rs")));
    assert!(all.contains(&src.join("bin/kubectl-policies/main.rs")));
    assert!(!library.iter().any(|f| f.starts_with(src.join("bin"))));
    assert!(library.len() < all.len());
}
