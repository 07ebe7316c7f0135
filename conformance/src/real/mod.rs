//! Runs a leaselab scenario's own scripts for real: each client an OS process of its own (this binary
//! as `client-agent`, agent.rs), real sleeps for `work`, a `pause` (and a timed freeze, `at T: pause A
//! D`) the process stopped by the conductor (`SIGSTOP` … `SIGCONT` to its process group, conductor.rs),
//! a real lock service and a real PostgreSQL table as the storage. The agents report their grants,
//! reads, writes and notes over a pipe, with times on CLOCK_MONOTONIC, which every process shares.
//!
//! - The client's own lease check (`check D`): by its own clock (the time it sent the request that
//!   granted or renewed the lease, plus the TTL), at least D left, else it gives the attempt up.
//! - The lock service is a [`service::RealService`] (service.rs): each in files of its own,
//!   `real/NAME*.rs` for its client side and how the suite runs it, `NAME.rs` for its server; the
//!   harness plays every service through that one interface. Adding a real service is its files and
//!   one line in [`service::SERVICES`].
//! - A cut between a client and the lock service (`cut A n1`): the client's link of the suite's proxy
//!   goes silent, its connection open (Curator's rows, curator_lock.rs).
//! - A write the network holds (`write … delay D`): each client's storage connection through a link
//!   of the proxy of its own, held until the write's arrival on the timeline (delayed_write.rs).
//! - The storage is one row `account(balance, version, token, owner)`; each policy is one conditional
//!   statement (see storage.rs), so the guard is enforced by PostgreSQL itself.
//!
//! Every wait is bounded: statements by `statement_timeout`, redis by socket timeouts, retry loops, an
//! agent's wait for the conductor and the run as a whole by a deadline; every agent is killed and
//! reaped when the run ends, however it ends.

mod agent;
mod conductor;
mod curator_lock;
mod delayed_write;
mod dynamodb_client;
mod dynamodb_lock;
mod etcd_lock;
mod etcd_probe;
mod failover;
mod faults;
pub mod mysql_lock;
pub mod object_storage;
mod player;
mod proxy;
mod record;
mod redis_lock;
mod redlock_links;
mod redlock_lock;
pub mod service;
mod session_lock;
mod storage;
pub(crate) mod sys;
mod wallclock;
mod zk_lock;

use std::ffi::OsString;
use std::time::Duration;

use leaselab::client::{Dur, Op};
use leaselab::clock::Clock;
use leaselab::scenario::{FaultAction, Scenario};
use leaselab::store::Policy;

use crate::servers::{Postgres, Res};

pub use agent::agent_main;
use object_storage::{ObjectServer, Store};
pub use record::RealRun;
use record::Shared;
use service::{Attempt, LockServers, RealService};
pub use storage::reset;
pub use sys::die_with_parent;
pub use wallclock::{wall_wait_main, WallClock};

/// The advisory lock key of the seed's step 1.
pub const LOCK_KEY: i64 = 424242;
/// The database the scripted runs use (step 1 uses `postgres`, as the seed does).
pub const DB: &str = "leaselab";
/// Longest a scripted run may take in all.
pub(super) const RUN_WITHIN: Duration = Duration::from_secs(60);

/// What a scripted run needs besides the scenario.
pub struct Setup {
    pub policy: Policy,
    /// One value per scenario parameter, in µs.
    pub params: Vec<u64>,
    /// Each grant also takes a fencing token from a PostgreSQL sequence (a service whose
    /// [`RealService::fence_counter`] says it can; see its file). A case using this compares with a
    /// scenario of the same timeline whose service has tokens.
    pub fence_counter: bool,
    /// The case's timeline scale (an agent rebuilds the scenario from its id and this).
    pub scale: u64,
    /// Where the storage lives: PostgreSQL's row, or an object store's object (object_storage.rs).
    pub store: Store,
}

/// The servers a run uses: the storage, and the lock service's for this attempt.
pub struct Servers<'a> {
    pub pg: &'a Postgres,
    /// The work directory: the agents' pid files go in `agents/` there (run.sh's backstop).
    pub work: std::path::PathBuf,
    /// The wall clocks the scenario steps: the lock server's, a node's or a client's.
    pub clocks: Vec<(ClockOf, WallClock)>,
    /// The lock service's servers, started for this attempt.
    pub lock: Box<dyn LockServers + 'a>,
    /// The storage's object store for this attempt, if the storage is one.
    pub objects: Option<ObjectServer>,
}

