//! The built-in scenarios, compiled in by the build script from `scenarios/*.txt` (parsed with
//! [`Scenario::parse`] at build time, so a broken file fails the build with the parser's message).

use crate::error::Error;
use crate::scenario::Scenario;

mod generated {
    #![allow(clippy::all, unused_imports)]
    use std::borrow::Cow;

    use crate::client::{ClientSpec, Dur::*, Op::*};
    use crate::clock::Clock;
    use crate::scenario::{
        own, EtcdToken::*, Expectation, Fault, FaultAction::*, LibraryKind, Lost::*, Own,
        ParamSpec, Persist, Scenario, ServiceKind, ServiceSpec,
    };
    use crate::store::Policy;
    include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));
}

/// The id of the default scenario: the seed's.
pub const DEFAULT_ID: &str = "seed-gc-pause";

/// The whole catalogue, in order.
pub fn catalogue() -> &'static [Scenario] {
    generated::CATALOGUE
}

/// Each scenario's file as written, in catalogue order (native builds only: the wasm carries the
/// parsed data, not the text). `docs/scenarios.md` quotes the scripts from here.
#[cfg(not(target_arch = "wasm32"))]
pub fn sources() -> &'static [&'static str] {
    generated::SOURCES
}

/// Looks a scenario up by id.
pub fn find(id: &str) -> Result<&'static Scenario, Error> {
    catalogue()
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| Error::UnknownScenario {
            id: id.to_string(),
            known: crate::text::join(catalogue().iter().map(|s| &*s.id), ", "),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_catalogue_equals_parsing_the_files_now() {
        let all = catalogue();
        assert_eq!(all.len(), generated::SOURCES.len());
        for (sc, text) in all.iter().zip(generated::SOURCES) {
            assert_eq!(&Scenario::parse(text).unwrap(), sc);
        }
    }

    #[test]
    fn every_built_in_scenario_is_complete_with_unique_ids() {
        let all = catalogue();
        assert!(all.len() >= 6);
        for (i, s) in all.iter().enumerate() {
            assert!(
                !s.title_bn.is_empty() && !s.summary_bn.is_empty(),
                "{}: Bengali text missing",
                s.id
            );
            assert!(!s.source.is_empty(), "{}: source missing", s.id);
            assert!(!s.expects.is_empty(), "{}: no expectations", s.id);
            assert!(
                all[..i].iter().all(|o| o.id != s.id),
                "duplicate id {}",
                s.id
            );
        }
        assert_eq!(all[0].id, DEFAULT_ID);
    }

    #[test]
    fn unknown_ids_list_the_known_ones() {
        let err = find("nope").unwrap_err().to_string();
        assert!(
            err.contains("seed-gc-pause") && err.contains("gc-pause"),
            "{err}"
        );
    }
}
