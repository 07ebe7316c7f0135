//! The docs that are generated or checked against the code: `docs/scenarios.md` must equal what
//! `leaselab scenarios --markdown` prints, `docs/run-json.md` must document exactly the keys that the
//! golden runs (`tests/golden/`) contain, `docs/cli.md` must mention every command and flag of
//! `leaselab help`, and every repository path that README.md and docs/ write must exist.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

#[test]
fn scenarios_page_is_what_the_cli_generates() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["scenarios", "--markdown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let generated = String::from_utf8(out.stdout).unwrap();
    assert_eq!(generated, leaselab::report::markdown::scenarios());
    let on_disk = std::fs::read_to_string(repo("docs/scenarios.md")).unwrap_or_default();
    if on_disk != generated {
        let line = on_disk
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "at the end".to_string(),
                |i| format!("from line {}", i + 1),
            );
        panic!(
            "docs/scenarios.md is out of date ({line}); regenerate it from the repository root with\n    {}",
            leaselab::report::markdown::SCENARIOS_COMMAND
        );
    }
}

#[test]
fn scenarios_page_has_every_scenario_and_expectation() {
    let page = leaselab::report::markdown::scenarios();
    for sc in leaselab::catalogue::catalogue() {
        assert!(
            page.contains(&format!("\n## {}\n", sc.id)),
            "{} missing",
            sc.id
        );
    }
    let rows = page.lines().filter(|l| l.starts_with("| `")).count();
    let expects: usize = leaselab::catalogue::catalogue()
        .iter()
        .map(|sc| sc.expects.len() + sc.params.len())
        .sum();
    assert_eq!(
        rows, expects,
        "one table row per parameter and per expectation"
    );
}

/// A JSON value, as much of it as the key check needs (the golden files are leaselab's own output).
enum Json {
    Obj(Vec<(String, Json)>),
    Arr(Vec<Json>),
    Str(String),
    Other,
}

fn parse(text: &str) -> Json {
    let mut p = Parser {
        b: text.as_bytes(),
        i: 0,
    };
    let v = p.value();
    p.ws();
    assert_eq!(p.i, p.b.len(), "trailing text after the JSON value");
    v
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        let hit = self.b.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }

    fn value(&mut self) -> Json {
        self.ws();
        match self.b[self.i] {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.ws();
                        let key = self.string();
                        assert!(self.eat(b':'), "expected : at byte {}", self.i);
                        fields.push((key, self.value()));
                        if self.eat(b'}') {
                            break;
                        }
                        assert!(self.eat(b','), "expected , at byte {}", self.i);
                    }
                }
                Json::Obj(fields)
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value());
                        if self.eat(b']') {
                            break;
                        }
                        assert!(self.eat(b','), "expected , at byte {}", self.i);
                    }
                }
                Json::Arr(items)
            }
            b'"' => Json::Str(self.string()),
            _ => {
                // A number, true, false or null: up to the next delimiter.
                while self.i < self.b.len() && !b",]} \n".contains(&self.b[self.i]) {
                    self.i += 1;
                }
                Json::Other
            }
        }
    }

    fn string(&mut self) -> String {
        assert_eq!(self.b[self.i], b'"', "expected a string at byte {}", self.i);
        let start = self.i + 1;
        self.i = start;
        while self.b[self.i] != b'"' {
            self.i += if self.b[self.i] == b'\\' { 2 } else { 1 };
        }
        self.i += 1;
        String::from_utf8(self.b[start..self.i - 1].to_vec()).unwrap()
    }
}

/// The golden runs: the seed's run and every parity case.
fn golden_runs() -> Vec<(String, Json)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files = vec![dir.join("seed-unfenced.json")];
    let mut parity: Vec<_> = std::fs::read_dir(dir.join("parity"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    parity.sort();
    files.extend(parity);
    assert!(files.len() > 10, "golden runs missing");
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f.strip_prefix(&dir).unwrap().display().to_string();
            (format!("tests/golden/{name}"), parse(&text))
        })
        .collect()
}