impl<'a> Servers<'a> {
    /// The servers of one attempt of `sc` on `svc`, in `work` (`tag` names the attempt): fresh wall
    /// clocks (offset 0), then the service's own servers.
    pub fn start(
        svc: &dyn RealService,
        sc: &'a Scenario,
        setup: &'a Setup,
        (pg, suite): (&'a Postgres, Option<&'a dyn std::any::Any>),
        (work, tag, first): (&std::path::Path, &str, bool),
    ) -> Res<Servers<'a>> {
        let clocks = wall_clocks(svc, sc, &work.join(format!("clocks-{tag}")))?;
        let at = Attempt {
            sc,
            setup,
            pg,
            suite,
            work,
            tag,
            first,
            clocks: &clocks,
        };
        let lock = svc.start(&at)?;
        let objects =
            ObjectServer::start(setup.store, &work.join(format!("objects-{tag}")), first)?;
        Ok(Servers {
            pg,
            work: work.to_path_buf(),
            clocks,
            lock,
            objects,
        })
    }
}

/// Whose wall clock a scenario steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockOf {
    /// The single server of the lock service.
    Service,
    /// The lock service's node k.
    Node(u8),
    /// Client c's agent process.
    Client(u8),
}

impl ClockOf {
    /// The scenario's clock for it.
    pub fn clock(self, sc: &Scenario) -> &Clock {
        match self {
            ClockOf::Service => &sc.service.clock,
            ClockOf::Node(k) => sc.service.node_clock(usize::from(k)),
            ClockOf::Client(c) => &sc.clients[usize::from(c)].clock,
        }
    }

    pub fn name(self, sc: &Scenario) -> String {
        match self {
            ClockOf::Service => "redis".into(),
            ClockOf::Node(k) => format!("n{}", k + 1),
            ClockOf::Client(c) => sc.client_name(c).to_string(),
        }
    }
}

/// Every clock of the scenario that takes a step or runs fast or slow, each a [`WallClock`] whose offset file is in `dir`:
/// the servers' the service names, and the clients'. A node whose keys expire on a monotonic clock
/// gets none: no server expires keys on one, and a monotonic clock does not take the step, so its
/// server runs on the machine's true clock (the stand-in, see docs/conformance.md).
fn wall_clocks(
    svc: &dyn RealService,
    sc: &Scenario,
    dir: &std::path::Path,
) -> Res<Vec<(ClockOf, WallClock)>> {
    let mut who = svc.server_clocks(sc);
    who.extend((0..sc.clients.len() as u8).map(ClockOf::Client));
    let mut clocks = Vec::new();
    for w in who {
        let clock = w.clock(sc);
        if (clock.steps.is_empty() && clock.rate_ppm == 0) || clock.monotonic {
            continue;
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let file = dir.join(format!("clock-{}", w.name(sc)));
        clocks.push((w, WallClock::new(dir, file)?));
    }
    Ok(clocks)
}

/// The environment a process of `who` runs with: its wall clock's, if the scenario steps it.
pub fn clock_env(clocks: &[(ClockOf, WallClock)], who: ClockOf) -> Vec<(OsString, OsString)> {
    clocks
        .iter()
        .find(|c| c.0 == who)
        .map_or_else(Vec::new, |c| c.1.env())
}

/// Checks that the real runner can play this scenario: its service has a real server in this suite
/// and every construct it uses has a real counterpart. Returns the service.
pub fn supported(sc: &Scenario, setup: &Setup) -> Res<&'static dyn RealService> {
    let svc = &sc.service;
    let p = &setup.params;
    let no = |what: &str| {
        Err(format!(
            "{}: the real runner has no counterpart for {what}",
            sc.id
        ))
    };
    let Some(real) = service::of(svc.kind) else {
        return no(&format!("{:?} (no real server in this suite)", svc.kind));
    };
    if let Err(what) = clocks_supported(real, sc) {
        return no(what);
    }
    if svc.lock_delay.resolve(p) != 0 && !real.lock_delays() {
        return no("a lock-delay outside a redis lease");
    }
    // A single redis's replica, behind the lag on its own link of the proxy (failover.rs).
    if svc.replica_lag.resolve(p) != 0 && !real.replicates() {
        return no("replica lag outside a single redis");
    }
    if setup.fence_counter && !real.fence_counter() {
        return no("a fence counter outside a session lock");
    }
    if let Some(what) = real.unsupported(sc, setup) {
        return no(what);
    }
    if let Some(what) = object_storage::unsupported(sc, setup) {
        return no(what);
    }
    for c in sc.clients.iter() {
        for op in c.ops.iter() {
            match op {
                Op::Check(_) if !real.client_checks() => {
                    return no("`check` outside a redis lease or a session lock")
                }
                Op::Renew if !real.client_renews() => return no("`renew` outside a redis lease"),
                // The network holds a write on the client's storage link (delayed_write.rs); a
                // session's own connection has no link.
                Op::Write {
                    delay,
                    via_session: true,
                    ..
                } if delay.resolve(p) != 0 => return no("a delayed write through a session"),
                _ => {}
            }
        }
    }
    for f in sc.faults.iter() {
        if !matches!(f.action, FaultAction::Freeze(..)) && !real.plays_fault(&f.action) {
            return no("this fault");
        }
    }
    Ok(real)
}

