//! leaselab-conformance: runs the seed's steps and the core scenarios against real lock servers, and
//! compares each outcome with the simulator's prediction for the same parameters.
//!
//! ```text
//! leaselab-conformance [--workdir DIR] [--only TEXT] [--verbose]
//! leaselab-conformance --list-markdown [readme]   # the table of what each scenario runs on
//! leaselab-conformance --write-docs               # rewrites that table in docs/ and the README
//! leaselab-conformance [--workdir DIR] library-measure   # the library rows' real side alone
//! ```
//!
//! It starts a throwaway PostgreSQL cluster (the storage) and each real service's servers on loopback
//! ports under the work directory (a fresh temporary one unless `--workdir` names one), and stops and
//! removes them on the way out, also on failure. Each real service — its rows, its servers, its
//! client, its faults, its probes and its own subcommands of this binary — is one
//! `real::service::RealService` in files of its own (real/service.rs lists them, one line each):
//! this file knows none of them. Prints a table (scenario, parameters, simulator, real, agree) and exits 0 when
//! every row agrees, 1 on a disagreement, 2 when a server could not be set up or a run failed.
//! `make conformance` installs the servers first (conformance/setup.sh) and runs this.

mod aws;
mod cases;
mod coverage;
mod coverage_docs;
mod curator;
mod dynamodb_api;
mod etcd;
mod gcs;
mod http;
mod library_facts;
mod library_rows;
mod moments;
mod mysql;
mod mysql_probe;
mod no_consul;
mod no_hazelcast;
mod no_kubernetes;
mod real;
mod redis_server;
mod s3;
mod servers;
mod step1;
mod tool_server;
mod zk;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cases::{Case, Verdict};
use real::service::SERVICES;
use servers::{Postgres, Res, WorkDir};

/// A real run that fell further behind the scenario's timeline than its case allows (a slow statement, a
/// late wake-up on a busy machine) is not a fair test of the timeline: it is discarded, whatever its
/// outcome, and run again, up to this many times in all.
const ATTEMPTS: u32 = 5;

/// One row of the table.
pub struct Row {
    pub scenario: String,
    pub params: String,
    pub sim: String,
    pub real: String,
    /// `Some(true)` agree, `Some(false)` disagree, `None` the run failed.
    pub agree: Option<bool>,
    /// Which attempt counted (earlier ones fell behind the timeline); the latest over the runs.
    pub attempt: u32,
    /// How many runs of the row agreed (a row near a tie is run several times).
    pub runs: u32,
    pub detail: Vec<String>,
}

impl Row {
    /// A row not yet run: its scenario and parameters, no sides, no verdict, one attempt of one run.
    pub fn blank(scenario: impl Into<String>, params: impl Into<String>) -> Row {
        Row {
            scenario: scenario.into(),
            params: params.into(),
            sim: String::new(),
            real: String::new(),
            agree: None,
            attempt: 1,
            runs: 1,
            detail: Vec::new(),
        }
    }
}

