//! The run as one JSON object (`leaselab run --json`, the page's data; `docs/run-json.md` lists every
//! field), written section by section: the header, a quorum service's topology, writes, leases, the drawn
//! intervals, and the events with each kind's own fields.

use super::json::Json;
use super::{exit_code, scenario_of, service_name, transcript};
use crate::outcome::Outcome;
use crate::scenario::{Lost, Scenario};
use crate::store::Refusal;
use crate::time::Millis;
use crate::time::SimTime;
use crate::trace::{Kind, Span, TraceEvent, What};

/// The run as one JSON object.
pub fn json(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let mut j = Json::new();
    j.begin_obj();
    header(&mut j, o, sc);
    if sc.service.nodes > 1 {
        topology(&mut j, o, sc);
    }
    j.key("clients").begin_arr();
    for c in sc.clients.iter() {
        j.str(&c.name.to_string());
    }
    j.end_arr();
    #[cfg(feature = "libraries")]
    if sc.clients.iter().any(|c| c.library.is_some()) {
        libraries(&mut j, sc);
    }
    writes(&mut j, o, sc);
    leases(&mut j, o, sc);
    spans(&mut j, o, sc);
    j.key("end_ms").ms(o.run.end.0);
    j.key("events").begin_arr();
    for e in &o.run.trace {
        event(&mut j, e, sc);
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

/// The client libraries the clients call, by client: name, version, the service it speaks to (only
/// in a run where one does: every other run's JSON is as before). A build without libraries runs none.
#[cfg(feature = "libraries")]
fn libraries(j: &mut Json, sc: &Scenario) {
    j.key("libraries").begin_obj();
    for c in sc.clients.iter() {
        let Some(lib) = c.library else { continue };
        j.key(&c.name.to_string()).begin_obj();
        j.key("name").str(lib.name());
        j.key("version").str(lib.version());
        j.key("speaks").str(lib.speaks().name());
        j.end_obj();
    }
    j.end_obj();
}

/// What was run and what came of it.
fn header(j: &mut Json, o: &Outcome, sc: &Scenario) {
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
        Lost::Client(c) => j.str(&sc.client_name(c).to_string()),
        Lost::Nobody => j.null(),
    };
    j.key("locked_out");
    match o.locked_out {
        Lost::Client(c) => j.str(&sc.client_name(c).to_string()),
        Lost::Nobody => j.null(),
    };
    j.key("verdict")
        .str(if o.lost_update { "lost-update" } else { "safe" });
    j.key("tokens").bool(sc.service.tokens);
    j.key("service").str(service_name(sc));
    j.key("nodes").int(i64::from(sc.service.nodes));
    j.key("naive").bool(o.naive);
    diagram(j, sc);
}

/// What the page's diagram draws for the service beyond what every service has: its own marks and its
/// capabilities ([`crate::services::Diagram`]).
fn diagram(j: &mut Json, sc: &Scenario) {
    use crate::services::Diagram;
    let d = crate::services::diagram(sc.service.kind);
    j.key("diagram").begin_obj();
    j.key("marks").begin_arr();
    for (k, name) in Diagram::NAMES.iter().enumerate() {
        if k == Diagram::MARKS {
            j.end_arr();
            j.key("has").begin_arr();
        }
        if d.has(k) {
            j.str(name);
        }
    }
    j.end_arr();
    j.end_obj();
}

/// A quorum service: how many nodes make a majority, the drift allowance a client subtracts from its validity,
/// each node's clock, and the nodes each client can reach (a partition, when not all).
fn topology(j: &mut Json, o: &Outcome, sc: &Scenario) {
    j.key("quorum").int(i64::from(sc.service.quorum()));
    let ttl = sc.service.ttl.resolve(&o.params);
    j.key("drift_ms")
        .ms(crate::scenario::ServiceSpec::drift(ttl));
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

fn writes(j: &mut Json, o: &Outcome, sc: &Scenario) {
    j.key("writes").begin_arr();
    for w in &o.run.writes {
        j.begin_obj();
        j.key("client").str(&sc.client_name(w.client).to_string());
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
        j.key("held_until_ms");
        match super::holds::held_until(o, w) {
            Some(t) => j.ms(t.0),
            None => j.null(),
        };
        j.end_obj();
    }
    j.end_arr();
}

/// The lock service's truth: one object per grant.
fn leases(j: &mut Json, o: &Outcome, sc: &Scenario) {
    j.key("leases").begin_arr();
    for l in &o.run.leases {
        j.begin_obj();
        j.key("client").str(&sc.client_name(l.client).to_string());
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
}

/// The intervals the timeline draws: beliefs (with their token), pauses, held writes (with their
/// value), and the overlaps of two clients' beliefs.
fn spans(j: &mut Json, o: &Outcome, sc: &Scenario) {
    let sections: [(&str, &[Span], Option<&str>); 3] = [
        ("beliefs", &o.run.beliefs, Some("token")),
        ("pauses", &o.run.pauses, None),
        ("held", &o.run.held, Some("value")),
    ];
    for (key, list, tag) in sections {
        j.key(key).begin_arr();
        for s in list {
            j.begin_obj();
            j.key("client").str(&sc.client_name(s.client).to_string());
            j.key("from_ms").ms(s.from.0);
            j.key("to_ms").ms(s.to.0);
            if let Some(tag) = tag {
                j.key(tag).int(s.tag);
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
}

/// One trace event: when, whose, what kind, which lane, and the kind's own fields.
fn event(j: &mut Json, e: &TraceEvent, sc: &Scenario) {
    let kind = e.kind();
    j.begin_obj();
    j.key("t_ms").ms(e.t.0);
    j.key("actor").str(&sc.client_name(e.client).to_string());
    j.key("kind").str(kind.name());
    j.key("lane").str(kind.lane());
    if sc.service.nodes > 1 && kind.lane() == "lock" && kind != Kind::Partition {
        j.key("node").int(i64::from(e.node));
    }
    if kind.lane() == "lock" {
        lock_fields(j, e.what, sc);
    } else {
        client_fields(j, e.what, sc);
    }
    #[cfg(feature = "libraries")]
    if let What::Notice { note } = e.what {
        notice_fields(j, note, sc, e.client);
    }
    j.end_obj();
}

/// A library's notice: what it was, the library, what was raised (where something was) and, for
/// `owned`'s answer, the truth at that moment.
#[cfg(feature = "libraries")]
fn notice_fields(j: &mut Json, note: crate::trace::Note, sc: &Scenario, c: u8) {
    use crate::trace::Note;
    j.key("note").str(note.name());
    if let Some(lib) = sc.clients[usize::from(c)].library {
        j.key("library").str(lib.name());
        if note == Note::ReleaseRaised {
            if let Some(raised) = lib.raises() {
                j.key("raised").str(raised);
            }
        }
    }
    if let Note::OwnedYes { truth } | Note::OwnedNo { truth } = note {
        j.key("truth").bool(truth);
    }
}

/// A token, where the service hands tokens out.
fn token(j: &mut Json, sc: &Scenario, token: u64) {
    if sc.service.tokens {
        j.key("token").int(token as i64);
    }
}

/// The fields of the lock lane's events.
fn lock_fields(j: &mut Json, what: What, sc: &Scenario) {
    match what {
        What::Granted {
            token: t,
            lease_end,
        } => {
            token(j, sc, t);
            lease_end_ms(j, lease_end);
        }
        What::Renewed { lease_end } => lease_end_ms(j, lease_end),
        What::Denied {
            holder,
            session_gone,
        } => {
            if session_gone {
                j.key("reason").str(Refusal::SessionGone.name());
            }
            j.key("holder");
            match holder {
                Some(h) => j.str(&sc.client_name(h).to_string()),
                None => j.null(),
            };
        }
        What::LeaseExpired { token } => {
            j.key("token").int(token as i64);
        }
        What::Released { ended_lease } => {
            j.key("ended_lease").bool(ended_lease);
        }
        What::SessionEnded { cause, freed } => {
            j.key("cause").str(cause.name());
            j.key("freed_lock").bool(freed);
        }
        What::NodeCrashed { keys_lost: n } | What::Failover { grants_lost: n } => {
            j.key("keys_lost").int(n as i64);
        }
        What::Partition { cut, nodes } => {
            j.key("cut").bool(cut);
            j.key("nodes").begin_arr();
            for k in (0..8).filter(|k| nodes & (1 << k) != 0) {
                j.int(k);
            }
            j.end_arr();
        }
        What::ServerClockStep { by_us } => clock_step(j, by_us),
        _ => session_fields(j, what, sc),
    }
}

/// The fields of the session services' own lock-lane events (leases, queues, keepalives).
fn session_fields(j: &mut Json, what: What, sc: &Scenario) {
    match what {
        What::LeaseGranted { lease, lease_end } => {
            j.key("lease").int(lease as i64);
            lease_end_ms(j, Some(lease_end));
        }
        What::Queued { rev, behind } => {
            j.key("rev").int(rev as i64);
            j.key("behind");
            match behind {
                Some(h) => j.str(&sc.client_name(h).to_string()),
                None => j.null(),
            };
        }
        What::KeepAlive { lease_end } => lease_end_ms(j, lease_end),
        What::StaleGrant { token: t } => token(j, sc, t),
        _ => {}
    }
}

/// A lease's end; `null` for a session lock, which lasts until unlock or session end.
fn lease_end_ms(j: &mut Json, end: Option<SimTime>) {
    j.key("lease_end_ms");
    match end {
        Some(end) => j.ms(end.0),
        None => j.null(),
    };
}

/// The fields of the client and storage lanes' events.
fn client_fields(j: &mut Json, what: What, sc: &Scenario) {
    match what {
        What::Read { value, version, .. } => {
            j.key("value").int(value);
            j.key("version").int(version as i64);
        }
        What::PauseStart { dur_us, .. } => {
            j.key("dur_ms").ms(dur_us);
        }
        What::Check {
            left_us, need_us, ..
        } => {
            j.key("left_us");
            match left_us {
                Some(left) => j.int(left),
                None => j.null(), // it holds no lease
            };
            j.key("need_ms").ms(need_us);
        }
        What::WriteSent { value, held_us, .. } => {
            j.key("value").int(value);
            j.key("held_ms").ms(held_us);
        }
        What::WriteAccepted { token: t, value } => {
            token(j, sc, t);
            j.key("value").int(value);
        }
        What::WriteRejected {
            token: t,
            value,
            reason,
        } => {
            token(j, sc, t);
            j.key("value").int(value);
            j.key("reason").str(reason.name());
        }
        What::ReadRejected { token: t, reason } => {
            token(j, sc, t);
            j.key("reason").str(reason.name());
        }
        What::Retry { attempt } => {
            j.key("attempt").int(i64::from(attempt));
        }
        What::Round {
            granted_nodes,
            validity_us,
            ..
        } => {
            j.key("granted_nodes").int(i64::from(granted_nodes));
            j.key("validity_us").int(validity_us);
        }
        What::ClockStep { by_us } => clock_step(j, by_us),
        _ => {}
    }
}

fn clock_step(j: &mut Json, by_us: i64) {
    let sign = if by_us < 0 { "-" } else { "" };
    j.key("step_ms");
    j.raw(&format!("{sign}{}", Millis(by_us.unsigned_abs())));
}
