//! The table's fault kinds (its columns): what each injects into a service's base scenario, over
//! which bounds. Each is one or more `--inject` texts of [`crate::inject`], so a cell's counterexample
//! is a point `leaselab run --inject` reproduces.

use crate::error::Error;
use crate::scenario::{Scenario, ServiceKind};

/// A column of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    /// The holder (A) freezes at any moment of its hold, for any length.
    Pause,
    /// The holder's write is held on its way to the storage.
    StoreDelay,
    /// Every client's link to the lock service is slow.
    LockDelay,
    /// The lock service's wall clock (a quorum service's first node's) jumps ahead.
    ServerClock,
    /// The holder's wall clock steps back, or ahead.
    ClientClock,
    /// The holder is cut off from the lock service for a while.
    Partition,
    /// The lock service loses state: a single redis fails over to its async replica, a quorum
    /// service's node crashes and restarts; the services whose lock outlives a crash are n/a.
    Failover,
}

/// The slowest link to the lock service the table tries: every call and heartbeat waits it each
/// way, and past a few minutes of it the clients of a service of long sessions (Hazelcast's 300 s,
/// a PostgreSQL session's keepalive) run past the engine's two hours of simulated time.
pub const LINK_DELAY_MAX_US: u64 = 100 * crate::time::SEC;
/// The grid's step: this fraction of the time constant.
pub const STEPS_PER_TIME: u64 = 100;

impl Fault {
    /// Every column, in the table's order.
    pub const ALL: [Fault; 7] = [
        Fault::Pause,
        Fault::StoreDelay,
        Fault::LockDelay,
        Fault::ServerClock,
        Fault::ClientClock,
        Fault::Partition,
        Fault::Failover,
    ];

    /// The name `--fault` and the JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Fault::Pause => "pause",
            Fault::StoreDelay => "store-delay",
            Fault::LockDelay => "lock-delay",
            Fault::ServerClock => "server-clock",
            Fault::ClientClock => "client-clock",
            Fault::Partition => "partition",
            Fault::Failover => "failover",
        }
    }

    /// The fault named `name`, or which names there are.
    pub fn parse(name: &str) -> Result<Fault, Error> {
        Fault::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| Error::BadValue {
                what: format!("fault \"{name}\""),
                why: format!("expected one of {}", names()),
            })
    }

    /// How far the fault's magnitude reaches, in multiples of the service's time constant: four
    /// for a pause, a held write, a clock's step, a cut, a replica's lag and a crashed node's time
    /// down; one for a slow link to the lock service.
    pub fn reach(self) -> u64 {
        match self {
            Fault::LockDelay => 1,
            _ => 4,
        }
    }

    /// The magnitude's bound for a service of time constant `time_us`: [`Fault::reach`] of it, and
    /// for a slow link never over [`LINK_DELAY_MAX_US`].
    pub fn magnitude_max_us(self, time_us: u64) -> u64 {
        let reach = self.reach() * time_us;
        match self {
            Fault::LockDelay => reach.min(LINK_DELAY_MAX_US),
            _ => reach,
        }
    }

    /// The injections that make the fault, one list per variant searched (a client's clock steps
    /// back, then ahead: two searches of one cell). `at` covers the first time constant (the base
    /// scenarios' holder is done within it); a magnitude from 0 to [`Fault::reach`] of them; both
    /// in steps of `time / STEPS_PER_TIME`.
    pub fn injections(self, sc: &Scenario, time_us: u64) -> Vec<Vec<String>> {
        let step = (time_us / STEPS_PER_TIME).max(1);
        let dur = |us: u64| format!("{}ms", crate::time::Millis(us));
        let at = format!("at=0..{}:{}", dur(time_us), dur(step));
        let max = self.magnitude_max_us(time_us);
        let reach = |key: &str| format!("{key}=0..{}:{}", dur(max), dur(step));
        let server = if sc.service.kind.quorum() {
            "n1"
        } else {
            "server"
        };
        match self {
            Fault::Pause => vec![vec![format!("freeze:A,{at},{}", reach("for"))]],
            Fault::StoreDelay => vec![vec![format!("delay:A-store,{}", reach("by"))]],
            Fault::LockDelay => vec![vec![format!("delay:lock,{}", reach("by"))]],
            Fault::ServerClock => vec![vec![format!("step:{server},{at},{}", reach("ahead"))]],
            Fault::ClientClock => ["back", "ahead"]
                .iter()
                .map(|way| vec![format!("step:A,{at},{}", reach(way))])
                .collect(),
            Fault::Partition => vec![vec![format!("cut:A,{at},{}", reach("for"))]],
            // A failover loses only the grants of the replica's lag: at 0 it loses nothing.
            Fault::Failover if sc.service.kind == ServiceKind::Redis => {
                vec![vec![format!("failover:server,{at},{}", reach("lag"))]]
            }
            // The node keeps what the base scenario's `persist` saved (none: redis's default).
            Fault::Failover if sc.service.kind.quorum() => {
                vec![vec![format!("crash:n1,{at},{}", reach("restart"))]]
            }
            // Refused for every other service ([`Fault::not_applicable`] says why).
            Fault::Failover => vec![vec![format!("crash:server,{at}")]],
        }
    }

    /// Why the fault does not apply to `service`, if it does not: the lock service's loss of state,
    /// for the services whose lock outlives a crash of theirs (as their documentation says) or
    /// which the model gives no crash. The other columns apply to every service.
    pub fn not_applicable(self, service: ServiceKind) -> Option<&'static str> {
        if self != Fault::Failover {
            return None;
        }
        // Each service's home says why (its `Facts::NO_FAILOVER`); redis and a quorum service's
        // nodes lose state in the model, and are searched. A service added without a reason is
        // refused by the injection, whose refusal is then the reason.
        service.no_failover()
    }
}

/// The fault names, for messages.
pub fn names() -> String {
    let all: Vec<&str> = Fault::ALL.iter().map(|f| f.name()).collect();
    all.join(", ")
}