/// Every key path in `v` (`writes[].token`); keys of objects documented as maps (`params.*`) become `*`.
fn key_paths(v: &Json, path: &str, maps: &BTreeSet<String>, out: &mut BTreeSet<String>) {
    match v {
        Json::Obj(fields) => {
            for (k, child) in fields {
                let key = if maps.contains(path) { "*" } else { k.as_str() };
                let p = if path.is_empty() {
                    key.to_string()
                } else {
                    format!("{path}.{key}")
                };
                out.insert(p.clone());
                key_paths(child, &p, maps, out);
            }
        }
        Json::Arr(items) => {
            for item in items {
                key_paths(item, &format!("{path}[]"), maps, out);
            }
        }
        Json::Str(_) | Json::Other => {}
    }
}

/// The backquoted words of a table row's `n`th cell.
fn code_spans(row: &str, n: usize) -> Vec<String> {
    let cell = row.split('|').nth(n + 1).unwrap_or("");
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The table rows of the section that starts with `heading` (up to the next `## `).
fn section_rows<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
    let start = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/run-json.md: no {heading:?} section"));
    let body = &doc[start + heading.len() + 2..];
    let end = body.find("\n## ").unwrap_or(body.len());
    body[..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .collect()
}

#[test]
fn run_json_page_documents_exactly_the_golden_runs_keys() {
    let doc = std::fs::read_to_string(repo("docs/run-json.md")).unwrap();
    let documented: BTreeSet<String> = section_rows(&doc, "## Fields")
        .iter()
        .map(|row| code_spans(row, 0).remove(0))
        .collect();
    let maps: BTreeSet<String> = documented
        .iter()
        .filter_map(|k| k.strip_suffix(".*").map(str::to_string))
        .collect();
    let mut seen = BTreeSet::new();
    for (_, run) in golden_runs() {
        key_paths(&run, "", &maps, &mut seen);
    }
    let undocumented: Vec<_> = seen.difference(&documented).collect();
    let unseen: Vec<_> = documented.difference(&seen).collect();
    assert!(
        undocumented.is_empty(),
        "keys in the golden runs that docs/run-json.md does not list under Fields: {undocumented:?}"
    );
    assert!(
        unseen.is_empty(),
        "keys docs/run-json.md lists under Fields that no golden run has: {unseen:?}"
    );
}

#[test]
fn run_json_page_lists_every_event_kind_with_its_keys() {
    let doc = std::fs::read_to_string(repo("docs/run-json.md")).unwrap();
    let rows = section_rows(&doc, "## Event kinds");
    let common = ["t_ms", "actor", "kind", "lane"];
    for (file, run) in golden_runs() {
        let Json::Obj(fields) = run else {
            panic!("{file}: not an object")
        };
        let Some((_, Json::Arr(events))) = fields.iter().find(|(k, _)| k == "events") else {
            panic!("{file}: no events")
        };
        for event in events {
            let Json::Obj(keys) = event else {
                panic!("{file}: an event is not an object")
            };
            let Some((_, Json::Str(kind))) = keys.iter().find(|(k, _)| k == "kind") else {
                panic!("{file}: an event without a kind")
            };
            let row = rows
                .iter()
                .find(|r| code_spans(r, 0).contains(kind))
                .unwrap_or_else(|| {
                    panic!("docs/run-json.md: event kind {kind:?} ({file}) not listed")
                });
            let listed = code_spans(row, 2);
            for (k, _) in keys.iter().filter(|(k, _)| !common.contains(&k.as_str())) {
                assert!(
                    listed.contains(k),
                    "docs/run-json.md: a {kind:?} event ({file}) has {k:?}, which its row does not list"
                );
            }
        }
    }
}

#[test]
fn cli_page_covers_every_command_and_flag_of_the_help() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .arg("help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let page = std::fs::read_to_string(repo("docs/cli.md")).unwrap();
    let mut checked = 0;
    for word in help.split(|c: char| c.is_whitespace() || "[]|".contains(c)) {
        let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        let flag = word.starts_with("--") && word.len() > 2;
        let command = [
            "run",
            "check",
            "scenarios",
            "sweep",
            "search",
            "estimate",
            "completions",
            "help",
        ]
        .contains(&word);
        if flag || command {
            let flag_only = word.split('=').next().unwrap();
            assert!(
                page.contains(&format!("`{flag_only}")) || page.contains(&format!(" {flag_only} ")),
                "docs/cli.md does not mention {flag_only}, which `leaselab help` lists"
            );
            checked += 1;
        }
    }
    assert!(checked > 25, "found only {checked} flags in the help");
    assert_eq!(
        Command::new(env!("CARGO_BIN_EXE_leaselab"))
            .args(["scenarios", "--markdown", "--json"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2),
        "--markdown takes no other flags"
    );
}

/// docs/cli.md's usage block is `leaselab help`'s usage, which clap's definitions generate: the page
/// cannot drift from the binary.
#[test]
fn cli_page_usage_block_is_what_the_help_prints() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .arg("help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let usage = help
        .strip_prefix("usage:\n")
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("`leaselab help` starts with its usage:\n{help}"));
    let usage: Vec<&str> = usage
        .lines()
        .map(|l| {
            l.strip_prefix("  ")
                .unwrap_or_else(|| panic!("indented: {l:?}"))
        })
        .collect();
    let page = std::fs::read_to_string(repo("docs/cli.md")).unwrap();
    let block = page
        .split("\n```\n")
        .find(|b| b.starts_with("leaselab run "))
        .expect("docs/cli.md has a usage block starting with `leaselab run`");
    let block: Vec<&str> = block.lines().collect();
    assert_eq!(
        block,
        usage,
        "docs/cli.md's usage block differs from `leaselab help`; paste this:\n{}",
        usage.join("\n")
    );
    for command in [
        "run",
        "check",
        "scenarios",
        "sweep",
        "search",
        "estimate",
        "completions",
    ] {
        assert!(
            usage
                .iter()
                .any(|l| l.starts_with(&format!("leaselab {command} "))),
            "the usage names {command}"
        );
    }
}

/// The folders at the repository's root that a path written in the docs can start with.
const TOP_DIRS: [&str; 6] = ["crate/", "www/", "docs/", "tools/", "conformance/", ".ci/"];

/// The files at the repository's root that the docs name by themselves.
const TOP_FILES: [&str; 8] = [
    "Makefile",
    "Cargo.toml",
    "Cargo.lock",
    "wasm-pack.toml",
    "clippy.toml",
    "CHANGELOG.md",
    "README.md",
    ".gitignore",
];

/// Paths in other projects' repositories that the docs cite by those projects' own names and that
/// happen to start like ours: client-go's leader election (docs/model.md, and docs/scenarios.md from
/// the kubernetes scenarios' sources).
const FOREIGN: [&str; 1] = ["tools/leaderelection/leaderelection.go"];

/// Capitalised names that are real files, not placeholders such as `NAME` or `TOOL`.
const CAPITALISED: [&str; 3] = ["README", "CHANGELOG", "LICENSE"];

/// What the build writes, not the repository: `.gitignore`'s entries anchored at the root
/// (`/target`, `/dist`, `/www/pkg`, …), without globs.
fn generated() -> Vec<String> {
    let ignore = std::fs::read_to_string(repo(".gitignore")).unwrap();
    ignore
        .lines()
        .filter_map(|l| l.strip_prefix('/'))
        .filter(|l| !l.contains('*'))
        .map(|l| l.trim_end_matches('/').to_string())
        .collect()
}

/// Whether a word written in the docs stands for a name to fill in rather than a path: a glob, an
/// ellipsis, a template (`{…}`, `<code>`, `$VAR`), or a name in capitals (`NAME`, `TOOL`, `ID`).
fn placeholder(word: &str) -> bool {
    let capitals = |part: &str| {
        part.len() > 1
            && part.chars().all(|c| c.is_ascii_uppercase())
            && !CAPITALISED.contains(&part)
    };
    word.contains(['*', '…', '{', '}', '<', '>', '$', '%'])
        || word.contains("...")
        || word.split(['/', '.', '-', '_']).any(capitals)
}

/// The repository path a word written in the docs stands for, if it is one: it starts with one of
/// `TOP_DIRS` or is one of `TOP_FILES` (with a trailing `.` or `:` of the sentence, and a `#anchor`,
/// `?query` or `:line` after it, cut off), and it is no placeholder, build output or other project's
/// path.
fn repo_path(word: &str, generated: &[String]) -> Option<String> {
    let word = word.trim_end_matches(['.', ':']);
    let path = word.split(['#', '?', ':']).next().unwrap_or("");
    let ours = TOP_DIRS.iter().any(|d| path.starts_with(d)) || TOP_FILES.contains(&path);
    let other = built(path, generated) || placeholder(path) || FOREIGN.contains(&path);
    (ours && !other).then(|| path.to_string())
}

/// Whether `path` is under one of the build's outputs.
fn built(path: &str, generated: &[String]) -> bool {
    generated
        .iter()
        .any(|g| path == g || path.starts_with(&format!("{g}/")))
}

/// The words of a piece of code: split at spaces and at what no path of ours contains.
fn code_words(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| c.is_whitespace() || "`'\"(),;=[]|".contains(c))
        .filter(|w| !w.is_empty())
}

