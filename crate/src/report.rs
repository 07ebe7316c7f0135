//! Rendering an outcome: the transcript in the seed's format, and JSON (hand-written, so the wasm build
//! carries no serde). Both are pure functions of the outcome, so native and wasm print the same bytes.

use std::fmt::Write as _;

use crate::catalogue;
use crate::outcome::Outcome;
use crate::scenario::{Lost, Scenario, ServiceKind};
use crate::time::{Millis, PySeconds};
use crate::trace::Kind;

fn scenario_of(o: &Outcome) -> &'static Scenario {
    match catalogue::find(o.scenario) {
        Ok(sc) => sc,
        Err(_) => unreachable!("outcomes are made from catalogue scenarios"),
    }
}

fn service_name(sc: &Scenario) -> &'static str {
    match sc.service.kind {
        ServiceKind::Lease => "lease",
        ServiceKind::Session => "session",
        ServiceKind::Redis => "redis",
        ServiceKind::Redlock => "redlock",
    }
}

/// ` tok=N` where the service hands out tokens; nothing where it does not (redis, redlock, sessions).
fn tok(sc: &Scenario, token: u64) -> String {
    if sc.service.tokens {
        format!(" tok={token}")
    } else {
        String::new()
    }
}

/// The seed-style trail of accepted writes: `[('B', 450), ('A', 440)]`.
pub fn trail(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let items: Vec<String> = o
        .run
        .writes
        .iter()
        .filter(|w| w.accepted)
        .map(|w| format!("('{}', {})", sc.client_name(w.client), w.value))
        .collect();
    format!("[{}]", items.join(", "))
}

/// The verdict line: `PASS [fenced] — [('B', 450)]` or `LOST UPDATE [unfenced] — …`.
pub fn verdict_line(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let label = o.policy.seed_label();
    if o.lost_update {
        let victim = match o.lost {
            Lost::Client(c) => {
                let w = o.run.writes.iter().find(|w| w.accepted && w.client == c);
                let value = w.map_or(String::new(), |w| format!(" ({})", w.value));
                format!(
                    "{}'s write{value} was acknowledged, then overwritten",
                    sc.client_name(c)
                )
            }
            Lost::Nobody => "an acknowledged write is missing".to_string(),
        };
        format!("LOST UPDATE [{label}] — {victim}: {}", trail(o))
    } else {
        format!("PASS [{label}] — {}", trail(o))
    }
}

