//! A run as an ITF trace (the Informal Trace Format of Apalache and Quint, ADR-015:
//! <https://apalache-mc.org/docs/adr/015adr-trace.html>), so a counterexample can be opened in those
//! tools' viewers: `{"#meta", "vars", "states"}`, one state before the first event and one after each
//! event of the run's trace, in time order.
//!
//! The variables tell the story of a lost update: `t_us` (true time), `event` and `actor` (what just
//! happened), `clients` (per client: its last event, whether it is frozen, the token it was granted,
//! until when, in true time, it believes it holds its lease, the balance it read), `lock` (the client of the latest
//! grant until that lease expires, is released or its session ends; the highest token granted), `store` (value, version, highest token of an accepted write) and
//! `lost_update` (some acknowledged write is missing from the value: `value ≠ initial − Σ debits of
//! the writes accepted so far`). Integers are JSON numbers when within ±(2^53 − 1), else
//! `{"#bigint": "…"}`; records are objects; an absent value is Quint's `Option`:
//! `{"tag": "None", "value": {"#tup": []}}` or `{"tag": "Some", "value": v}`.

use super::Json;
use crate::outcome::Outcome;
use crate::time::SimTime;
use crate::trace::{TraceEvent, What};

/// The state variables, in the order of `vars`.
pub const ITF_VARS: [&str; 7] = [
    "t_us",
    "event",
    "actor",
    "clients",
    "lock",
    "store",
    "lost_update",
];

/// Largest integer written as a JSON number (beyond it, `#bigint`): 2^53 − 1.
const SAFE_INT_MAX: i128 = (1 << 53) - 1;

/// What each client has done so far, as the trace tells it.
#[derive(Clone, Copy, Default)]
struct ClientNow {
    last_event: &'static str,
    frozen: bool,
    token: u64,
    snapshot: Option<i64>,
}

/// The world after some prefix of the trace.
struct Now {
    clients: Vec<ClientNow>,
    /// The client of the latest grant, while its lease is live.
    holder: Option<u8>,
    token_granted: u64,
    value: i64,
    version: u64,
    last_token: u64,
    debited: i64,
    accepted: usize,
}

/// The run of `o` as an ITF trace (`o` must have been run traced).
pub fn itf(o: &Outcome) -> String {
    let sc = o.scenario;
    let run = &o.run;
    let mut j = Json::new();
    j.begin_obj();
    j.key("#meta").begin_obj();
    j.key("format").str("ITF");
    j.key("format-description")
        .str("https://apalache-mc.org/docs/adr/015adr-trace.html");
    j.key("source").str(&format!("leaselab scenario {}", sc.id));
    let mut what = format!(
        "leaselab run of {} under fencing {}: final {}, expected {}",
        sc.id,
        o.policy.name(),
        run.final_balance,
        o.expected
    );
    what.push_str(if o.lost_update {
        ", an update lost"
    } else {
        ", no update lost"
    });
    j.key("description").str(&what);
    j.key("params").begin_obj();
    for (p, v) in sc.params.iter().zip(&o.params) {
        j.key(&format!("{}_us", p.name));
        int(&mut j, i128::from(*v));
    }
    j.end_obj();
    j.end_obj();
    j.key("vars").begin_arr();
    for v in ITF_VARS {
        j.str(v);
    }
    j.end_arr();
    j.key("states").begin_arr();
    let mut now = Now {
        clients: vec![ClientNow::default(); sc.clients.len()],
        holder: None,
        token_granted: 0,
        value: run.initial,
        version: 0,
        last_token: 0,
        debited: 0,
        accepted: 0,
    };
    for c in &mut now.clients {
        c.last_event = "none";
    }
    state(&mut j, o, &now, 0, SimTime::ZERO, None);
    for (i, e) in run.trace.iter().enumerate() {
        now.apply(o, e);
        state(&mut j, o, &now, i + 1, e.t, Some(e));
    }
    j.end_arr();
    j.end_obj();
    j.finish()
}

