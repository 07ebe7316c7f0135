//! One interface for a real lock service, and the one list of them.
//!
//! The harness core (main.rs, cases.rs, mod.rs, player.rs, agent.rs, conductor.rs, faults.rs) plays a
//! scenario's scripts and faults without knowing which service it runs on: everything that is about
//! one service — its rows, how the suite starts its server(s) for a row, what a client does to
//! acquire, release or renew and what its grant's token is, how a fault acts on its servers, what the
//! runner cannot play of it, its probes — is that service's [`RealService`], in files whose names
//! carry the service (`real/NAME*.rs` for the client and the service, `NAME.rs` for its server).
//! Adding a real service is its files and one line in [`SERVICES`].

use std::any::Any;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use leaselab::scenario::{FaultAction, Scenario, ServiceKind};

use super::player::{Client, Held, Stop};
use super::record::Shared;
use super::{ClockOf, Setup, WallClock};
use crate::cases::Case;
use crate::coverage::Entry;
use crate::servers::{Postgres, Res};
use crate::Row;

/// Every real service of the suite, one line each, in the order their rows are listed. A kind of
/// lock service that none of them plays has no real server here: its scenarios are refused.
pub static SERVICES: &[&dyn RealService] = &[
    &super::session_lock::PgSession,
    &super::redis_lock::RedisLease,
    &super::redlock_lock::Redlock,
    &super::etcd_lock::EtcdLock,
    &super::zk_lock::ZkLock,
    &super::mysql_lock::MysqlGetLock,
    &super::dynamodb_lock::DynamodbLock,
];

/// The real service that plays `kind`, if the suite has one.
pub fn of(kind: ServiceKind) -> Option<&'static dyn RealService> {
    SERVICES.iter().copied().find(|s| s.kinds().contains(&kind))
}

/// A probe row: a question put to the installed server outside any scenario's script.
pub struct Probe {
    /// What `--only` matches.
    pub id: &'static str,
    /// The row, given the work directory and whether to keep the detail of an agreeing row.
    pub run: fn(&Path, bool) -> Row,
}

/// What one attempt of a row gives a service to start its servers with (they may keep `'a`'s).
pub struct Attempt<'s, 'a> {
    pub sc: &'s Scenario,
    pub setup: &'s Setup,
    pub pg: &'a Postgres,
    /// The service's server for the whole suite, if it has one ([`RealService::start_for_suite`]).
    pub suite: Option<&'a dyn Any>,
    /// The work directory: a server of the attempt goes in `SERVER-TAG` there (conformance/run.sh's
    /// backstop looks for pid files by those names).
    pub work: &'s Path,
    pub tag: &'s str,
    /// The row's first attempt (say the server's version once).
    pub first: bool,
    /// The wall clocks the scenario steps, fresh for the attempt.
    pub clocks: &'s [(ClockOf, WallClock)],
}

/// What a client's agent opened before it says `ready`.
pub struct Conn {
    /// The lock's own connection to PostgreSQL, when the lock lives there (reads and writes `via
    /// session` go through it).
    pub session: Option<postgres::Client>,
    /// The service's client state (its connection, session, lease…), for its own methods to
    /// downcast ([`Client::state`]).
    pub state: Box<dyn Any>,
}

/// A real lock service.
pub trait RealService: Sync {
    /// The scenario service kinds it plays.
    fn kinds(&self) -> &'static [ServiceKind];