struct Args {
    workdir: Option<PathBuf>,
    only: Option<String>,
    verbose: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        workdir: None,
        only: None,
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--workdir" => a.workdir = Some(it.next().ok_or("--workdir needs a directory")?.into()),
            "--only" => {
                a.only = Some(
                    it.next()
                        .ok_or("--only needs a text to match the scenario id")?,
                )
            }
            "--verbose" | "-v" => a.verbose = true,
            "--help" | "-h" => {
                println!("leaselab-conformance [--workdir DIR] [--only TEXT] [--verbose]\nleaselab-conformance --list-markdown [readme] | --write-docs");
                std::process::exit(0);
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; expected --workdir DIR, --only TEXT or --verbose"
                ))
            }
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    // A real service's own subcommand (a process of its own a row needs, a probe).
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if let Some((name, rest)) = argv.split_first() {
        if let Some(code) = SERVICES.iter().find_map(|s| s.subcommand(name, rest)) {
            return code;
        }
    }
    // The table of what each catalogue scenario runs on (coverage.rs), printed or written into the docs.
    match argv.first().map(String::as_str) {
        Some("--list-markdown") => {
            let readme = argv.get(1).is_some_and(|a| a == "readme");
            let block = if readme {
                coverage_docs::readme_summary()
            } else {
                coverage_docs::docs_table()
            };
            print!("{block}");
            return ExitCode::SUCCESS;
        }
        Some("--write-docs") => {
            return match coverage_docs::write_docs() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("leaselab-conformance: {e}");
                    ExitCode::from(2)
                }
            };
        }
        _ => {}
    }
    // A node's restart delayed by its own wall clock (see real/wallclock.rs).
    if std::env::args().nth(1).as_deref() == Some("wall-wait") {
        let rest: Vec<String> = std::env::args().skip(2).collect();
        return real::wall_wait_main(&rest);
    }
    // The library rows' real side alone, with small settings (see library_rows.rs).
    if let Some(code) = library_rows::measure_subcommand(&argv) {
        return code;
    }
    // One client of a scripted run, in a process of its own (see real/agent.rs).
    if std::env::args().nth(1).as_deref() == Some("client-agent") {
        return real::agent_main(&std::env::args().nth(2).unwrap_or_default());
    }
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("leaselab-conformance: {e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let rows = match suite(&a) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("\nconformance: SETUP FAILED: {e}");
            return ExitCode::from(2);
        }
    };
    // Every server has stopped and the work directory is gone by now (the guards dropped in `suite`).
    print_table(&rows);
    let failed = rows.iter().filter(|r| r.agree.is_none()).count();
    let disagree = rows.iter().filter(|r| r.agree == Some(false)).count();
    let agree = rows.len() - failed - disagree;
    println!("\n{agree} passed, {} failed", failed + disagree);
    println!(
        "conformance: {} rows in {:.1} s",
        rows.len(),
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        eprintln!("conformance: {failed} run(s) FAILED to complete (see above)");
        return ExitCode::from(2);
    }
    if disagree > 0 {
        eprintln!("conformance: {disagree} row(s) DISAGREE with the simulator (see above)");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn wanted(a: &Args, id: &str) -> bool {
    a.only.as_deref().is_none_or(|o| id.contains(o))
}

fn suite(a: &Args) -> Res<Vec<Row>> {
    // Declared first, dropped last: the servers inside it stop before it is removed.
    let work = WorkDir::new(a.workdir.clone())?;
    eprintln!("conformance: work directory {}", work.path.display());
    let pg = Postgres::start(&work.path)?;
    eprintln!(
        "conformance: PostgreSQL {} on 127.0.0.1:{}",
        pg.version, pg.port
    );
    {
        let mut c = pg.connect("postgres", "setup")?;
        c.batch_execute(&format!("CREATE DATABASE {}", real::DB))
            .map_err(|e| format!("CREATE DATABASE: {e}"))?;
    }
    let suite_servers = suite_servers(a, &work.path)?;
    let base = Base {
        pg: &pg,
        suite: &suite_servers,
    };

    // The client libraries' own rows: one process of theirs runs them all beside the other rows.
    let libraries = library_rows::start(&work.path, |id| wanted(a, id));
    let mut rows = Vec::new();
    if wanted(a, "seed-step-1") {
        rows.push(step1_row(&pg, a.verbose));
    }
    for probe in SERVICES.iter().flat_map(|s| s.probes()) {
        if wanted(a, probe.id) {
            rows.push((probe.run)(&work.path, a.verbose));
        }
    }
    for (i, case) in cases::cases().iter().enumerate() {
        if !wanted(a, case.id) {
            continue;
        }
        let t = Instant::now();
        let row = case_row(case, i, &base, &work.path, a.verbose);
        eprintln!(
            "conformance: {} {} — {} ({:.1} s)",
            case.id,
            row.params,
            match row.agree {
                Some(true) => "agree",
                Some(false) => "DISAGREE",
                None => "FAILED",
            },
            t.elapsed().as_secs_f64()
        );
        rows.push(row);
    }
    // The client libraries' own rows, under way since the start (library_rows.rs).
    rows.extend(libraries.finish(a.verbose));
    drop(suite_servers);
    drop(pg);
    drop(work);
    Ok(rows)
}

/// What every attempt shares: PostgreSQL (the storage, and the session lock's server) and each real
/// service's server for the whole suite, by its place in [`SERVICES`].
struct Base<'a> {
    pg: &'a Postgres,
    suite: &'a [Option<Box<dyn std::any::Any>>],
}