impl Now {
    /// The world after event `e`.
    fn apply(&mut self, o: &Outcome, e: &TraceEvent) {
        let c = usize::from(e.client);
        if let Some(cl) = self.clients.get_mut(c) {
            cl.last_event = e.kind().name();
        }
        match e.what {
            What::LeaseExpired { .. }
            | What::Released { ended_lease: true }
            | What::SessionEnded { freed: true, .. }
                if self.holder == Some(e.client) =>
            {
                self.holder = None;
            }
            What::Granted { token, .. } => {
                self.holder = Some(e.client);
                self.token_granted = self.token_granted.max(token);
                if let Some(cl) = self.clients.get_mut(c) {
                    cl.token = token;
                }
            }
            What::Read { value, .. } => {
                if let Some(cl) = self.clients.get_mut(c) {
                    cl.snapshot = Some(value);
                }
            }
            What::PauseStart { .. } => self.set_frozen(c, true),
            What::PauseEnd => self.set_frozen(c, false),
            What::WriteAccepted { token, value } => {
                self.value = value;
                self.version += 1;
                self.last_token = self.last_token.max(token);
                // The run's accepted writes, in the order the storage took them.
                let w = o
                    .run
                    .writes
                    .iter()
                    .filter(|w| w.accepted)
                    .nth(self.accepted);
                self.debited += w.map_or(0, |w| w.debit);
                self.accepted += 1;
            }
            _ => {}
        }
    }

    fn set_frozen(&mut self, c: usize, frozen: bool) {
        if let Some(cl) = self.clients.get_mut(c) {
            cl.frozen = frozen;
        }
    }
}

/// State number `index` at true time `t`, after event `e` (none for the first state).
fn state(j: &mut Json, o: &Outcome, now: &Now, index: usize, t: SimTime, e: Option<&TraceEvent>) {
    let sc = o.scenario;
    let run = &o.run;
    j.begin_obj();
    j.key("#meta").begin_obj();
    j.key("index");
    int(j, index as i128);
    j.end_obj();
    j.key("t_us");
    int(j, i128::from(t.0));
    j.key("event").str(e.map_or("init", |e| e.kind().name()));
    let actor = e.map_or(String::new(), |e| sc.client_name(e.client).to_string());
    j.key("actor").str(&actor);
    j.key("clients").begin_obj();
    for (i, cl) in now.clients.iter().enumerate() {
        j.key(&sc.client_name(i as u8).to_string()).begin_obj();
        j.key("last_event").str(cl.last_event);
        j.key("frozen").bool(cl.frozen);
        j.key("token");
        int(j, i128::from(cl.token));
        // The lease it believes it holds, by its own clock (the run's belief spans).
        let belief = run.beliefs.iter().find(|b| {
            usize::from(b.client) == i && b.tag == cl.token as i64 && b.from <= t && t < b.to
        });
        j.key("believes_lease_until_us");
        option(j, belief.map(|b| i128::from(b.to.0)));
        j.key("snapshot");
        option(j, cl.snapshot.map(i128::from));
        j.end_obj();
    }
    j.end_obj();
    j.key("lock").begin_obj();
    j.key("holder");
    match now.holder {
        Some(c) => some_str(j, &sc.client_name(c).to_string()),
        None => none(j),
    }
    j.key("token_granted");
    int(j, i128::from(now.token_granted));
    j.end_obj();
    j.key("store").begin_obj();
    j.key("value");
    int(j, i128::from(now.value));
    j.key("version");
    int(j, i128::from(now.version));
    j.key("last_token");
    int(j, i128::from(now.last_token));
    j.end_obj();
    j.key("lost_update")
        .bool(now.value != run.initial - now.debited);
    j.end_obj();
}

/// An integer: a JSON number within ±(2^53 − 1), else `{"#bigint": "…"}`.
fn int(j: &mut Json, v: i128) {
    if v.abs() <= SAFE_INT_MAX {
        j.raw(&v.to_string());
    } else {
        j.begin_obj();
        j.key("#bigint").str(&v.to_string());
        j.end_obj();
    }
}

fn none(j: &mut Json) {
    j.begin_obj();
    j.key("tag").str("None");
    j.key("value").begin_obj();
    j.key("#tup").begin_arr();
    j.end_arr();
    j.end_obj();
    j.end_obj();
}

fn option(j: &mut Json, v: Option<i128>) {
    let Some(v) = v else {
        return none(j);
    };
    j.begin_obj();
    j.key("tag").str("Some");
    j.key("value");
    int(j, v);
    j.end_obj();
}

fn some_str(j: &mut Json, v: &str) {
    j.begin_obj();
    j.key("tag").str("Some");
    j.key("value").str(v);
    j.end_obj();
}
