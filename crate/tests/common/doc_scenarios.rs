//! The ```scenario blocks of docs/scenario-format.md, for the tests that check the page
//! (`tests/scenario_format.rs`) and the tests that run its first file (`tests/cli_file.rs`): the
//! job runner a reader writes first is one text, the page's, not a copy in each test.

/// docs/scenario-format.md, read at test time.
pub fn page() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scenario-format.md");
    std::fs::read_to_string(path).unwrap()
}

/// The page's ```scenario blocks, with the line each starts on.
pub fn examples(page: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in page.lines().enumerate() {
        match (&mut open, line.trim_end()) {
            (None, "```scenario") => open = Some((n + 2, String::new())),
            (Some(_), "```") => out.extend(open.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(open.is_none(), "an unclosed ```scenario block");
    out
}
