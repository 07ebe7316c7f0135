//! `leaselab matrix`, the field's safety table: every service has a base scenario; every unsafe
//! cell's `run_args` make `leaselab run` lose the same update; a sample of safe cells has no failure
//! on a coarse grid run point by point; the JSON has every field, cell by cell; bad input exits 2.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

use leaselab::inject::Injected;
use leaselab::matrix::{cell, table, Fault, Row, Verdict};
use leaselab::scenario::ServiceKind;
use leaselab::search::search_every_point_injected;
use leaselab::{Config, Policy};
use serde_json::Value;

fn leaselab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_service_has_a_base_scenario_whose_first_parameter_is_its_time_constant() {
    for kind in ServiceKind::ALL {
        let row = Row::of(kind).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        let sc = leaselab::catalogue::find(row.scenario).unwrap();
        assert_eq!(sc.service.kind, kind, "{}", row.scenario);
        assert_eq!(
            sc.clients.len(),
            2,
            "{}: two clients, A and B",
            row.scenario
        );
        assert!(row.time_us > 0, "{}: a time constant", row.scenario);
    }
}

#[test]
fn every_unsafe_cell_reproduces_through_leaselab_run() {
    let t = table(&ServiceKind::ALL, &Fault::ALL, &Policy::ALL).unwrap();
    let unsafe_cells: Vec<_> = t
        .cells
        .iter()
        .filter(|c| c.verdict == Verdict::Unsafe)
        .collect();
    assert!(
        unsafe_cells.len() >= ServiceKind::ALL.len(),
        "{} unsafe cells",
        unsafe_cells.len()
    );
    for c in unsafe_cells {
        let mut args = vec!["run".to_string()];
        args.extend(c.run_args());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = leaselab(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}");
        assert!(text.contains("LOST UPDATE"), "{args:?}: {text}");
    }
}