/// `path` with `.` and `..` resolved, relative to the repository's root, or `None` if it leaves it.
fn normalise(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            _ => {}
        }
    }
    Some(parts.join("/"))
}

/// The targets of a line's Markdown links (`[x](target)`, `![x](target)`) that point into the
/// repository, resolved against the folder of `doc`: not a web or mail address, not an anchor alone,
/// and without their `#anchor`. A target that leaves the repository comes back as written.
fn link_targets(doc: &str, prose: &str) -> Vec<String> {
    let folder = Path::new(doc).parent().unwrap_or(Path::new(""));
    let mut found = Vec::new();
    for (i, _) in prose.match_indices("](") {
        let rest = prose[i + 2..].trim_start_matches('<');
        let end = rest.find([')', ' ', '>']).unwrap_or(rest.len());
        let target = &rest[..end];
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let file = target.split(['#', '?']).next().unwrap_or("");
        if !file.is_empty() {
            let joined = folder.join(file.trim_start_matches('/'));
            found.push(normalise(&joined).unwrap_or_else(|| target.to_string()));
        }
    }
    found
}

/// A file tree in a code block, as docs/architecture.md's map draws one: a line whose first word is a
/// file or folder name (a `.` or a trailing `/` in it) followed by two spaces or the line's end is an
/// entry; an entry two spaces deeper than a folder's is inside it. A line at any other depth, or whose
/// first word is not such a name, is a description's continuation and changes nothing, except a line
/// of other text at the left margin, which ends the tree.
#[derive(Default)]
struct Tree {
    folders: Vec<(usize, String)>,
}