/// Each real service's server for the whole suite, started only when a wanted row is one of its
/// scenarios'.
fn suite_servers(a: &Args, work: &std::path::Path) -> Res<Vec<Option<Box<dyn std::any::Any>>>> {
    let wanted_kinds: Vec<_> = cases::cases()
        .into_iter()
        .filter(|c| wanted(a, c.id))
        .filter_map(|c| cases::case_scenario(&c, c.scale).ok())
        .map(|sc| sc.service.kind)
        .collect();
    let mut started = Vec::new();
    for s in SERVICES {
        let needed = s.kinds().iter().any(|k| wanted_kinds.contains(k));
        started.push(if needed {
            s.start_for_suite(work)?
        } else {
            None
        });
    }
    Ok(started)
}

fn step1_row(pg: &Postgres, verbose: bool) -> Row {
    let mut row = Row::blank(
        "seed step 1 (verbatim)",
        "psql's SQL; pg_advisory_lock, pg_try_advisory_lock, pg_terminate_backend",
    );
    let sim = match cases::step1_sim() {
        Ok(v) => v,
        Err(e) => {
            row.detail.push(format!("simulator: {e}"));
            return row;
        }
    };
    row.sim = sim.text();
    match step1::run(pg) {
        Ok((real, log)) => {
            row.real = real.text();
            row.agree = Some(real == sim);
            if real != sim || verbose {
                row.detail = log;
                row.detail.extend(sim.diff(&real));
            }
        }
        Err(e) => row.detail.push(format!("real run failed: {e}")),
    }
    eprintln!(
        "conformance: seed step 1 — {}",
        if row.agree == Some(true) {
            "agree"
        } else {
            "DISAGREE/FAILED"
        }
    );
    row
}

fn describe(case: &Case) -> String {
    let mut p = vec![case.policy.name().to_string()];
    for (k, v) in case.set {
        p.push(format!("{k}={v}ms"));
    }
    if case.scale != 1 {
        p.push(format!("timeline ×{}", case.scale));
    }
    if let Some((from, to)) = case.edit {
        p.push(format!("{:?} → {to:?}", from.trim()));
    }
    format!("{} — {}", p.join(" "), case.how)
}

fn case_row(case: &Case, index: usize, base: &Base, work: &std::path::Path, verbose: bool) -> Row {
    let mut row = Row::blank(case.id, describe(case));
    if let Some((id, set)) = case.predict_with {
        let set: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}ms")).collect();
        row.params.push_str(&format!(
            " (simulator: {id} {} {}, the same timeline)",
            case.policy.name(),
            set.join(" ")
        ));
    }
    // A row whose timing is near a tie runs `repeat` times and agrees only if every run agrees.
    for run in 1..=case.repeat {
        let Some(agreed) = case_run(
            case,
            &format!("{index}-{run}"),
            base,
            work,
            verbose,
            &mut row,
        ) else {
            return row;
        };
        if !agreed {
            row.detail
                .insert(0, format!("run {run} of {} disagrees:", case.repeat));
            return row;
        }
        row.runs = run;
    }
    row
}

/// One run of a case into `row` (its verdicts, its attempt, its detail when `verbose` or it
/// disagrees): whether it agreed, `None` if it failed.
fn case_run(
    case: &Case,
    tag: &str,
    base: &Base,
    work: &std::path::Path,
    verbose: bool,
    row: &mut Row,
) -> Option<bool> {
    match play(case, tag, base, work) {
        Ok(p) => {
            row.sim = p.sim.text();
            row.real = p.real.text();
            row.agree = Some(p.sim == p.real);
            row.attempt = row.attempt.max(p.attempt);
            row.detail.extend(p.discarded);
            if p.sim != p.real || verbose {
                row.detail.extend(p.sim.diff(&p.real));
                row.detail.push(format!(
                    "real run (at worst {} ms behind the timeline: {}):",
                    p.lateness.as_millis(),
                    p.late_who
                ));
                row.detail.extend(p.log);
                row.detail.push("simulator:".into());
                row.detail.extend(p.sim_log);
            }
            row.agree
        }
        Err(e) => {
            row.agree = None;
            row.detail.push(e);
            None
        }
    }
}

struct Played {
    sim: Verdict,
    real: Verdict,
    log: Vec<String>,
    sim_log: Vec<String>,
    attempt: u32,
    discarded: Vec<String>,
    lateness: Duration,
    late_who: String,
}

