//! docs/scenario-format.md is true: every example marked `scenario` parses and each of its expect lines
//! holds, and the page names every operation, fault, service, setting, flag and key the parser takes.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::check::{check_expectations, parse};

#[path = "common/doc_scenarios.rs"]
mod doc_scenarios;

use doc_scenarios::{examples, page};

#[test]
fn every_example_parses_and_its_expectations_hold() {
    let page = page();
    let examples = examples(&page);
    assert!(examples.len() >= 8, "found {} examples", examples.len());
    let mut ids = Vec::new();
    for (start, text) in &examples {
        let sc = parse(text).unwrap_or_else(|errors| {
            let at: Vec<String> = errors
                .iter()
                .map(|d| d.located(&format!("docs/scenario-format.md:{}+", start - 1)))
                .collect();
            panic!("an example does not parse:\n{}", at.join("\n"))
        });
        let verdicts = check_expectations(&sc);
        assert!(!verdicts.is_empty(), "example {} checks nothing", sc.id);
        for v in &verdicts {
            if let Some(d) = v.diagnostic() {
                panic!(
                    "docs/scenario-format.md:{}: {}",
                    start + d.line - 1,
                    d.message
                );
            }
        }
        assert!(!ids.contains(&sc.id), "two examples are {}", sc.id);
        ids.push(sc.id);
    }
}

/// The words of the grammar: keys, operations, settings, services, faults, policies, flags, keys.
const GRAMMAR: &[&str] = &[
    // keys
    "id:",
    "title:",
    "summary:",
    "title.bn:",
    "summary.bn:",
    "group:",
    "source:",
    "derived:",
    "balance:",
    "param",
    "service:",
    "client",
    "node",
    "at",
    "expect",
    // operations
    "start D",
    "acquire",
    "every D",
    "tries N",
    "read",
    "read via session",
    "work D",
    "pause D",
    "check D",
    "write DEBIT",
    "delay D",
    "release",
    "renew",
    "idle",
    // client and clock settings
    "clock=Nppm",
    "step=±BY@AT",
    "monotonic",
    "reach=",
    "latency=",
    "server-step=",
    "server-monotonic",
    // services and their settings
    "lease",
    "session",
    "redis",
    "redlock",
    "etcd",
    "zookeeper",
    "dynamodb",
    "hazelcast",
    "kubernetes",
    "consul",
    "lock-latency=D",
    "store-latency=D",
    "ttl=D",
    "lock-delay=D",
    "tokens=",
    "first-token=N",
    "idle=D",
    "replica-lag=D",
    "nodes=",
    "timeout=D",
    "jitter=D",
    "persist=",
    "keepalive=D",
    "version=",
    "session=D",
    "tick=D",
    "suspended=",
    "lease=D",
    "heartbeat=D",
    "wait=D",
    "session-ttl=D",
    "check=D",
    "renew-deadline=D",
    "retry=D",
    "request-timeout=D",
    "client-go=",
    // faults
    "pause X D",
    "terminate X",
    "crash nK",
    "restart nK",
    "failover",
    "cut X",
    "heal X",
    // expectations
    "none",
    "token",
    "first-touch",
    "version",
    "etag",
    "owner",
    "equal-token",
    "+retry",
    "+naive",
    "-naive",
    "NAME=D",
    "final=N",
    "expected=N",
    "lost=",
    "rejected=",
    "stale=",
    "grants=",
    "locked-out=",
];

/// Every word of the grammar appears on the page as code (in backticks, perhaps with more after it).
#[test]
fn the_page_names_every_word_of_the_grammar() {
    let page = page();
    for w in GRAMMAR {
        assert!(
            page.contains(&format!("`{w}")),
            "docs/scenario-format.md does not name `{w}`"
        );
    }
}
