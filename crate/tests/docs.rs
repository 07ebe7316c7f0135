//! The docs that are generated or checked against the code: `docs/scenarios.md` must equal what
//! `leaselab scenarios --markdown` prints, `docs/run-json.md` must document exactly the keys that the
//! golden runs (`tests/golden/`) contain, and `docs/cli.md` must mention every command and flag of
//! `leaselab help`.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::PathBuf;
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