fn play(case: &Case, run: &str, base: &Base, work: &std::path::Path) -> Res<Played> {
    let sc = &cases::case_scenario(case, case.scale)?;
    let setup = real::Setup {
        policy: case.policy,
        params: cases::params(sc, case.set, case.scale)?,
        fence_counter: case.fence_counter,
        scale: case.scale,
        store: case.store,
    };
    let svc = real::supported(sc, &setup)?;
    // The row is judged in the terms of the scenario its prediction runs.
    let other;
    let (judge_sc, set) = match case.predict_with {
        Some((id, set)) => {
            other = cases::scenario(id, case.scale)?;
            (&other, set)
        }
        None => (sc, case.set),
    };
    let predicted = cases::predict(judge_sc, case.policy, set, case.scale)?;
    let mut sim = cases::sim_verdict(judge_sc, &predicted);
    if case.scale != 1 && case.predict_with.is_none() {
        // The slower timeline must tell the catalogue's own story, or the row would check something else.
        let unscaled = cases::case_scenario(case, 1)?;
        let base = cases::predict(&unscaled, case.policy, case.set, 1)?;
        let base = cases::sim_verdict(judge_sc, &base);
        if base != sim {
            return Err(format!(
                "the timeline ×{} predicts {} but the catalogue's predicts {}",
                case.scale,
                sim.text(),
                base.text()
            ));
        }
    }
    // The moments the row compares too (none unless the case asks), after the story's check.
    sim.0
        .extend(moments::predicted(judge_sc, &predicted, case.moments_ms));
    let sim_log = leaselab::report::transcript(&predicted);
    let tolerance = Duration::from_millis(case.tolerance_ms);

    let mut discarded = Vec::new();
    for attempt in 1..=ATTEMPTS {
        let tag = format!("{run}-{attempt}");
        let suite = suite_server(sc, base);
        let at = (work, tag.as_str(), attempt == 1);
        let mut servers = real::Servers::start(svc, sc, &setup, (base.pg, suite), at)?;
        let run = real::run(sc, &setup, &mut servers)?;
        drop(servers); // stops this attempt's own servers
        if run.lateness > tolerance {
            let why = format!(
                "attempt {attempt} discarded: {} was {} ms behind the scenario's timeline (tolerance {} ms)",
                run.late_who,
                run.lateness.as_millis(),
                tolerance.as_millis()
            );
            eprintln!("conformance: {} {}: {why}", case.id, case.policy.name());
            discarded.push(why);
            continue;
        }
        let mut real = cases::real_verdict(sc, &run);
        real.0.extend(moments::measured(sc, &sim, &run));
        return Ok(Played {
            sim,
            real,
            log: run.transcript,
            sim_log,
            attempt,
            discarded,
            lateness: run.lateness,
            late_who: run.late_who,
        });
    }
    Err(format!(
        "inconclusive: in all {ATTEMPTS} attempts the real run fell behind the scenario's timeline by more than {} ms          (is the machine very busy?): {}",
        tolerance.as_millis(),
        discarded.join("; ")
    ))
}

/// The server for the whole suite of `sc`'s service, if it has one running.
fn suite_server<'a>(
    sc: &leaselab::scenario::Scenario,
    base: &Base<'a>,
) -> Option<&'a dyn std::any::Any> {
    let kind = sc.service.kind;
    let place = SERVICES.iter().position(|s| s.kinds().contains(&kind))?;
    base.suite.get(place)?.as_deref()
}

fn print_table(rows: &[Row]) {
    for r in rows {
        if !r.detail.is_empty() {
            println!(
                "\n--- {} [{}] — {}",
                r.scenario,
                r.params,
                if r.agree.is_none() {
                    "FAILED"
                } else if r.agree == Some(true) {
                    "detail"
                } else {
                    "DISAGREES"
                }
            );
            for d in &r.detail {
                println!("    {d}");
            }
        }
    }
    println!();
    println!("| scenario | parameters | simulator | real | agree |");
    println!("|---|---|---|---|---|");
    for r in rows {
        let agree = match r.agree {
            Some(true) if r.runs > 1 && r.attempt > 1 => {
                format!("yes ({} of {} runs; attempt {})", r.runs, r.runs, r.attempt)
            }
            Some(true) if r.runs > 1 => format!("yes ({} of {} runs)", r.runs, r.runs),
            Some(true) if r.attempt > 1 => format!("yes (attempt {})", r.attempt),
            Some(true) => "yes".into(),
            Some(false) => "**NO**".into(),
            None => "**run failed**".into(),
        };
        println!(
            "| `{}` | {} | {} | {} | {agree} |",
            r.scenario, r.params, r.sim, r.real
        );
    }
}
