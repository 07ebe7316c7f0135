//! `leaselab scenarios`: the catalogue, as a list, JSON or the Markdown of docs/scenarios.md.

use std::io::Write as _;
use std::process::ExitCode;

use leaselab::{catalogue, report};

use crate::args::{Lang, ScenariosArgs};
use crate::stdout;

pub fn scenarios(a: &ScenariosArgs) -> ExitCode {
    let mut out = stdout::stdout();
    if a.markdown {
        // The catalogue as docs/scenarios.md (English only), generated so it cannot drift.
        let _ = write!(out, "{}", report::markdown::scenarios());
        return ExitCode::SUCCESS;
    }
    let lang = a.lang.map(|l| match l {
        Lang::En => "en",
        Lang::Bn => "bn",
    });
    if a.json {
        // The whole catalogue; or, with --lang, that language's prose keyed by id (the file the page
        // loads beside the wasm).
        let text = match lang.and_then(report::catalogue_texts_json) {
            Some(texts) => texts,
            None => report::catalogue_json(),
        };
        let _ = writeln!(out, "{text}");
        return ExitCode::SUCCESS;
    }
    let width = catalogue::catalogue()
        .iter()
        .map(|s| s.id.len())
        .max()
        .unwrap_or(0);
    for sc in catalogue::catalogue() {
        let title = if a.lang == Some(Lang::Bn) {
            &sc.title_bn
        } else {
            &sc.title_en
        };
        let _ = writeln!(out, "{:<width$}  {}", sc.id, title);
    }
    ExitCode::SUCCESS
}
