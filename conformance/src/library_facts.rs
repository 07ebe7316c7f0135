//! What a library row compares (library_rows.rs): the facts a client library told the application,
//! read from the model's run JSON (`leaselab run --scenario ID --json`, as docs/run-json.md gives it)
//! and from the real library's run (conformance/clients/cases.py's moments), put in the same words.
//!
//! A moment is relative to the holder's wake-up (the end of its pause in the model, its SIGCONT in the
//! real run): `A SUSPENDED at 0.001 s ±0.050 s` from the model, `A SUSPENDED at 0.004 s` from the real
//! run, the same fact when within the stated tolerance (moments.rs's `same`). An answer is a yes or
//! no: `A owned() said no` on both sides, or the row disagrees. A row that writes (policy `none`,
//! conformance/clients/store.py) compares the outcome too: `final 440` and `lost B` on both sides.

use leaselab::outcome::summarize;
use leaselab::scenario::Lost;
use leaselab::sim::Run;
use leaselab::trace::WriteRecord;
use serde_json::Value;

/// One fact a row compares.
#[derive(Clone, Copy)]
pub enum Fact {
    /// A moment after the wake-up: the model's first event of the holder of this kind (`suspended`,
    /// `lost`, `reconnected`, or `notice` with this note) against the real run's moment of this name
    /// (ms after SIGCONT), within `within_ms`, whose reason is given in docs/clients.md.
    At {
        label: &'static str,
        kind: &'static str,
        note: Option<&'static str>,
        real: &'static str,
        within_ms: u64,
    },
    /// Whether the library said something: the model has a notice of the holder with this note (at
    /// any time) against the real run's value of this name, yes when its text starts with `real_yes`.
    Said {
        label: &'static str,
        note: &'static str,
        real: &'static str,
        real_yes: &'static str,
    },
    /// Whether the second client's fencing token is above the holder's: the model's lease tokens
    /// against the real run's value of this name (`true` or `false`).
    TokenGrows { real: &'static str },
    /// The balance at the end: the model's `final` against the real store's, the value the row's key
    /// holds once both clients are done (the real run's value of this name).
    Final { real: &'static str },
    /// Whose acknowledged update is missing: the model's `lost` against the real run's writes (its
    /// `writes`, with its `initial balance` and `final balance`), judged by leaselab's own definition
    /// (crate/src/outcome.rs: a lost update, and the write the next one overwrote without reading it).
    Lost,
}

/// The model's run, as its JSON gives it.
pub struct Model {
    json: Value,
    /// The holder's name (the client whose library the row runs).
    pub holder: String,
}

impl Model {
    pub fn parse(text: &str, holder: &str) -> Result<Model, String> {
        let json = serde_json::from_str(text).map_err(|e| format!("the model's run JSON: {e}"))?;
        Ok(Model {
            json,
            holder: holder.to_string(),
        })
    }

    /// The holder's first pause, as (from, to) ms of the model's time.
    pub fn pause_ms(&self) -> Result<(f64, f64), String> {
        let pauses = self.json["pauses"].as_array().into_iter().flatten();
        let mine = pauses
            .into_iter()
            .find(|p| p["client"] == self.holder.as_str())
            .ok_or_else(|| format!("the model's run has no pause of {}", self.holder))?;
        match (mine["from_ms"].as_f64(), mine["to_ms"].as_f64()) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(format!("{}'s pause has no from_ms/to_ms", self.holder)),
        }
    }

    /// A parameter of the run (`params.NAME`), or a top-level number (`ttl_ms`), in ms.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.json["params"][name]
            .as_f64()
            .or_else(|| self.json[name].as_f64())
    }

    fn holder_events(&self) -> impl Iterator<Item = &Value> {
        let events = self.json["events"].as_array().into_iter().flatten();
        events.filter(|e| e["actor"] == self.holder.as_str())
    }

    /// The first event of the holder of this kind (and note), its time in ms.
    fn first(&self, kind: &str, note: Option<&str>) -> Option<f64> {
        self.holder_events()
            .filter(|e| e["kind"] == kind)
            .find(|e| note.is_none_or(|n| e["note"] == n))
            .and_then(|e| e["t_ms"].as_f64())
    }

    /// The run with another outcome (a test's disagreeing model).
    #[cfg(test)]
    pub fn set_outcome(&mut self, final_balance: i64, lost: Option<&str>) {
        self.json["final"] = final_balance.into();
        self.json["lost"] = lost.into();
    }

    /// The run's outcome: its final balance and whose update was lost (`none` when nobody's).
    fn outcome(&self) -> (String, String) {
        let lost = self.json["lost"].as_str().unwrap_or("none");
        (self.json["final"].to_string(), lost.to_string())
    }

    /// The fencing tokens of the leases, in the order they were granted, with their clients.
    fn tokens(&self) -> Vec<(String, f64)> {
        let leases = self.json["leases"].as_array().into_iter().flatten();
        let mut v: Vec<(f64, String, f64)> = leases
            .filter_map(|l| {
                let t = l["token"].as_f64()?;
                Some((l["granted_ms"].as_f64()?, l["client"].as_str()?.into(), t))
            })
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v.into_iter().map(|(_, c, t)| (c, t)).collect()
    }
}

