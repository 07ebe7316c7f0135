//! What `run`, `sweep` and `search` share: the scenario (`--scenario` or `--file`), the parameter
//! settings applied to it in the order given, and the naive switch.

use clap::ArgMatches;
use leaselab::catalogue;
use leaselab::scenario::Scenario;

use crate::args::Source;
use crate::failure::{usage, Failure};

/// A parameter setting: (parameter, µs, the flag that gave it).
pub type Setting = (String, u64, &'static str);

/// The values of the flag `id` as `(index on the command line, value)`: for putting flags of several
/// kinds back in the order they were given.
pub fn indexed<T: Clone + Send + Sync + 'static>(m: &ArgMatches, id: &str) -> Vec<(usize, T)> {
    match (m.get_many::<T>(id), m.indices_of(id)) {
        (Some(values), Some(indices)) => indices.zip(values.cloned()).collect(),
        _ => Vec::new(),
    }
}

/// The `--set NAME=DUR`s, and the flags that set one parameter (`--ttl`, `--pause`: `(id, flag)`),
/// in the order given: a later setting of a parameter wins.
pub fn settings(m: &ArgMatches, named: &[(&str, &'static str)]) -> Vec<Setting> {
    let mut all: Vec<(usize, Setting)> = indexed::<(String, u64)>(m, "set")
        .into_iter()
        .map(|(i, (name, us))| (i, (name, us, "--set")))
        .collect();
    for &(id, flag) in named {
        let values = indexed::<u64>(m, id).into_iter();
        all.extend(values.map(|(i, us)| (i, (id.to_string(), us, flag))));
    }
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, s)| s).collect()
}

/// Applies parameter settings to `params`, each checked against its parameter's range.
pub fn apply_sets(sc: &Scenario, params: &mut [u64], sets: &[Setting]) -> Result<(), Failure> {
    for (name, us, flag) in sets {
        sc.set_param(params, name, *us)
            .map_err(|e| usage(format!("{flag}: {e}")))?;
    }
    Ok(())
}

/// `--naive` / `--no-naive` only mean something for the services that have the switch; without
/// either, the scenario's default.
pub fn check_naive(sc: &Scenario, naive: Option<bool>) -> Result<bool, Failure> {
    if naive.is_some() && !sc.service.kind.has_naive() {
        return Err(usage(format!(
            "--naive, --no-naive: scenario {} is on {}, which has no naive switch; {} have one",
            sc.id,
            sc.service.kind.name(),
            leaselab::scenario::naive_services()
        )));
    }
    Ok(naive.unwrap_or(sc.service.naive_default))
}

/// The text of a scenario file (`-`: standard input), or why it cannot be read, located.
fn read_scenario(path: &str) -> Result<String, Failure> {
    let text = if path == "-" {
        leaselab::check::read_text(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| usage(format!("--file: cannot read \"{path}\": {e}")))?;
        leaselab::check::read_text(file)
    };
    text.map_err(|d| Failure::File(vec![d.located(shown_path(path))]))
}

/// How errors name a file: standard input as `<stdin>`.
pub fn shown_path(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// A scenario file, parsed; every error in it, located, if it does not parse.
pub fn load_scenario(path: &str) -> Result<Scenario, Failure> {
    let text = read_scenario(path)?;
    leaselab::check::parse(&text).map_err(|errors| {
        let errors = errors.iter().map(|d| d.located(shown_path(path)));
        Failure::File(errors.collect())
    })
}

/// The scenario `--file` reads, or else the catalogue's `--scenario` (by default the seed's).
pub fn scenario_for<'c>(
    source: &Source,
    owned: &'c mut Option<Scenario>,
) -> Result<&'c Scenario, Failure> {
    if let Some(path) = &source.file {
        return Ok(owned.insert(load_scenario(path)?));
    }
    let id = source.scenario.as_deref().unwrap_or(catalogue::DEFAULT_ID);
    catalogue::find(id).map_err(|e| usage(format!("--scenario: {e}")))
}
