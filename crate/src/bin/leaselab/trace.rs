//! `run --trace`: every event of the run with its time, lane and actor, before the transcript.

use leaselab::scenario::Scenario;
use leaselab::time::Millis;

pub fn print_trace(out: &mut impl std::io::Write, sc: &Scenario, o: &leaselab::Outcome) {
    use leaselab::trace::Kind;
    for e in &o.run.trace {
        let kind = e.kind();
        // Events of the lock servers themselves name the server; others name the client.
        let server = matches!(
            kind,
            Kind::ServerClockStep | Kind::NodeCrashed | Kind::NodeRestarted | Kind::Failover
        );
        let on_node = sc.service.nodes > 1 && kind.lane() == "lock" && kind != Kind::Partition;
        let actor = match (server, on_node) {
            (true, true) => format!("n{}", e.node + 1),
            (true, false) => "server".to_string(),
            (false, true) => format!("{} @n{}", sc.client_name(e.client), e.node + 1),
            (false, false) => sc.client_name(e.client).to_string(),
        };
        let (t, lane, name) = (Millis(e.t.0).to_string(), kind.lane(), kind.name());
        let detail = trace_detail(e.what);
        let _ = writeln!(out, "{t:>10} ms  {lane:<8} {actor} {name}{detail}");
    }
    let _ = writeln!(out);
}

/// The facts `--trace` prints after an event's name: its token, the value read or written, why it
/// was refused, a quorum round's count and validity.
fn trace_detail(what: leaselab::trace::What) -> String {
    use leaselab::store::Refusal;
    use leaselab::trace::What;
    let (token, value, reason) = match what {
        What::Granted { token, .. } | What::LeaseExpired { token } => (token, None, None),
        What::PauseStart { token, .. } => (token, None, None),
        What::Read { token, value, .. } | What::WriteSent { token, value, .. } => {
            (token, Some(value), None)
        }
        What::WriteAccepted { token, value } => (token, Some(value), None),
        What::WriteRejected {
            token,
            value,
            reason,
        } => (token, Some(value), Some(reason)),
        What::ReadRejected { token, reason } => (token, None, Some(reason)),
        What::Denied {
            session_gone: true, ..
        } => (0, None, Some(Refusal::SessionGone)),
        _ => (0, None, None),
    };
    let mut detail = String::new();
    if token != 0 {
        detail.push_str(&format!(" tok={token}"));
    }
    if let Some(v) = value {
        detail.push_str(&format!(" value={v}"));
    }
    if let Some(r) = reason {
        detail.push_str(&format!(" ({})", r.name()));
    }
    if let What::Round {
        granted_nodes,
        validity_us,
        ..
    } = what
    {
        detail.push_str(&format!(" nodes={granted_nodes} validity_us={validity_us}"));
    }
    detail
}