/// Whether every clock the scenario moves has a real counterpart: a steppable server's or a client
/// process's wall clock (see wallclock.rs), stepped or running fast or slow.
fn clocks_supported(real: &dyn RealService, sc: &Scenario) -> Result<(), &'static str> {
    let svc = &sc.service;
    let mut clocks = vec![&svc.clock];
    clocks.extend(svc.node_clocks.iter());
    clocks.extend(sc.clients.iter().map(|c| &c.clock));
    for clock in clocks {
        wallclock::steps_of(clock)?;
    }
    if sc.clients.iter().any(|c| c.clock.monotonic) {
        return Err("a client on a monotonic clock");
    }
    if (!svc.clock.steps.is_empty() || svc.clock.rate_ppm != 0) && !real.steppable() {
        return Err(
            "a clock step or rate on this lock server (only redis-servers run on a steppable clock)",
        );
    }
    Ok(())
}

pub(super) fn us(d: Dur, params: &[u64]) -> Duration {
    Duration::from_micros(d.resolve(params))
}

/// Runs `sc`'s scripts for real, each client in an agent process of its own. `sc` must pass
/// [`supported`].
pub fn run(sc: &Scenario, setup: &Setup, servers: &mut Servers) -> Res<RealRun> {
    let p = &setup.params[..];
    reset(servers.pg, sc.balance, sc.service.first_token)?;
    if let Some(o) = &servers.objects {
        o.reset(sc.balance)?;
    }
    servers.lock.prepare(sc.service.first_token)?;
    // Every client's connections are opened before the clock starts (the simulator's clients exist
    // from t = 0): each agent says `ready` once its own are.
    let mut agents = conductor::Agents::spawn(sc, setup, servers)?;
    // A moment for every agent to read its `start` before the clock starts.
    let t0_ns = sys::mono_ns() + 100_000_000;
    // A clock that runs fast or slow drifts from t = 0 on, as the model's does.
    for (who, clock) in servers.clocks.iter_mut() {
        clock.run_from(t0_ns, who.clock(sc).rate_ppm)?;
    }
    let shared = Shared::new(agent::instant_of(t0_ns), agents.pids(), sc.balance);
    agents.start(t0_ns);
    let (lock, clocks) = (&mut servers.lock, &mut servers.clocks);
    let mut errors = std::thread::scope(|s| {
        let faults = s.spawn(|| faults::run(sc, p, &shared, lock.as_mut()));
        let steps = s.spawn(|| faults::step_clocks(sc, &shared, clocks));
        let done = || faults.is_finished() && steps.is_finished();
        let mut errors = conductor::conduct(sc, p, &mut agents, &shared, done);
        for (what, thread) in [("faults", faults), ("clock steps", steps)] {
            match thread.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => errors.push(format!("{what}: {e}")),
                Err(_) => errors.push(format!("{what}: the thread panicked")),
            }
        }
        errors
    });
    drop(agents); // every agent process is gone (killed if need be) and reaped
    if !errors.is_empty() {
        errors.dedup();
        return Err(errors.join("; "));
    }
    let mut run = shared.into_run();
    if let Some(o) = &servers.objects {
        run.final_balance = o.balance()?;
        return Ok(run);
    }
    let mut c = servers.pg.connect(DB, "conformance-final")?;
    run.final_balance = c
        .query_one("SELECT balance FROM account WHERE id = 1", &[])
        .map_err(|e| e.to_string())?
        .get(0);
    Ok(run)
}