/// The transcript: the seed's lines for the seed's events, a few more for the catalogue's extra steps,
/// then `final = …  (expected: …)` and the verdict line.
pub fn transcript(o: &Outcome) -> Vec<String> {
    let sc = scenario_of(o);
    let mut lines = Vec::new();
    let mut woke = [false; crate::scenario::CLIENTS_MAX];
    let mut held = [false; crate::scenario::CLIENTS_MAX];
    // A client that gives up right after a refusal needs no extra line: the REJECTED says it.
    let mut refused = [false; crate::scenario::CLIENTS_MAX];
    let session = sc.service.kind == ServiceKind::Session;
    let redlock = sc.service.kind == ServiceKind::Redlock;
    for e in &o.run.trace {
        let who = sc.client_name(e.client);
        let i = usize::from(e.client);
        match e.kind {
            // The seed's step 1, as the two psql terminals would show it.
            Kind::Granted if session => {
                lines.push(format!("{who}: pg_try_advisory_lock(424242) → t"))
            }
            Kind::Denied if session && e.reason.is_some() => lines.push(format!(
                "{who}: pg_try_advisory_lock(424242) → ERROR: the session is gone"
            )),
            Kind::Denied if session => {
                lines.push(format!("{who}: pg_try_advisory_lock(424242) → f"))
            }
            Kind::Released if session && e.aux == 1 => {
                lines.push(format!("{who}: pg_advisory_unlock(424242) → t"))
            }
            Kind::SessionEnded if e.aux == 2 && e.value == 0 => {} // a plain disconnect at the end
            Kind::SessionEnded => {
                let freed = if e.value == 1 {
                    ", the lock is free"
                } else {
                    ""
                };
                lines.push(match e.aux {
                    0 => format!(
                        "admin: pg_terminate_backend({who}) → t; {who}'s session ends{freed}"
                    ),
                    1 => format!("server: {who} sent no keepalives; its session ends{freed}"),
                    _ => format!("{who}: disconnects; its session ends{freed}"),
                });
            }
            Kind::PauseStart if e.token == 0 && e.value == i64::MIN && sc.service.tokens => {
                // Frozen before it holds anything (its grant may be on the way).
                lines.push(format!("{who}: pause {}s...", PySeconds(e.aux)));
            }
            Kind::PauseStart => {
                let mut what: Vec<String> = Vec::new();
                if sc.service.tokens {
                    what.push(format!("tok={}", e.token));
                }
                if e.value != i64::MIN {
                    what.push(format!("read={}", e.value));
                }
                what.push(format!("pause {}s...", PySeconds(e.aux)));
                lines.push(format!("{who}: {}", what.join(", ")));
            }
            Kind::PauseEnd => woke[i] = true,
            Kind::WriteSent if e.aux > 0 => {
                held[i] = true;
                lines.push(format!(
                    "{who}: write {}{} sent; the network holds it {}s...",
                    e.value,
                    tok(sc, e.token),
                    PySeconds(e.aux)
                ));
            }
            Kind::WriteAccepted | Kind::WriteRejected => {
                let verdict = match (e.kind, e.reason) {
                    (Kind::WriteAccepted, _) => "ACCEPTED",
                    (_, Some(crate::store::Refusal::SessionGone)) => "FAILED (the session is gone)",
                    _ => "REJECTED",
                };
                let t = tok(sc, e.token);
                if woke[i] {
                    lines.push(format!("{who}: woke, write {}{t} → {verdict}", e.value));
                } else if held[i] {
                    lines.push(format!("{who}: write {}{t} arrives → {verdict}", e.value));
                } else if sc.service.tokens {
                    lines.push(format!("{who}:{t} → {verdict}")); // the seed's "B: tok=2 → ACCEPTED"
                } else {
                    lines.push(format!("{who}: write {} → {verdict}", e.value));
                }
                woke[i] = false;
                held[i] = false;
                refused[i] = e.kind == Kind::WriteRejected;
            }
            Kind::ReadRejected => {
                let verdict = if e.reason == Some(crate::store::Refusal::SessionGone) {
                    "FAILED (the session is gone)"
                } else {
                    "REJECTED"
                };
                lines.push(format!("{who}: read{} → {verdict}", tok(sc, e.token)));
                refused[i] = true;
            }
            Kind::CheckOk | Kind::CheckFailed => {
                let left = if e.value < 0 {
                    format!("-{}", Millis(e.value.unsigned_abs()))
                } else {
                    Millis(e.value as u64).to_string()
                };
                let (cmp, then) = if e.kind == Kind::CheckOk {
                    ("≥", "go on")
                } else {
                    ("<", "give up this attempt")
                };
                lines.push(format!(
                    "{who}: check: {left} ms left {cmp} {} ms needed → {then}",
                    Millis(e.aux)
                ));
            }
            Kind::RenewDenied => lines.push(format!("{who}: renewal refused: the lease is gone")),
            Kind::ServerClockStep | Kind::ClockStep => {
                let whose = match e.kind {
                    Kind::ClockStep => who.to_string(),
                    _ if redlock => format!("n{}", e.node + 1),
                    _ => "server".to_string(),
                };
                let sign = if e.value < 0 { "-" } else { "+" };
                lines.push(format!(
                    "{whose}: wall clock steps {sign}{} ms",
                    Millis(e.value.unsigned_abs())
                ));
            }
            Kind::Retry => {
                woke[i] = false;
                held[i] = false;
                lines.push(format!(
                    "{who}: retry {}: acquire, read and work again",
                    e.aux
                ));
            }
            Kind::GaveUp if !refused[i] => lines.push(format!("{who}: gives up")),
            Kind::RedlockAcquired | Kind::RedlockFailed => {
                if e.kind == Kind::RedlockFailed {
                    woke[i] = false; // what it writes next follows a fresh acquisition, not the pause
                }
                let then = match (e.kind, e.value > 0) {
                    (Kind::RedlockAcquired, true) => "holds the lock",
                    (Kind::RedlockAcquired, false) => "trusts the majority anyway (naive client)",
                    (_, _) if e.aux < u64::from(sc.service.quorum()) => {
                        "no majority: unlock all, retry later"
                    }
                    _ => "no validity left: unlock all, retry later",
                };
                let sign = if e.value < 0 { "-" } else { "" };
                lines.push(format!(
                    "{who}: {}/{} nodes OK, validity {sign}{} ms → {then}",
                    e.aux,
                    sc.service.nodes,
                    Millis(e.value.unsigned_abs())
                ));
            }
            Kind::NodeCrashed => {
                let keys = if e.value == 1 { "key" } else { "keys" };
                let how = match sc.service.persist {
                    crate::scenario::Persist::None => "no persistence",
                    crate::scenario::Persist::EverySec => "appendfsync everysec",
                    crate::scenario::Persist::Always => "appendfsync always",
                };
                lines.push(format!(
                    "n{}: crashes ({how}): {} live {keys} lost",
                    e.node + 1,
                    e.value
                ));
            }
            Kind::NodeRestarted => lines.push(format!("n{}: restarts", e.node + 1)),
            Kind::Failover => lines.push(format!(
                "redis: the master dies; the replica takes over without {} grant(s) and their INCR",
                e.value
            )),
            Kind::Partition => {
                let nodes: Vec<String> = (0..8)
                    .filter(|k| e.aux & (1 << k) != 0)
                    .map(|k| format!("n{}", k + 1))
                    .collect();
                let how = if e.value == 1 {
                    "cut off from"
                } else {
                    "reconnected to"
                };
                lines.push(format!("network: {who} {how} {}", nodes.join(",")));
            }
            _ => {}
        }
    }
    // Runs of the same line (a contender polling a held lock) collapse into one, with a count.
    let mut runs: Vec<(String, u32)> = Vec::with_capacity(lines.len());
    for line in lines {
        match runs.last_mut() {
            Some((last, n)) if *last == line => *n += 1,
            _ => runs.push((line, 1)),
        }
    }
    let mut lines: Vec<String> = runs
        .into_iter()
        .map(|(line, n)| {
            if n > 1 {
                format!("{line} (×{n})")
            } else {
                line
            }
        })
        .collect();
    lines.push(format!(
        "final = {}  (expected: {})",
        o.run.final_balance, o.expected
    ));
    lines.push(verdict_line(o));
    lines
}

