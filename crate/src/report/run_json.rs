//! The run as one JSON object (`leaselab run --json`, the page's data; `docs/run-json.md` lists every
//! field), written section by section: the header, the Redlock topology, writes, leases, the drawn
//! intervals, and the events with each kind's own fields.

use super::json::Json;
use super::{exit_code, scenario_of, service_name, transcript};
use crate::outcome::Outcome;
use crate::scenario::{Lost, Scenario};
use crate::time::Millis;
use crate::trace::{Kind, Span, TraceEvent};

/// The run as one JSON object.
pub fn json(o: &Outcome) -> String {
    let sc = scenario_of(o);
    let mut j = Json::new();
    j.begin_obj();
    header(&mut j, o, sc);
    if sc.service.nodes > 1 {
        topology(&mut j, sc);
    }
    j.key("clients").begin_arr();
    for c in sc.clients.iter() {
        j.str(&c.name.to_string());
    }
    j.end_arr();
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
    j.key("verdict")
        .str(if o.lost_update { "lost-update" } else { "safe" });
    j.key("tokens").bool(sc.service.tokens);
    j.key("service").str(service_name(sc));
    j.key("nodes").int(i64::from(sc.service.nodes));
    j.key("naive").bool(o.naive);
}

/// Redlock: each node's clock, and the nodes each client can reach (a partition, when not all).
fn topology(j: &mut Json, sc: &Scenario) {
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
    j.begin_obj();
    j.key("t_ms").ms(e.t.0);
    j.key("actor").str(&sc.client_name(e.client).to_string());
    j.key("kind").str(e.kind.name());
    j.key("lane").str(e.kind.lane());
    if sc.service.nodes > 1 && e.kind.lane() == "lock" && e.kind != Kind::Partition {
        j.key("node").int(i64::from(e.node));
    }
    if e.kind.lane() == "lock" {
        lock_fields(j, e, sc);
    } else {
        client_fields(j, e, sc);
    }
    j.end_obj();
}

/// The fields of the lock lane's events.
fn lock_fields(j: &mut Json, e: &TraceEvent, sc: &Scenario) {
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
                j.str(&sc.client_name((e.aux - 1) as u8).to_string())
            };
        }
        Kind::LeaseExpired => {
            j.key("token").int(e.token as i64);
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
        Kind::ServerClockStep => clock_step(j, e),
        _ => {}
    }
}

/// The fields of the client and storage lanes' events.
fn client_fields(j: &mut Json, e: &TraceEvent, sc: &Scenario) {
    match e.kind {
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
        Kind::Retry => {
            j.key("attempt").int(e.aux as i64);
        }
        Kind::RedlockAcquired | Kind::RedlockFailed => {
            j.key("granted_nodes").int(e.aux as i64);
            j.key("validity_us").int(e.value);
        }
        Kind::ClockStep => clock_step(j, e),
        _ => {}
    }
}

fn clock_step(j: &mut Json, e: &TraceEvent) {
    let sign = if e.value < 0 { "-" } else { "" };
    j.key("step_ms");
    j.raw(&format!("{sign}{}", Millis(e.value.unsigned_abs())));
}