fn secs(ms: f64) -> String {
    format!("{:.3} s", ms / 1000.0)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The model's fact in words.
pub fn modelled(f: &Fact, m: &Model) -> Result<String, String> {
    let who = &m.holder;
    Ok(match f {
        Fact::At {
            label,
            kind,
            note,
            within_ms,
            ..
        } => {
            let wake = m.pause_ms()?.1;
            match m.first(kind, *note).filter(|t| *t >= wake) {
                Some(t) => format!(
                    "{who} {label} at {} ±{}",
                    secs(t - wake),
                    secs(*within_ms as f64)
                ),
                None => format!("{who} {label} never"),
            }
        }
        Fact::Said { label, note, .. } => {
            format!(
                "{who} {label}: {}",
                yes(m.first("notice", Some(note)).is_some())
            )
        }
        Fact::TokenGrows { .. } => {
            let t = m.tokens();
            let mine = t.iter().find(|(c, _)| c == who).map(|x| x.1);
            let next = t.iter().find(|(c, _)| c != who).map(|x| x.1);
            let grows = matches!((mine, next), (Some(a), Some(b)) if b > a);
            format!("the next holder's token above {who}'s: {}", yes(grows))
        }
        Fact::Final { .. } => format!("final {}", m.outcome().0),
        Fact::Lost => format!("lost {}", m.outcome().1),
    })
}

/// Whose update the real run lost, by leaselab's definition over its writes in the order they
/// reached the store (`None` when the run has no such record).
fn real_lost(real: &Value) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    let mut writes = Vec::new();
    for w in real["writes"].as_array()? {
        let who = w["client"].as_str()?;
        if !names.contains(&who) {
            names.push(who);
        }
        let (snapshot, value) = (w["snapshot"].as_i64()?, w["value"].as_i64()?);
        writes.push(WriteRecord {
            client: names.iter().position(|n| *n == who)? as u8,
            token: 0,
            snapshot,
            value,
            debit: snapshot - value,
            t: Default::default(),
            // A plain key (policy `none`): every write is accepted.
            accepted: true,
            reason: None,
            stale: false,
        });
    }
    let run = Run {
        initial: real["initial balance"].as_i64()?,
        final_balance: real["final balance"].as_i64()?,
        writes,
        ..Run::default()
    };
    Some(match summarize(&run).lost {
        Lost::Nobody => "none".into(),
        Lost::Client(c) => names[usize::from(c)].to_string(),
    })
}

/// The real run's value of `name` as text (a JSON string as it is, anything else as JSON).
fn text(real: &Value, name: &str) -> Option<String> {
    match &real[name] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        v => Some(v.to_string()),
    }
}