/// The exit status the CLI uses: 1 for a lost update, 0 otherwise.
pub fn exit_code(o: &Outcome) -> i32 {
    i32::from(o.lost_update)
}

/// A tiny JSON writer: enough for objects of numbers, strings, booleans and arrays.
pub struct Json {
    out: String,
    first: Vec<bool>,
}

impl Default for Json {
    fn default() -> Self {
        Json::new()
    }
}

impl Json {
    pub fn new() -> Json {
        Json {
            out: String::with_capacity(4096),
            first: Vec::new(),
        }
    }

    fn sep(&mut self) {
        if let Some(first) = self.first.last_mut() {
            if !*first {
                self.out.push(',');
            }
            *first = false;
        }
    }

    pub fn key(&mut self, k: &str) -> &mut Json {
        self.sep();
        write_str(&mut self.out, k);
        self.out.push(':');
        // The value that follows must not add another separator.
        if let Some(first) = self.first.last_mut() {
            *first = true;
        }
        self
    }

    pub fn begin_obj(&mut self) -> &mut Json {
        self.sep();
        self.out.push('{');
        self.first.push(true);
        self
    }

    pub fn end_obj(&mut self) -> &mut Json {
        self.first.pop();
        self.out.push('}');
        self.mark();
        self
    }

    pub fn begin_arr(&mut self) -> &mut Json {
        self.sep();
        self.out.push('[');
        self.first.push(true);
        self
    }