    /// Its catalogue scenarios' entries in the table of what each runs on (coverage.rs).
    fn coverage(&self) -> &'static [Entry] {
        &[]
    }

    /// Its rows, in the order the table lists them.
    fn cases(&self) -> Vec<Case> {
        Vec::new()
    }

    /// The file of a scenario its rows play (`id`), as compiled into the suite (checked equal to
    /// leaselab's catalogue, see cases.rs).
    fn scenario_text(&self, _id: &str) -> Option<&'static str> {
        None
    }

    /// Its probe rows (run before the scenario rows).
    fn probes(&self) -> Vec<Probe> {
        Vec::new()
    }

    /// A subcommand of the suite's binary that is this service's (a process of its own a row needs,
    /// a probe): its exit code when `name` is one.
    fn subcommand(&self, _name: &str, _rest: &[String]) -> Option<ExitCode> {
        None
    }

    /// A scenario file's line with the parser's defaults that are durations made explicit, so that a
    /// row's slower timeline scales them too; `None` to leave the line as it is.
    fn explicit_defaults(&self, _line: &str) -> Option<String> {
        None
    }

    /// Whether a grant is a majority of its nodes (the model's `majorities`, not its leases).
    fn majority_grants(&self) -> bool {
        false
    }

    /// What the real runner cannot play of `sc` on this service (beyond the checks every service
    /// shares, see real::supported).
    fn unsupported(&self, _sc: &Scenario, _setup: &Setup) -> Option<&'static str> {
        None
    }

    /// Whether its servers act out this fault (a timed freeze is the conductor's, for every service).
    fn plays_fault(&self, _action: &FaultAction) -> bool {
        false
    }

    /// Whether its client knows when its hold ends (`check` has a counterpart).
    fn client_checks(&self) -> bool {
        false
    }

    /// Whether its client renews its hold (`renew`).
    fn client_renews(&self) -> bool {
        false
    }

    /// Whether it keeps the lock closed for a `lock-delay` after a lease ends without a release.
    fn lock_delays(&self) -> bool {
        false
    }

    /// Whether it has a replica behind a lag (`replica-lag`).
    fn replicates(&self) -> bool {
        false
    }

    /// Whether a grant can also take a fence token from a PostgreSQL sequence (`Setup::fence_counter`).
    fn fence_counter(&self) -> bool {
        false
    }

    /// Whether its servers run on a wall clock the suite can step (see wallclock.rs).
    fn steppable(&self) -> bool {
        false
    }

    /// The server clocks of `sc` the suite steps for it (the client processes' are every service's).
    fn server_clocks(&self, _sc: &Scenario) -> Vec<ClockOf> {
        Vec::new()
    }

    /// Its server for the whole suite, started before the first row that needs it (stopped when
    /// dropped, after the last).
    fn start_for_suite(&self, _work: &Path) -> Res<Option<Box<dyn Any>>> {
        Ok(None)
    }

    /// Its servers for one attempt of a row (fresh where the model's numbering or the scenario's
    /// persistence needs them fresh).
    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>>;

    /// In the client's agent: its connections, opened before the clock starts. `spec` is what
    /// [`LockServers::agent_spec`] said for this client.
    fn connect(&self, sc: &Scenario, setup: &Setup, name: char, spec: &str) -> Res<Conn>;

    /// Whether its lock call blocks until the lock is free rather than answering at once (then the
    /// grant is when it returned, and the script goes on from it).
    fn blocks(&self) -> bool {
        false
    }

    /// One try at the lock: `Some` when granted.
    fn try_acquire(&self, c: &mut Client, value: i64) -> Result<Option<Held>, Stop>;

    /// Gives the hold `h` back.
    fn release(&self, c: &mut Client, h: Held) -> Result<(), Stop>;

    /// `check D` asked of the service's own client (Curator's connection state, say), when it has a
    /// view of its hold that the lease's end by the wall clock does not give; `None`: the player's.
    fn check(&self, _c: &mut Client, _need: Duration) -> Option<Result<(), Stop>> {
        None
    }

    /// `renew` (only asked of a service whose client renews).
    fn renew(&self, _c: &mut Client) -> Result<(), Stop> {
        Err(Stop::Error("renew: the service has no renewal".into()))
    }

    /// Before the client's process is stopped for `d` (a script's `pause`).
    fn before_pause(&self, _c: &mut Client, _d: Duration) -> Result<(), Stop> {
        Ok(())
    }

    /// The random share of the back-off after a denied try, drawn as the model draws it.
    fn backoff_share(&self, _c: &Client) -> Duration {
        Duration::ZERO
    }

    /// The end of the client's script, before its connections close.
    fn finish(&self, _c: &mut Client) {}

    /// Whether the client reports its grants itself, from inside `try_acquire` (else the player
    /// reports each granted try).
    fn reports_grants(&self) -> bool {
        false
    }
}

/// A service's servers for one attempt, stopped when dropped.
pub trait LockServers: Send {
    /// Before the run (after the storage's reset): its state as the scenario starts it, its first
    /// token, and whatever must be open before t = 0.
    fn prepare(&mut self, _first_token: u64) -> Res<()> {
        Ok(())
    }

    /// What client `client`'s agent needs to reach them (no `;`), for [`RealService::connect`].
    fn agent_spec(&self, _client: usize) -> String {
        String::new()
    }

    /// A fault of the scenario, at its time `at` on the run's timeline (now).
    fn fault(
        &mut self,
        _sc: &Scenario,
        _p: &[u64],
        _action: FaultAction,
        _at: Duration,
        _shared: &Shared,
    ) -> Res<()> {
        Err("unsupported fault".into())
    }
}

impl<'a> Client<'a> {
    /// The service's client state, as its own methods know it.
    pub(super) fn state<T: 'static>(&mut self) -> Result<&mut T, Stop> {
        self.state
            .downcast_mut::<T>()
            .ok_or_else(|| Stop::Error("the client's lock state is another service's".into()))
    }
}