/// The real run's fact in words (`real`: cases.py's moments of one run).
pub fn measured(f: &Fact, real: &Value, who: &str) -> String {
    match f {
        Fact::At {
            label, real: name, ..
        } => match real[*name].as_f64() {
            Some(ms) => format!("{who} {label} at {}", secs(ms)),
            None => format!("{who} {label} never"),
        },
        Fact::Said {
            label,
            real: name,
            real_yes,
            ..
        } => {
            let said = text(real, name).is_some_and(|v| v.starts_with(real_yes));
            format!("{who} {label}: {}", yes(said))
        }
        Fact::TokenGrows { real: name } => {
            let grows = text(real, name).as_deref() == Some("true");
            format!("the next holder's token above {who}'s: {}", yes(grows))
        }
        Fact::Final { real: name } => {
            format!("final {}", text(real, name).as_deref().unwrap_or("unknown"))
        }
        Fact::Lost => format!("lost {}", real_lost(real).as_deref().unwrap_or("unknown")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moments::same;

    /// A run JSON in the shape docs/run-json.md gives (the fields these facts read).
    const RUN: &str = r#"{"params":{"session_ms":2000},"ttl_ms":null,
        "pauses":[{"client":"A","from_ms":100,"to_ms":4100}],
        "leases":[{"client":"B","token":7,"granted_ms":2200},{"client":"A","token":5,"granted_ms":0}],
        "events":[{"t_ms":50,"actor":"A","kind":"notice","note":"owned-yes","lane":"client"},
                  {"t_ms":4101,"actor":"A","kind":"suspended","lane":"client"},
                  {"t_ms":4201,"actor":"A","kind":"lost","lane":"client"},
                  {"t_ms":4300,"actor":"B","kind":"notice","note":"release-raised","lane":"client"}]}"#;

    fn at(kind: &'static str, note: Option<&'static str>) -> Fact {
        Fact::At {
            label: "X",
            kind,
            note,
            real: "x",
            within_ms: 50,
        }
    }

    #[test]
    fn the_models_moments_are_after_the_holders_wake_up_with_their_tolerance() {
        let m = Model::parse(RUN, "A").unwrap();
        assert_eq!(m.pause_ms().unwrap(), (100.0, 4100.0));
        assert_eq!(m.number("session_ms"), Some(2000.0));
        assert_eq!(m.number("ttl_ms"), None);
        assert_eq!(
            modelled(&at("suspended", None), &m).unwrap(),
            "A X at 0.001 s ±0.050 s"
        );
        assert_eq!(
            modelled(&at("lost", None), &m).unwrap(),
            "A X at 0.101 s ±0.050 s"
        );
        // B's notice is not the holder's; a notice before the wake-up is not a moment after it.
        let raised = at("notice", Some("release-raised"));
        assert_eq!(modelled(&raised, &m).unwrap(), "A X never");
        assert_eq!(
            modelled(&at("notice", Some("owned-yes")), &m).unwrap(),
            "A X never"
        );
        let said = Fact::Said {
            label: "owned() said yes",
            note: "owned-yes",
            real: "v",
            real_yes: "true",
        };
        assert_eq!(modelled(&said, &m).unwrap(), "A owned() said yes: yes");
        let grows = modelled(&Fact::TokenGrows { real: "t" }, &m).unwrap();
        assert_eq!(grows, "the next holder's token above A's: yes");
    }

    #[test]
    fn a_real_moment_agrees_within_the_tolerance_only() {
        let m = Model::parse(RUN, "A").unwrap();
        let f = at("lost", None);
        let sim = modelled(&f, &m).unwrap();
        let real = |ms: f64| measured(&f, &serde_json::json!({ "x": ms }), "A");
        assert_eq!(real(120.0), "A X at 0.120 s");
        assert!(same(&sim, &real(120.0)));
        assert!(same(&sim, &real(151.0)));
        assert!(!same(&sim, &real(152.0)), "beyond ±50 ms");
        let missing = measured(&f, &serde_json::json!({ "x": "not seen" }), "A");
        assert_eq!(missing, "A X never");
        assert!(!same(&sim, &missing));
    }

    #[test]
    fn a_real_answer_is_yes_only_when_its_text_says_so() {
        let f = Fact::Said {
            label: "release raised",
            note: "release-raised",
            real: "release: outcome",
            real_yes: "raised LockNotOwnedError",
        };
        let run = |v: &str| measured(&f, &serde_json::json!({ "release: outcome": v }), "A");
        assert_eq!(
            run("raised LockNotOwnedError: Cannot release"),
            "A release raised: yes"
        );
        assert_eq!(run("returned True"), "A release raised: no");
        assert_eq!(
            measured(&f, &serde_json::json!({}), "A"),
            "A release raised: no"
        );
        let g = Fact::TokenGrows { real: "g" };
        let t = measured(&g, &serde_json::json!({ "g": true }), "A");
        assert_eq!(t, "the next holder's token above A's: yes");
        let f2 = measured(&g, &serde_json::json!({ "g": false }), "A");
        assert_eq!(f2, "the next holder's token above A's: no");
    }

    /// A writing row's real run: B's write, then A's stale one over it, as store.py reports them.
    fn wrote(a: Option<i64>, fin: i64) -> Value {
        let b = serde_json::json!({"client": "B", "snapshot": 500, "value": 450, "at": -1400.0});
        let mut writes = vec![b];
        if let Some(v) = a {
            writes.push(serde_json::json!({"client": "A", "snapshot": 500, "value": v, "at": 1.0}));
        }
        serde_json::json!({"initial balance": 500, "final balance": fin, "writes": writes})
    }

    #[test]
    fn the_outcome_is_the_models_and_the_real_stores_judged_alike() {
        let fin = Fact::Final {
            real: "final balance",
        };
        let m = Model::parse(r#"{"final":440,"lost":"B"}"#, "A").unwrap();
        assert_eq!(modelled(&fin, &m).unwrap(), "final 440");
        assert_eq!(modelled(&Fact::Lost, &m).unwrap(), "lost B");
        let safe = Model::parse(r#"{"final":450,"lost":null}"#, "A").unwrap();
        assert_eq!(modelled(&Fact::Lost, &safe).unwrap(), "lost none");
        // A's stale write over B's: B's update is lost (A read 500, not B's 450).
        assert_eq!(measured(&fin, &wrote(Some(440), 440), "A"), "final 440");
        assert_eq!(measured(&Fact::Lost, &wrote(Some(440), 440), "A"), "lost B");
        // A gave up: B's write stands, nobody's is lost.
        assert_eq!(measured(&Fact::Lost, &wrote(None, 450), "A"), "lost none");
        // A read B's write first: both debits are in the balance.
        let serial = serde_json::json!({"initial balance": 500, "final balance": 390, "writes": [
            {"client": "B", "snapshot": 500, "value": 450},
            {"client": "A", "snapshot": 450, "value": 390}]});
        assert_eq!(measured(&Fact::Lost, &serial, "A"), "lost none");
        // A run without the record is no agreement.
        let none = serde_json::json!({});
        assert_eq!(measured(&Fact::Lost, &none, "A"), "lost unknown");
        assert_eq!(measured(&fin, &none, "A"), "final unknown");
    }
}
