//! Rules of the library's code that a comment alone would not keep (docs/architecture.md, "Rules
//! that keep runs exact" and the size budgets).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// An impossible case in the code the page's wasm is built from is `unreachable!()`, its why in a
/// comment: the panic's location names it (the wasm's panic hook prints it), and a message's text
/// would cost every wasm its bytes. The command line (`src/bin/`) may say more.
#[test]
fn the_wasm_s_impossible_cases_carry_no_message() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(src.join("bin"))) {
        let text = std::fs::read_to_string(file).unwrap();
        // Test modules run natively only.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            if line.contains("unreachable!(\"") {
                found.push(format!("{}:{}", file.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "unreachable! with a message: {found:?}");
}