/// The same cell's grid, coarser (steps of a tenth of the time constant), every point run on its
/// own: a safe cell has no failure there either.
#[test]
fn a_sample_of_safe_cells_has_no_failure_on_a_coarse_grid_run_point_by_point() {
    let mut checked = 0;
    let kinds = [
        ServiceKind::Lease,
        ServiceKind::Etcd,
        ServiceKind::Zookeeper,
    ];
    let faults = [
        (Fault::Pause, Policy::Token),
        (Fault::LockDelay, Policy::None),
        (Fault::ClientClock, Policy::None),
    ];
    let mut cells: Vec<_> = kinds
        .iter()
        .flat_map(|&k| faults.map(|(f, p)| (k, f, p)))
        .collect();
    // The services that lose state: Redlock's crashed node, and a redis failover fenced by version.
    cells.push((ServiceKind::Redlock, Fault::Failover, Policy::None));
    cells.push((ServiceKind::Redis, Fault::Failover, Policy::Version));
    for (kind, fault, policy) in cells {
        let row = Row::of(kind).unwrap();
        let sc = leaselab::catalogue::find(row.scenario).unwrap();
        let c = cell(&row, sc, fault, policy).unwrap();
        if c.verdict != Verdict::Safe {
            continue;
        }
        for texts in fault.injections(sc, row.time_us * 10) {
            // Ten times the time constant gives steps of T/10 and reaches of 10 T: cut to the cell's.
            let texts: Vec<String> = texts
                .iter()
                .map(|t| coarse(t, row.time_us, fault))
                .collect();
            let mut inj = Injected::none(sc);
            for t in &texts {
                inj.add(t).unwrap();
            }
            let found =
                search_every_point_injected(&inj, &Config::new(&inj.scenario, policy), &inj.dims)
                    .unwrap();
            assert!(
                found.counterexample.is_none(),
                "{} {texts:?} {}: {found:?}",
                row.scenario,
                policy.name()
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} safe cells checked");
}

/// The failover column: a single redis fails over and a Redlock node crashes, both searched and
/// checked by the conformance rows that lose state; every other service is n/a with a reason of its
/// own, not an injection's refusal.
#[test]
fn the_failover_column_searches_what_loses_state_and_says_why_the_rest_does_not() {
    let t = table(&ServiceKind::ALL, &[Fault::Failover], &[Policy::None]).unwrap();
    let mut reasons = Vec::new();
    for c in &t.cells {
        let name = c.service.name();
        if matches!(c.service, ServiceKind::Redis | ServiceKind::Redlock) {
            assert_ne!(c.verdict, Verdict::NotApplicable, "{name}: {}", c.reason);
            assert!(c.combinations > 100 * 100, "{name}: {}", c.combinations);
        } else {
            assert_eq!(c.verdict, Verdict::NotApplicable, "{name}");
            assert!(!c.reason.contains("in the model:"), "{name}: {}", c.reason);
            assert!(!reasons.contains(&c.reason), "{name}: {}", c.reason);
            reasons.push(c.reason.clone());
        }
    }
    let of = |kind| t.cells.iter().find(|c| c.service == kind).unwrap();
    // The replica, lagging, never saw A's grant: B gets the lock while A holds it.
    let redis = of(ServiceKind::Redis);
    assert_eq!(redis.verdict, Verdict::Unsafe);
    assert!(redis
        .params
        .iter()
        .any(|(p, us)| p == "failover_server_lag" && *us > 0));
    assert!(redis.real.contains(&"replica-failover none".to_string()));
    // One node of five down, even restarted empty at once, leaves A holding a majority of the rest.
    let redlock = of(ServiceKind::Redlock);
    assert_eq!(redlock.verdict, Verdict::Safe);
    assert!(redlock
        .real
        .contains(&"redlock-crash-restart none".to_string()));
}

/// An injection's ranges with steps of T/10 within the cell's bounds.
fn coarse(text: &str, time_us: u64, fault: Fault) -> String {
    let ms = |us: u64| format!("{}ms", leaselab::time::Millis(us));
    let mut fields = text.split(',');
    let head = fields.next().unwrap().to_string();
    fields.fold(head, |out, field| {
        let key = field.split_once('=').unwrap().0;
        let to = if key == "at" {
            time_us
        } else {
            fault.magnitude_max_us(time_us)
        };
        format!("{out},{key}=0..{}:{}", ms(to), ms(time_us / 10))
    })
}

/// The lab's URL for `leaselab run` arguments: each flag a query parameter of the same name.
fn lab_link(args: &[&str]) -> String {
    let pairs: Vec<String> = args
        .chunks(2)
        .map(|kv| format!("{}={}", kv[0].trim_start_matches('-'), kv[1]))
        .collect();
    format!("index.html?{}", pairs.join("&"))
}

/// One cell of the JSON `j`: its fields, and what each verdict gives or leaves empty.
fn check_cell(j: &Value, c: &Value) {
    let verdict = c["verdict"].as_str().unwrap();
    assert!(["unsafe", "safe", "n/a"].contains(&verdict), "{c}");
    for key in ["service", "fault", "fencing", "scenario", "reason"] {
        assert!(c[key].is_string(), "{key}: {c}");
    }
    for row in c["real"].as_array().unwrap() {
        let (id, policy) = row.as_str().unwrap().split_once(' ').unwrap();
        assert_eq!(policy, c["fencing"], "{c}");
        let sc = leaselab::catalogue::find(id).unwrap();
        assert_eq!(sc.service.kind.name(), c["service"], "{c}");
    }
    assert_eq!(c["at_ms"].as_array().unwrap().len(), 2, "{c}");
    assert_eq!(c["magnitude_ms"].as_array().unwrap().len(), 2, "{c}");
    let args: Vec<&str> = c["run_args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    match verdict {
        "unsafe" => {
            assert!(
                c["cost"].is_u64() && !c["params"].as_object().unwrap().is_empty(),
                "{c}"
            );
            assert_eq!(
                &args[..2],
                ["--scenario", c["scenario"].as_str().unwrap()],
                "{c}"
            );
            assert!(args.contains(&"--inject"), "{c}");
            assert_eq!(c["link"], lab_link(&args), "{c}");
        }
        "safe" => {
            assert!(
                c["cost"].is_null() && args.is_empty() && c["reason"] == "" && c["link"] == "",
                "{c}"
            );
            assert_eq!(
                c["combinations"].as_f64().unwrap(),
                grid_points(j, c),
                "{c}"
            );
        }
        _ => {
            assert!(
                !c["reason"].as_str().unwrap().is_empty() && args.is_empty() && c["link"] == "",
                "{c}"
            );
            assert_eq!(c["combinations"], 0, "{c}");
        }
    }
}

#[test]
fn the_json_gives_every_field_of_every_cell() {
    let out = leaselab(&[
        "matrix",
        "--json",
        "--service",
        "lease",
        "--service",
        "session",
        "--fencing",
        "none",
        "--fencing",
        "token",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bounds = j["bounds"].as_object().unwrap();
    assert_eq!(bounds.keys().collect::<Vec<_>>(), ["lease", "session"]);
    assert_eq!(j["bounds"]["lease"]["scenario"], "table-lease");
    assert_eq!(j["bounds"]["lease"]["time"]["name"], "ttl");
    let t = j["bounds"]["lease"]["time"]["ms"].as_f64().unwrap();
    assert_eq!(j["bounds"]["lease"]["step_ms"].as_f64().unwrap(), t / 100.0);
    let cells = j["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2 * Fault::ALL.len() * 2);
    for c in cells {
        check_cell(&j, c);
    }
    // The session lock gives no token: its token cells are n/a; the lease's pause is unsafe unfenced.
    let find = |s: &str, f: &str, p: &str| {
        cells
            .iter()
            .find(|c| c["service"] == s && c["fault"] == f && c["fencing"] == p)
            .unwrap()
    };
    assert_eq!(find("session", "pause", "token")["verdict"], "n/a");
    assert_eq!(find("lease", "pause", "none")["verdict"], "unsafe");
    assert_eq!(find("lease", "pause", "token")["verdict"], "safe");
    // The seed's own run against real redis checks the lease's pause cell; no row pauses a session
    // under token fencing with a token, nor steps the lease server's clock under token.
    let real = |s: &str, f: &str, p: &str| find(s, f, p)["real"].as_array().unwrap().clone();
    assert!(real("lease", "pause", "none").contains(&Value::from("seed-gc-pause none")));
    assert!(real("lease", "pause", "token").contains(&Value::from("seed-gc-pause token")));
    assert!(real("lease", "server-clock", "none").contains(&Value::from("redis-clock-jump none")));
    assert!(real("lease", "lock-delay", "none").is_empty());
}

/// The points a cell's grid has: its moments (where the fault has one) times its magnitudes, for
/// each of its variants (a client's clock steps back, then ahead).
fn grid_points(j: &Value, c: &Value) -> f64 {
    let step = j["bounds"][c["service"].as_str().unwrap()]["step_ms"]
        .as_f64()
        .unwrap();
    let count = |range: &Value| (range[1].as_f64().unwrap() / step).floor() + 1.0;
    let (at, magnitude) = (count(&c["at_ms"]), count(&c["magnitude_ms"]));
    match c["fault"].as_str().unwrap() {
        "store-delay" | "lock-delay" => magnitude,
        "client-clock" => 2.0 * at * magnitude,
        _ => at * magnitude,
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for (args, mention) in [
        (&["matrix", "--service", "etc"][..], "etcd"),
        (&["matrix", "--fault", "pausee"][..], "pause"),
        (&["matrix", "--fencing", "tokn"][..], "token"),
        (&["matrix", "--bogus"][..], "--bogus"),
    ] {
        let out = leaselab(args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(mention) && !err.contains("panicked"), "{err}");
    }
}

/// docs/matrix.md shows `leaselab matrix --fencing none` as it prints.
#[test]
fn the_docs_table_is_what_the_cli_prints() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/matrix.md")).unwrap();
    let start = "$ leaselab matrix --fencing none\n";
    let from = page
        .find(start)
        .expect("docs/matrix.md shows `leaselab matrix --fencing none`")
        + start.len();
    let shown = &page[from..from + page[from..].find("```").unwrap()];
    let out = leaselab(&["matrix", "--fencing", "none"]);
    assert_eq!(
        shown,
        String::from_utf8(out.stdout).unwrap(),
        "docs/matrix.md's table is out of date: paste `leaselab matrix --fencing none`"
    );
}