impl Tree {
    /// The path of the entry on `line`, if it is one, relative to the tree's root.
    fn entry(&mut self, line: &str) -> Option<String> {
        let rest = line.trim_start_matches(' ');
        let depth = line.len() - rest.len();
        let name = rest.split(' ').next().unwrap_or("");
        let after = &rest[name.len()..];
        let named = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
            && (name.ends_with('/') || name.contains('.'));
        if !named || !(after.is_empty() || after.starts_with("  ")) {
            if depth == 0 && !rest.is_empty() {
                self.folders.clear();
            }
            return None;
        }
        while self.folders.last().is_some_and(|(d, _)| *d >= depth) {
            self.folders.pop();
        }
        let path = match self.folders.last() {
            None if depth == 0 => name.to_string(),
            Some((d, folder)) if depth == d + 2 => format!("{folder}{name}"),
            _ => return None,
        };
        if name.ends_with('/') {
            self.folders.push((depth, path.clone()));
        }
        Some(path)
    }
}

/// A line that opens or closes a code block, as CommonMark reads backtick fences: the block `open`
/// (its opening fence's length) after it — a fence of at least three backticks opens one; only a
/// fence at least as long as the opening one, with nothing after it, closes it (so a ```` block
/// can show a ``` fence inside). `None` for any other line.
fn fence_line(open: Option<usize>, line: &str) -> Option<Option<usize>> {
    let t = line.trim_start();
    let n = t.len() - t.trim_start_matches('`').len();
    match open {
        None if n >= 3 => Some(Some(n)),
        Some(m) if n >= m && t[n..].trim().is_empty() => Some(None),
        _ => None,
    }
}