    pub fn end_arr(&mut self) -> &mut Json {
        self.first.pop();
        self.out.push(']');
        self.mark();
        self
    }

    fn mark(&mut self) {
        if let Some(first) = self.first.last_mut() {
            *first = false;
        }
    }

    pub fn str(&mut self, v: &str) -> &mut Json {
        self.sep();
        write_str(&mut self.out, v);
        self
    }

    pub fn int(&mut self, v: i64) -> &mut Json {
        self.sep();
        let _ = write!(self.out, "{v}");
        self
    }

    /// Microseconds as a JSON number of milliseconds (`300`, `0.5`).
    pub fn ms(&mut self, us: u64) -> &mut Json {
        self.sep();
        let _ = write!(self.out, "{}", Millis(us));
        self
    }

    /// A number already formatted as JSON.
    pub fn raw(&mut self, v: &str) -> &mut Json {
        self.sep();
        self.out.push_str(v);
        self
    }

    pub fn bool(&mut self, v: bool) -> &mut Json {
        self.sep();
        self.out.push_str(if v { "true" } else { "false" });
        self
    }

    pub fn null(&mut self) -> &mut Json {
        self.sep();
        self.out.push_str("null");
        self
    }

    pub fn finish(self) -> String {
        self.out
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The run as one JSON object (`leaselab run --json`; every field in docs/run-json.md).
pub fn json(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let name = |c: u8| sc.client_name(c).to_string();
    let mut j = Json::new();
    j.begin_obj();
    j.key("scenario").str(&sc.id);
    j.key("title").str(&sc.title_en);
    j.key("fencing").str(o.policy.name());
    j.key("retries").int(i64::from(o.retries));
    for key in ["ttl", "pause"] {
        j.key(&format!("{key}_ms"));
        match sc.param_index(key) {
            Some(i) => j.ms(o.params[i]),
            None => j.null(),
        };
    }
    j.key("params").begin_obj();
    for (p, v) in sc.params.iter().zip(&o.params) {
        j.key(&format!("{}_ms", p.name)).ms(*v);
    }
    j.end_obj();
    j.key("initial").int(o.run.initial);
    j.key("final").int(o.run.final_balance);
    j.key("expected").int(o.expected);
    j.key("lost_update").bool(o.lost_update);
    j.key("stale_write_accepted").bool(o.stale_write_accepted);
    j.key("lost");
    match o.lost {
        Lost::Client(c) => j.str(&name(c)),
        Lost::Nobody => j.null(),
    };
    j.key("verdict")
        .str(if o.lost_update { "lost-update" } else { "safe" });
    j.key("tokens").bool(sc.service.tokens);
    j.key("service").str(service_name(sc));
    j.key("nodes").int(i64::from(sc.service.nodes));
    j.key("naive").bool(o.naive);
    if sc.service.nodes > 1 {
        // Redlock: each node's clock, and the nodes each client can reach (a partition, when not all).
        j.key("node_clocks").begin_arr();
        for k in 0..usize::from(sc.service.nodes) {
            j.str(if sc.service.node_clock(k).monotonic {
                "monotonic"
            } else {
                "wall"
            });
        }
        j.end_arr();
        j.key("reach").begin_obj();
        for c in sc.clients.iter() {
            j.key(&c.name.to_string()).begin_arr();
            for k in (0..sc.service.nodes).filter(|k| c.reach & (1 << k) != 0) {
                j.int(i64::from(k));
            }
            j.end_arr();
        }
        j.end_obj();
    }
    j.key("clients").begin_arr();
    for c in sc.clients.iter() {
        j.str(&c.name.to_string());
    }
    j.end_arr();
    j.key("writes").begin_arr();
    for w in &o.run.writes {
        j.begin_obj();
        j.key("client").str(&name(w.client));
        j.key("token");
        if sc.service.tokens {
            j.int(w.token as i64)
        } else {
            j.null()
        };
        j.key("value").int(w.value);
        j.key("snapshot").int(w.snapshot);
        j.key("debit").int(w.debit);
        j.key("accepted").bool(w.accepted);
        j.key("reason");
        match w.reason {
            Some(r) => j.str(r.name()),
            None => j.null(),
        };
        j.key("stale").bool(w.stale);
        j.key("t_ms").ms(w.t.0);
        j.end_obj();
    }
    j.end_arr();
    j.key("leases").begin_arr();
    for l in &o.run.leases {
        j.begin_obj();
        j.key("client").str(&name(l.client));
        j.key("token").int(l.token as i64);
        j.key("granted_ms").ms(l.granted_at.0);
        // A session lock still held at the end has no end of its own: draw it to the end of the run.
        let open = l.ends_at > o.run.end;
        j.key("ends_ms")
            .ms(if open { o.run.end.0 } else { l.ends_at.0 });
        j.key("open").bool(open);
        j.key("released").bool(l.released);
        j.key("session_ended").bool(l.session_ended);
        j.key("node").int(i64::from(l.node));
        j.key("lost").bool(l.lost);
        j.end_obj();
    }
    j.end_arr();
    for (key, spans) in [
        ("beliefs", &o.run.beliefs),
        ("pauses", &o.run.pauses),
        ("held", &o.run.held),
    ] {
        j.key(key).begin_arr();
        for s in spans {
            j.begin_obj();
            j.key("client").str(&name(s.client));
            j.key("from_ms").ms(s.from.0);
            j.key("to_ms").ms(s.to.0);
            match key {
                "beliefs" => {
                    j.key("token").int(s.tag);
                }
                "held" => {
                    j.key("value").int(s.tag);
                }
                _ => {}
            }
            j.end_obj();
        }
        j.end_arr();
    }
    j.key("overlaps").begin_arr();
    for (from, to) in &o.overlaps {
        j.begin_obj();
        j.key("from_ms").ms(from.0);
        j.key("to_ms").ms(to.0);
        j.end_obj();
    }
    j.end_arr();
    j.key("end_ms").ms(o.run.end.0);
    j.key("events").begin_arr();
    for e in &o.run.trace {
        j.begin_obj();
        j.key("t_ms").ms(e.t.0);
        j.key("actor").str(&name(e.client));
        j.key("kind").str(e.kind.name());
        j.key("lane").str(e.kind.lane());
        if sc.service.nodes > 1 && e.kind.lane() == "lock" && e.kind != Kind::Partition {
            j.key("node").int(i64::from(e.node));
        }
        match e.kind {
            Kind::Granted | Kind::Renewed => {
                if e.kind == Kind::Granted && sc.service.tokens {
                    j.key("token").int(e.token as i64);
                }
                // A session lock has no lease end: it lasts until unlock or session end.
                j.key("lease_end_ms");
                if e.aux == u64::MAX {
                    j.null()
                } else {
                    j.ms(e.aux)
                };
            }
            Kind::Denied => {
                if let Some(r) = e.reason {
                    j.key("reason").str(r.name());
                }
                j.key("holder");
                if e.aux == 0 {
                    j.null()
                } else {
                    j.str(&name((e.aux - 1) as u8))
                };
            }
            Kind::LeaseExpired => {
                j.key("token").int(e.token as i64);
            }
            Kind::Read => {
                j.key("value").int(e.value);
                j.key("version").int(e.aux as i64);
            }
            Kind::PauseStart => {
                j.key("dur_ms").ms(e.aux);
            }
            Kind::CheckOk | Kind::CheckFailed => {
                j.key("left_us").int(e.value);
                j.key("need_ms").ms(e.aux);
            }
            Kind::WriteSent => {
                j.key("value").int(e.value);
                j.key("held_ms").ms(e.aux);
            }
            Kind::WriteAccepted | Kind::WriteRejected | Kind::ReadRejected => {
                if sc.service.tokens {
                    j.key("token").int(e.token as i64);
                }
                if e.kind != Kind::ReadRejected {
                    j.key("value").int(e.value);
                }
                if let Some(r) = e.reason {
                    j.key("reason").str(r.name());
                }
            }
            Kind::Released => {
                j.key("ended_lease").bool(e.aux == 1);
            }
            Kind::SessionEnded => {
                j.key("cause").str(match e.aux {
                    0 => "terminated",
                    1 => "idle-timeout",
                    _ => "disconnected",
                });
                j.key("freed_lock").bool(e.value == 1);
            }
            Kind::Retry => {
                j.key("attempt").int(e.aux as i64);
            }
            Kind::RedlockAcquired | Kind::RedlockFailed => {
                j.key("granted_nodes").int(e.aux as i64);
                j.key("validity_us").int(e.value);
            }
            Kind::NodeCrashed | Kind::Failover => {
                j.key("keys_lost").int(e.value);
            }
            Kind::Partition => {
                j.key("cut").bool(e.value == 1);
                j.key("nodes").begin_arr();
                for k in (0..8).filter(|k| e.aux & (1 << k) != 0) {
                    j.int(k);
                }
                j.end_arr();
            }
            Kind::ServerClockStep | Kind::ClockStep => {
                let sign = if e.value < 0 { "-" } else { "" };
                j.key("step_ms");
                j.raw(&format!("{sign}{}", Millis(e.value.unsigned_abs())));
            }
            _ => {}
        }
        j.end_obj();
    }
    j.end_arr();
    j.key("transcript").begin_arr();
    for line in transcript(o) {
        j.str(&line);
    }
    j.end_arr();
    j.key("exit_code").int(i64::from(exit_code(o)));
    j.end_obj();
    j.finish()
}

/// A text in English and Bengali, each where this build carries it (the wasm carries English titles
/// only: see [`catalogue_texts_json`]). Nothing when neither is there.
fn texts(j: &mut Json, key: &str, en: &str, bn: &str) {
    if en.is_empty() && bn.is_empty() {
        return;
    }
    j.key(key).begin_obj();
    for (lang, text) in [("en", en), ("bn", bn)] {
        if !text.is_empty() {
            j.key(lang).str(text);
        }
    }
    j.end_obj();
}

/// The catalogue's prose in one language, keyed by scenario id:
/// `{"id": {"title", "summary", "source", "derived", "params": {"name": "label"}}}` (sources and notes are
/// in English only). The page loads this file beside the wasm, which leaves the prose out.
/// `None` for a language the catalogue does not have.
pub fn catalogue_texts_json(lang: &str) -> Option<String> {
    let en = match lang {
        "en" => true,
        "bn" => false,
        _ => return None,
    };
    let mut j = Json::new();
    j.begin_obj();
    for sc in catalogue::catalogue() {
        j.key(&sc.id).begin_obj();
        j.key("title")
            .str(if en { &sc.title_en } else { &sc.title_bn });
        j.key("summary")
            .str(if en { &sc.summary_en } else { &sc.summary_bn });
        if en {
            j.key("source").str(&sc.source);
            j.key("derived").str(&sc.derived);
        }
        j.key("params").begin_obj();
        for p in sc.params.iter() {
            j.key(&p.name)
                .str(if en { &p.label_en } else { &p.label_bn });
        }
        j.end_obj();
        j.end_obj();
    }
    j.end_obj();
    Some(j.finish())
}

/// The catalogue as JSON: ids, groups, texts (English, plus Bengali in native builds), parameters with
/// ranges, sources.
pub fn catalogue_json() -> String {
    let mut j = Json::new();
    j.begin_arr();
    for sc in catalogue::catalogue() {
        j.begin_obj();
        j.key("id").str(&sc.id);
        j.key("group").str(&sc.group);
        texts(&mut j, "title", &sc.title_en, &sc.title_bn);
        texts(&mut j, "summary", &sc.summary_en, &sc.summary_bn);
        for (key, text) in [("source", &sc.source), ("derived", &sc.derived)] {
            if !text.is_empty() {
                j.key(key).str(text);
            }
        }
        j.key("tokens").bool(sc.service.tokens);
        j.key("service").str(service_name(sc));
        j.key("nodes").int(i64::from(sc.service.nodes));
        j.key("clients").begin_arr();
        for c in sc.clients.iter() {
            j.str(&c.name.to_string());
        }
        j.end_arr();
        j.key("params").begin_arr();
        for p in sc.params.iter() {
            j.begin_obj();
            j.key("name").str(&p.name);
            j.key("default_ms").ms(p.default_us);
            j.key("min_ms").ms(p.min_us);
            j.key("max_ms").ms(p.max_us);
            texts(&mut j, "label", &p.label_en, &p.label_bn);
            j.end_obj();
        }
        j.end_arr();
        j.end_obj();
    }
    j.end_arr();
    j.finish()
}

/// A Monte Carlo estimate as JSON (the CLI's `estimate --json`).
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
pub fn estimate_json(
    spec: &crate::estimate::Spec,
    r: &crate::estimate::Estimate,
    per_day: f64,
) -> String {
    use crate::estimate::PauseDist;
    let mut j = Json::new();
    j.begin_obj();
    j.key("fencing").str(spec.policy.name());
    j.key("ttl_ms").ms(spec.ttl_us);
    j.key("retry_ms").ms(spec.retry_us);
    j.key("work_ms").ms(spec.work_us);
    match spec.dist {
        PauseDist::Pareto { scale_us, shape } => {
            j.key("dist").str("pareto");
            j.key("scale_ms").raw(&fnum(scale_us / 1000.0));
            j.key("shape").raw(&fnum(shape));
        }
        PauseDist::LogNormal { median_us, sigma } => {
            j.key("dist").str("lognormal");
            j.key("median_ms").raw(&fnum(median_us / 1000.0));
            j.key("sigma").raw(&fnum(sigma));
        }
    }
    j.key("rate_per_s").raw(&fnum(spec.rate_per_s));
    j.key("seed").raw(&spec.seed.to_string());
    j.key("ops").raw(&r.ops.to_string());
    j.key("lost").raw(&r.lost.to_string());
    j.key("simulated").raw(&r.simulated.to_string());
    j.key("over_range").raw(&r.over_range.to_string());
    j.key("p").raw(&fnum(r.p));
    j.key("low").raw(&fnum(r.low));
    j.key("high").raw(&fnum(r.high));
    j.key("analytic").raw(&fnum(r.analytic));
    j.key("per_day").raw(&fnum(per_day));
    j.end_obj();
    j.finish()
}

/// A float as JSON: shortest round-trip form (the same text natively and in wasm), finite only.
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
fn fnum(x: f64) -> String {
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "null".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_writer_escapes_and_separates() {
        let mut j = Json::new();
        j.begin_obj();
        j.key("a").str("x\"y\n");
        j.key("b")
            .begin_arr()
            .int(1)
            .int(2)
            .begin_obj()
            .key("c")
            .bool(true)
            .end_obj()
            .end_arr();
        j.key("d").ms(1500);
        j.end_obj();
        assert_eq!(j.finish(), r#"{"a":"x\"y\n","b":[1,2,{"c":true}],"d":1.5}"#);
    }
}