/// Every repository path `text` (the doc `doc`, relative to the root) writes, with its line: the
/// targets of its Markdown links (`link_targets`), the words of its prose, code spans and code blocks
/// that are repository paths (`repo_path`), and the entries of file trees in its code blocks (`Tree`).
/// The recipes (docs/recipes/) are read for their links and code spans only: their prose and code
/// blocks speak of the reader's own site, whose `docs/` is not ours.
fn cited_paths(doc: &str, text: &str, generated: &[String]) -> Vec<(usize, String)> {
    let about_us = !doc.starts_with("docs/recipes/");
    let mut found = Vec::new();
    let (mut fence, mut span, mut tree) = (None, false, Tree::default());
    for (i, line) in text.lines().enumerate() {
        let mut cite = |path: Option<String>| found.extend(path.map(|p| (i + 1, p)));
        if let Some(next) = fence_line(fence, line) {
            (fence, span, tree) = (next, false, Tree::default());
        } else if fence.is_some() {
            if about_us {
                code_words(line).for_each(|w| cite(repo_path(w, generated)));
                cite(tree.entry(line).and_then(|p| repo_path(&p, generated)));
            }
        } else {
            // A code span can go on over a line break, not past a paragraph's end.
            span &= !line.trim().is_empty();
            for (k, part) in line.split('`').enumerate() {
                // Each backtick opens or closes a span.
                span ^= k > 0;
                if span || about_us {
                    code_words(part).for_each(|w| cite(repo_path(w, generated)));
                }
                if !span {
                    let targets = link_targets(doc, part).into_iter();
                    targets.for_each(|t| cite((!built(&t, generated)).then_some(t)));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// README.md and every Markdown file under docs/, as paths from the repository's root.
fn doc_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    let mut folders = vec!["docs".to_string()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(repo(&folder)).unwrap() {
            let entry = entry.unwrap();
            let path = format!("{folder}/{}", entry.file_name().to_string_lossy());
            if entry.file_type().unwrap().is_dir() {
                folders.push(path);
            } else if path.ends_with(".md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A reader who follows a path that README.md or docs/ (recipes included) writes finds it: a file
/// renamed, moved or split into a folder (`conformance/src/real.rs` became `conformance/src/real/`)
/// fails here, every such place listed as `file:line`, until the docs follow. A path is
/// - a Markdown link's target, resolved against the doc's folder and without its `#anchor`, unless it
///   is a web or mail address or an anchor alone;
/// - a word of prose, of a code span or of a code block that starts with a folder at the root
///   (`TOP_DIRS`: `crate/`, `www/`, `docs/`, `tools/`, `conformance/`, `.ci/`) or is a file there
///   (`TOP_FILES`), with a sentence's `.` or `:` and a `#anchor`, `?query` or `:line` cut off;
/// - an entry of a file tree in a code block (docs/architecture.md's map, README.md's layout), its
///   path made from its folders' by indentation (`Tree`);
///
/// and not a placeholder (a glob, `…`, `{…}`, `<…>`, `$`, a name in capitals such as `NAME` or
/// `TOOL`), a build output (`.gitignore`'s entries at the root: `dist/`, `www/pkg/`, `target/`, …),
/// another project's path (`FOREIGN`), nor anything in a recipe's prose or code blocks, which speak
/// of the reader's own site (`cited_paths`).
#[test]
fn every_path_the_docs_write_exists() {
    let generated = generated();
    let (mut checked, mut missing) = (0, Vec::new());
    for doc in doc_files() {
        let text = std::fs::read_to_string(repo(&doc)).unwrap();
        for (line, path) in cited_paths(&doc, &text, &generated) {
            checked += 1;
            if !repo(&path).exists() {
                missing.push(format!("{doc}:{line}: {path}"));
            }
        }
    }
    assert!(checked > 300, "found only {checked} paths in the docs");
    assert!(
        missing.is_empty(),
        "paths the docs write that do not exist (correct the doc; a path in another project's \
         repository goes in FOREIGN, crate/tests/docs.rs):\n  {}",
        missing.join("\n  ")
    );
}

/// The rule on each kind of word the docs hold, so a change to it shows what it lets through.
#[test]
fn paths_are_told_from_placeholders_build_outputs_and_other_projects() {
    let generated = generated();
    let path = |w| repo_path(w, &generated);
    assert_eq!(
        path("crate/src/sim/queue.rs:133").unwrap(),
        "crate/src/sim/queue.rs"
    );
    assert_eq!(path("docs/model.md#outcome").unwrap(), "docs/model.md");
    assert_eq!(path("Makefile.").unwrap(), "Makefile");
    assert_eq!(
        path("docs/recipes/README.md").unwrap(),
        "docs/recipes/README.md"
    );
    let not_ours = [
        "crate/scenarios/etcd-*.txt",
        "tools/recipes/TOOL/",
        "www/i18n/<code>.js",
        "www/pkg/leaselab_bg.wasm",
        "target/release/leaselab",
        "src/sim/mod.rs",
        "https://github.com/x/y/blob/main/crate/src/lib.rs",
        FOREIGN[0],
    ];
    for word in not_ours {
        assert_eq!(path(word), None, "{word}");
    }
    let links = "[a](../crate/src/lib.rs#L1), [b](#anchor), [c](https://a.b/c), ![d](lab.png)";
    assert_eq!(
        link_targets("docs/cli.md", links),
        ["crate/src/lib.rs", "docs/lab.png"]
    );
    let mut tree = Tree::default();
    let map = [
        "crate/src/    the library",
        "  sim/        the kernel",
        "    mod.rs    Engine: the run loop;",
        "              its Mode (Dyn for every run)",
        "  lib.rs      crate docs",
    ];
    let entries: Vec<_> = map.iter().filter_map(|l| tree.entry(l)).collect();
    assert_eq!(
        entries,
        [
            "crate/src/",
            "crate/src/sim/",
            "crate/src/sim/mod.rs",
            "crate/src/lib.rs"
        ]
    );
}

/// The docs' code blocks are read as CommonMark reads them: a ```` block shows a ``` fence inside it
/// (the recipes' Markdown pages with a ```leaselab fence), and its links stay code.
#[test]
fn a_longer_fence_holds_a_shorter_one() {
    let text = "````markdown\n```leaselab\nscenario=x\n```\n[Next](nowhere.md)\n````\n[Real](missing.md)\n";
    let paths: Vec<String> = cited_paths("docs/x.md", text, &[])
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(paths, vec!["docs/missing.md".to_string()]);
    assert_eq!(fence_line(None, "```"), Some(Some(3)));
    assert_eq!(fence_line(Some(4), "```"), None);
    assert_eq!(fence_line(Some(3), "```` "), Some(None));
    assert_eq!(fence_line(Some(3), "```rust"), None);
}
