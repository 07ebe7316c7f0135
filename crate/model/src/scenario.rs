//! Scenarios are data: small text files in `crate/scenarios/` (listed, in catalogue order, in
//! `scenarios/index.txt`). The build script parses them with this module's parser and compiles the
//! result into the crate (see `leaselab::catalogue`), so the wasm carries data, not a parser. A writer can
//! add a scenario that combines existing parts without touching the engine. Users' own files go
//! through the same parser (`leaselab check`, `run --file`); their reference, with examples the tests
//! run, is `docs/scenario-format.md`. The summary below is for the code's readers.
//!
//! ```text
//! # comment
//! id: gc-pause
//! group: kleppmann
//! title: A GC pause longer than the lease
//! title.bn: …
//! summary: …
//! summary.bn: …
//! source: M. Kleppmann, "How to do distributed locking" (2016), fig. 8-4
//! derived: what is analysis built on the sources rather than claimed by them (optional)
//! param ttl = 300ms in 10ms..2s: Lease TTL | লিজের TTL
//! param pause = 600ms in 0..3s: A's pause | A-এর বিরতি
//! service: lease ttl=$ttl
//! balance: 500
//! client A: acquire; work 10ms; read; work 10ms; pause $pause; work 10ms; write 60
//! client B: start 10ms; acquire every 50ms; work 10ms; read; work 10ms; write 50; release
//! expect none: final=440 lost=B
//! expect token: final=450 rejected=A
//! expect token +retry: final=390
//! expect none pause=200ms: final=390 lost=none
//! ```
//!
//! Client operations: `acquire [every D] [tries N]`, `read`, `work D`, `pause D`, `check D`,
//! `write DEBIT [delay D]`, `release`, `renew`, `idle` (stay connected, do nothing more); `start D` first. `D` is a duration (`10ms`, `0.3s`) or a
//! parameter (`$ttl`). After the client's name, its clock: `clock=-100000ppm` (rate deviation in parts per
//! million), `step=-200ms@100ms` (at true 100 ms its reading jumps back 200 ms), `monotonic` (ignores
//! steps). The lock server's clock likewise in the service line: `server-step=+300ms@50ms`,
//! `server-monotonic`.
//! Faults: `at D: terminate A` (an admin ends A's database session; needs `service: session`),
//! `at D: pause A D2` (A freezes for D2 wherever it is in its script, replies in flight included),
//! `at D: crash n3 [restart D2]` (a Redlock node crashes, keeping what its persistence saved, and
//! restarts D2 later by its own clock), `at D: restart n3`, `at D: failover` (a single redis's async
//! replica takes over), `at D: cut A n1,n2` / `at D: heal A n1,n2` (a partition between A and nodes).
//! Services: `lease ttl=D [lock-delay=D] [tokens=yes|no] [first-token=N]`, `session [idle=D]`
//! (PostgreSQL advisory lock: no TTL, no tokens; `idle` ends a frozen client's session after that long
//! without keepalives), `redis ttl=D [tokens=incr|no] [replica-lag=D]` (SET NX PX on the server's wall
//! clock; tokens only from INCR on the same redis), `redlock ttl=D [nodes=5] [timeout=D] [jitter=D]
//! [persist=none|everysec|always]` (a majority of independent nodes; validity = TTL − elapsed − drift,
//! drift = 1 % TTL + 2 ms; a failed round unlocks every node and retries after `every` plus a seeded
//! random share of `jitter`), `etcd ttl=D [keepalive=D] [tokens=revision|lease-id|no] [version=3.4|3.5]` (etcd's lock API
//! on a lease kept alive every `keepalive`, a third of the TTL by default; waiters queued by their key's
//! create revision; the naive switch is etcd 3.4's lock, without the waiter check of 3.5),
//! `zookeeper session=D [tick=D] [suspended=error|tolerate] [tokens=czxid|no]` (a session kept alive by
//! pings every third of its timeout; ephemeral sequential nodes, the lowest holds; Curator's
//! SUSPENDED after two thirds of the timeout without a reply, LOST a timeout later; `cut A n1` cuts
//! a client off the server), `dynamodb [lease=D] [heartbeat=D] [wait=D] [tokens=rvn|no]` (the
//! DynamoDB lock client: leaseDuration 20 s, heartbeatPeriod 5 s, additionalTimeToWaitForLock 1 s
//! by default; the item's record version number, a random GUID, is the token; a waiter polls every
//! `acquire every D` — its refreshPeriod, 1 s in the client — and takes the item over once it has seen
//! the same RVN for the lease duration by its own clock), `hazelcast [session-ttl=D] [heartbeat=D] [check=D] [tokens=fence|no]`
//! (Hazelcast's FencedLock on a CP session: heartbeats every `heartbeat` (5 s) that freeze with the
//! client; the CP group closes a session that had none for `session-ttl` (300 s; more than
//! `heartbeat`) at its next expiry check (every `check`, 1 s), releasing its lock; waiters queue on the
//! server; the fence is the Raft commit index of the holder's lock call), `kubernetes [lease=D] [renew-deadline=D] [retry=D] [request-timeout=D]
//! [client-go=1.11|1.12] [tokens=transitions|no]` (client-go's leader election on a Lease object:
//! LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s, a request the API server never answers
//! fails after 60 s; a candidate takes over a lease duration after it last saw the record change, by
//! its own clock; the naive switch is client-go 1.11's renew, whose request the deadline does not
//! bound; `cut A n1` cuts a client off its API server).
//! `consul ttl=D [lock-delay=D]
//! [tokens=lock-index|no]` (a session with a TTL of 10 s to 1 h, 15 s by default, renewed every half
//! TTL and invalidated by the server after twice the TTL without a renewal; its lock released, then
//! closed for the lock-delay, 15 s by default and at most 60 s; the key's LockIndex is the token).
//! Redlock nodes' own clocks: `node n3: step=+300ms@50ms` or
//! `node n3: monotonic`; a client's reachable nodes: `client A reach=n1,n2,n3: …`, and the delay of its
//! links to particular nodes: `client A latency=n1:1ms,n2:3ms: …` (others: `lock-latency`). Any service:
//! `lock-latency=D`, `store-latency=D` (one-way network delay).
//! `read via session` / `write N via session`: the access goes through the session holding the lock.
//! Expectation flags after the policy: `+retry` (a refused client starts over, up to 3 times),
//! `+naive` / `-naive` (the naive switch on / off, whatever the scenario's default: Redlock clients trust
//! a majority of OKs without checking the validity; etcd's lock is 3.4's), `NAME=D` overrides.
//! Expectation keys: `grants=A,B` (who was granted the lock, in order), `final=N`, `expected=N` (the ideal guard's final), `lost=A|B|none` (whose acknowledged update is missing),
//! `rejected=A,B|none` (whose writes the storage refused), `stale=yes|no` (a stale write was accepted),
//! `locked-out=A|none` (whose write the storage refused while it held the lock by right).

use std::borrow::Cow;

use crate::client::{ClientSpec, Dur, Op};
use crate::clock::Clock;
use crate::error::Error;
use crate::store::Policy;
use crate::time::{parse_duration, DURATION_US_MAX, MS, SEC};

/// Text in a scenario: borrowed from the binary for the compiled catalogue, owned when parsed.
pub type Text = Cow<'static, str>;
/// A list in a scenario, likewise: the compiled catalogue is a `static`, with no constructor code.
pub type List<T> = Cow<'static, [T]>;

/// Most clients a scenario may declare.
pub const CLIENTS_MAX: usize = 8;
/// Most operations in one client's script.
pub const OPS_MAX: usize = 64;
/// Most parameters a scenario may declare.
pub const PARAMS_MAX: usize = 16;
/// Longest scenario text, in bytes: a user's file is untrusted (the catalogue's longest is under 6 KB).
pub const TEXT_BYTES_MAX: usize = 64 * 1024;
/// Most faults (`at D: …`) a scenario may declare.
pub const FAULTS_MAX: usize = 32;
/// Most expectation lines: each runs the scenario twice, so this bounds how long checking a file takes.
pub const EXPECTS_MAX: usize = 32;
/// Most steps one clock may take: each reading of a clock sums its steps.
pub const STEPS_MAX: usize = 16;
/// Most errors one parse reports; the rest are likely to follow from the first.
pub const ERRORS_MAX: usize = 20;

/// A tunable number of a scenario, with its range and labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: Text,
    pub default_us: u64,
    pub min_us: u64,
    pub max_us: u64,
    pub label_en: Text,
    pub label_bn: Text,
}

/// What kind of lock service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceKind {
    /// A lease with a TTL on the service's clock, fencing tokens optional.
    Lease,
    /// A PostgreSQL advisory lock: no TTL; held until unlock or until the holder's session ends
    /// (terminated by an admin, or timed out by keepalives while the client is frozen). No tokens.
    Session,
    /// A single redis: `SET key value NX PX ttl` on the server's wall clock, value-checked release.
    /// Tokens only from `INCR` on the same redis (`tokens=incr`), which an async-replica failover
    /// can roll back.
    Redis,
    /// Redlock: `nodes` independent redis servers; a client holds the lock when a majority granted it
    /// and, unless it is naive, the validity `ttl − elapsed − drift` is still positive.
    Redlock,
    /// etcd's lock API (`v3lock`) on a lease the client keeps alive: each waiter's key is queued by its
    /// create revision; the lowest live key holds the lock; a lease that is not kept alive expires and
    /// its keys are deleted. The holder's key revision is the fencing token (or, as `contrib/lock`
    /// does, the lease ID).
    Etcd,
    /// ZooKeeper's lock recipe (as Curator's InterProcessMutex runs it): a session kept alive by
    /// pings, an ephemeral sequential node per contender, the lowest holds, each waiter watches its
    /// predecessor; an expired session's nodes are deleted. The holder's node `czxid` is the token.
    Zookeeper,
    /// The DynamoDB lock client (awslabs): the lock is an item whose record version number (RVN) is
    /// a random GUID; the holder's heartbeats write a new one; a waiter that sees the same RVN for
    /// the lease duration, on its own clock, takes the item over with a put conditional on it. The
    /// RVN is the token (an ID: only equality means anything).
    Dynamodb,
    /// Hazelcast's FencedLock on a CP session kept alive by heartbeats: the CP group closes a session
    /// that sent none for its TTL and releases its lock to the next waiter; the fence (the Raft commit
    /// index of the holder's lock call) is the token.
    Hazelcast,
    /// Kubernetes leader election (client-go's `LeaderElector` on a `coordination.k8s.io` Lease): the
    /// record is updated optimistically (resourceVersion); a candidate takes over once a lease
    /// duration has passed, by its own clock, since it last saw the record change; the leader renews
    /// every retry period and stops leading when it cannot renew within the renew deadline. No token
    /// unless `tokens=transitions` (the record's `leaseTransitions`).
    Kubernetes,
    /// Consul's sessions and KV locks (as the Go client's `api.Lock` uses them): a session with a TTL
    /// renewed every half TTL, invalidated by the server after twice the TTL without a renewal; its
    /// lock is then released and closed for the session's lock-delay. `PUT ?acquire` succeeds on a
    /// key no session holds once no lock-delay is in force; the key's `LockIndex` is the token.
    Consul,
}

impl ServiceKind {
    /// The name scenario files and the run JSON use.
    pub fn name(self) -> &'static str {
        match self {
            ServiceKind::Lease => "lease",
            ServiceKind::Session => "session",
            ServiceKind::Redis => "redis",
            ServiceKind::Redlock => "redlock",
            ServiceKind::Etcd => "etcd",
            ServiceKind::Zookeeper => "zookeeper",
            ServiceKind::Dynamodb => "dynamodb",
            ServiceKind::Hazelcast => "hazelcast",
            ServiceKind::Kubernetes => "kubernetes",
            ServiceKind::Consul => "consul",
        }
    }

    /// Whether the naive switch means something for this service: Redlock clients that trust a
    /// majority of OKs without checking the validity; an etcd server without the waiter check that
    /// etcd 3.4.4 added (it grants a waiter whose lease expired while it waited); client-go before
    /// Kubernetes 1.12, whose renew waits for a hung request past the renew deadline.
    pub fn has_naive(self) -> bool {
        matches!(
            self,
            ServiceKind::Redlock | ServiceKind::Etcd | ServiceKind::Kubernetes
        )
    }
}

/// Which number an etcd holder fences with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtcdToken {
    /// The lock key's create revision: cluster-wide, strictly increasing (what etcd's docs recommend).
    Revision,
    /// The session's lease ID, as etcd's `contrib/lock` example sends it (an ID, not an order).
    LeaseId,
}

/// What a redis node keeps across a crash (`appendfsync`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persist {
    /// No persistence: a restarted node is empty.
    None,
    /// `appendfsync everysec`: keys set since the last whole second of the crash are lost.
    EverySec,
    /// `appendfsync always`: every key survives.
    Always,
}

/// Something that happens to the world at a given time, apart from the clients' scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAction {
    /// An admin terminates the client's database backend (`pg_terminate_backend`): its session ends.
    Terminate(u8),
    /// The client freezes for this long wherever it is in its script — also while replies are in
    /// flight to it: they wait in its socket buffer until it wakes.
    Freeze(u8, Dur),
    /// A redis node crashes (keeping what its persistence mode saved); it restarts after the delay,
    /// measured by its own clock, if one is given.
    Crash(u8, Option<Dur>),
    /// A crashed node restarts.
    Restart(u8),
    /// The single redis master dies and its async replica is promoted: grants (and `INCR`s) made in the
    /// last `replica-lag` before it were never replicated and are gone.
    Failover,
    /// The links between the client and these nodes (bit mask) go down (`true`) or come back.
    Partition(u8, u8, bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub at: Dur,
    pub action: FaultAction,
}

/// The lock service a scenario runs against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceSpec {
    pub kind: ServiceKind,
    /// For sessions: how long a frozen client's session survives without keepalives (0: forever).
    pub idle: Dur,
    pub ttl: Dur,
    pub lock_delay: Dur,
    pub tokens: bool,
    /// One-way network latency between each client and the lock service.
    pub lock_latency: Dur,
    /// One-way network latency between each client and the storage.
    pub store_latency: Dur,
    /// The lock server's clock: leases expire when it says so (redis: the wall clock).
    pub clock: Clock,
    /// How many lock servers: 1, or Redlock's N.
    pub nodes: u8,
    /// Each node's own clock (Redlock), when they differ from `clock`.
    pub node_clocks: List<Clock>,
    /// Redlock: how long a client waits for the nodes' replies before it counts them. DynamoDB:
    /// `additionalTimeToWaitForLock`, how long beyond the lease duration an acquire call keeps
    /// polling before it gives up (1 s by default: the client's `DEFAULT_BUFFER_MS`).
    pub timeout: Dur,
    /// Redlock: the retry delay after a failed attempt is `every` plus a seeded random share of this.
    pub jitter: Dur,
    pub persist: Persist,
    /// Redis: how far the async replica lags behind the master.
    pub replica_lag: Dur,
    /// The first fencing token (Kafka-style epochs need not start at 1).
    pub first_token: u64,
    /// etcd: how often a client sends a keepalive for its lease (`Lit(0)`: a third of the TTL, as
    /// etcd's Go client does). Hazelcast: the CP session heartbeat interval. DynamoDB: the heartbeat
    /// period (5 s by default; `Lit(0)`: no heartbeat thread).
    pub keepalive: Dur,
    /// etcd: what the holder's token is.
    pub etcd_token: EtcdToken,
    /// ZooKeeper: the server's tickTime; a session expires at the first tick after its timeout
    /// (`Lit(0)`: exactly at the timeout). Hazelcast: the period of the CP group's expired-session
    /// check (a session closes at the first check at or after its expiration time).
    pub tick: Dur,
    /// The naive switch's setting when a run does not say: on for an etcd whose lock is 3.4's
    /// (`version=3.4`: what Debian ships), off otherwise.
    pub naive_default: bool,
    /// ZooKeeper: the client keeps acting on its lock while Curator's connection state is SUSPENDED
    /// (SessionConnectionStateErrorPolicy) instead of treating SUSPENDED as losing it (the default).
    pub tolerate_suspended: bool,
    /// Kubernetes: client-go's RenewDeadline, how long the leader keeps trying to renew before it
    /// stops leading (the lease duration, LeaseDuration, is `ttl`).
    pub renew_deadline: Dur,
    /// Kubernetes: client-go's RetryPeriod, how often a candidate tries to acquire and the leader
    /// renews.
    pub retry_period: Dur,
    /// Kubernetes: how long a request the API server does not answer takes to fail.
    pub request_timeout: Dur,
}

impl ServiceSpec {
    /// Node `i`'s clock.
    pub fn node_clock(&self, i: usize) -> &Clock {
        self.node_clocks.get(i).unwrap_or(&self.clock)
    }

    /// A majority of the nodes.
    pub fn quorum(&self) -> u8 {
        self.nodes / 2 + 1
    }

    /// Redlock's clock-drift allowance: 1 % of the TTL plus 2 ms (Redis docs).
    pub fn drift(ttl_us: u64) -> u64 {
        ttl_us / 100 + 2 * MS
    }
}

/// Whose update went missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    Nobody,
    Client(u8),
}

/// An expected outcome for one policy (and optionally different parameters), checked by the tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    pub policy: Policy,
    pub retry: bool,
    /// The naive switch for this expectation (`+naive` on, `-naive` off); `None`: the scenario's default.
    pub naive: Option<bool>,
    /// Parameter overrides `(index, value)` for this expectation.
    pub overrides: List<(u8, u64)>,
    pub final_balance: Option<i64>,
    /// The ideal guard's final balance (`expected` in the outcome).
    pub expected: Option<i64>,
    pub lost: Option<Lost>,
    pub rejected: Option<List<u8>>,
    pub stale: Option<bool>,
    /// The clients granted the lock, in order.
    pub grants: Option<List<u8>>,
    /// Whose write the storage refused while it was the lock's rightful holder.
    pub locked_out: Option<Lost>,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub id: Text,
    pub group: Text,
    pub title_en: Text,
    pub title_bn: Text,
    pub summary_en: Text,
    pub summary_bn: Text,
    pub source: Text,
    pub derived: Text,
    pub params: List<ParamSpec>,
    pub service: ServiceSpec,
    pub balance: i64,
    pub clients: List<ClientSpec>,
    pub faults: List<Fault>,
    pub expects: List<Expectation>,
}

impl Scenario {
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// The index of parameter `name`, or the error that names the parameters the scenario has.
    pub fn param_index_or_err(&self, name: &str) -> Result<usize, Error> {
        self.param_index(name).ok_or_else(|| Error::UnknownParam {
            scenario: self.id.to_string(),
            name: name.to_string(),
            known: self.param_names(),
        })
    }

    pub fn defaults(&self) -> Vec<u64> {
        self.params.iter().map(|p| p.default_us).collect()
    }

    pub fn param_names(&self) -> String {
        if self.params.is_empty() {
            return "no parameters".to_string();
        }
        self.params
            .iter()
            .map(|p| &*p.name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn client_name(&self, i: u8) -> char {
        self.clients.get(usize::from(i)).map_or('?', |c| c.name)
    }

    /// Checks a parameter value against its range.
    pub fn check_param(&self, index: usize, value_us: u64) -> Result<(), Error> {
        let p = &self.params[index];
        if value_us < p.min_us || value_us > p.max_us {
            return Err(Error::ParamOutOfRange {
                name: p.name.to_string(),
                value_us,
                min_us: p.min_us,
                max_us: p.max_us,
            });
        }
        Ok(())
    }

    /// Sets `name` in `values`, checking that the scenario has it and that it is in range.
    pub fn set_param(&self, values: &mut [u64], name: &str, value_us: u64) -> Result<(), Error> {
        let i = self.param_index_or_err(name)?;
        self.check_param(i, value_us)?;
        values[i] = value_us;
        Ok(())
    }

    /// Parses one scenario file; the first error if it does not parse.
    pub fn parse(text: &str) -> Result<Scenario, Error> {
        Scenario::parse_all(text).map_err(|mut errors| errors.swap_remove(0))
    }

    /// Parses one scenario file, or reports every line that does not parse (at most [`ERRORS_MAX`],
    /// never none), each with its line and column: a user's file is easier to fix all at once. A line
    /// with an error is skipped, so later errors may follow from it (a client whose line failed is
    /// unknown to the expectations after it).
    pub fn parse_all(text: &str) -> Result<Scenario, Vec<Error>> {
        if text.len() > TEXT_BYTES_MAX {
            return Err(vec![Error::Scenario {
                id: String::new(),
                line: 1,
                col: 1,
                why: format!(
                    "the text is {} bytes; a scenario may be at most {TEXT_BYTES_MAX} bytes",
                    text.len()
                ),
            }]);
        }
        Parser::default().parse(text)
    }
}

#[derive(Default)]
struct Parser<'t> {
    sc: Option<Scenario>,
    line: usize,
    /// The current line as written, to turn a word of it into a column.
    raw: &'t str,
    /// The column (from 1, in characters) of the word being read: where an error points.
    col: usize,
    errors: Vec<Error>,
    /// A `service:` line was read (there may be one).
    service_seen: bool,
}

/// The longest error message, in characters: it quotes the user's text, which may be a 64 KB line.
const MESSAGE_CHARS_MAX: usize = 300;

/// An error message as shown: one line of plain text (control characters escaped), not a screenful
/// (cut short at [`MESSAGE_CHARS_MAX`] characters).
fn shown(why: String) -> String {
    if why.chars().all(|c| !c.is_control()) && why.chars().count() <= MESSAGE_CHARS_MAX {
        return why;
    }
    let mut out = String::new();
    let mut room = MESSAGE_CHARS_MAX;
    for c in why.chars() {
        let piece: String = if c.is_control() {
            c.escape_default().collect()
        } else {
            c.to_string()
        };
        let n = piece.chars().count();
        if n >= room {
            out.push('…');
            break;
        }
        room -= n;
        out.push_str(&piece);
    }
    out
}

fn split_key(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    Some((k.trim(), v.trim()))
}

impl<'t> Parser<'t> {
    fn err(&self, why: impl Into<String>) -> Error {
        let id = self
            .sc
            .as_ref()
            .map_or_else(String::new, |s| s.id.to_string());
        Error::Scenario {
            id,
            line: self.line,
            col: self.col,
            why: shown(why.into()),
        }
    }

    /// Points later errors at `word`, a part of the current line (anything else leaves them where
    /// they were): the column of its first character.
    fn focus(&mut self, word: &str) {
        let offset = (word.as_ptr() as usize).wrapping_sub(self.raw.as_ptr() as usize);
        if let Some(before) = self.raw.get(..offset) {
            self.col = before.chars().count() + 1;
        }
    }

    fn sc(&mut self) -> &mut Scenario {
        self.sc.get_or_insert(Scenario {
            id: Text::Borrowed(""),
            group: Text::Borrowed(""),
            title_en: Text::Borrowed(""),
            title_bn: Text::Borrowed(""),
            summary_en: Text::Borrowed(""),
            summary_bn: Text::Borrowed(""),
            source: Text::Borrowed(""),
            derived: Text::Borrowed(""),
            params: List::Borrowed(&[]),
            service: ServiceSpec {
                kind: ServiceKind::Lease,
                idle: Dur::Lit(0),
                ttl: Dur::Lit(300 * MS),
                lock_delay: Dur::Lit(0),
                tokens: true,
                lock_latency: Dur::Lit(0),
                store_latency: Dur::Lit(0),
                clock: Clock::PERFECT,
                nodes: 1,
                node_clocks: List::Borrowed(&[]),
                timeout: Dur::Lit(10 * MS),
                jitter: Dur::Lit(0),
                persist: Persist::None,
                replica_lag: Dur::Lit(0),
                first_token: 1,
                keepalive: Dur::Lit(0),
                etcd_token: EtcdToken::Revision,
                tick: Dur::Lit(0),
                tolerate_suspended: false,
                naive_default: false,
                renew_deadline: Dur::Lit(10_000 * MS),
                retry_period: Dur::Lit(2_000 * MS),
                request_timeout: Dur::Lit(60_000 * MS),
            },
            balance: 500,
            clients: List::Borrowed(&[]),
            faults: List::Borrowed(&[]),
            expects: List::Borrowed(&[]),
        })
    }

    fn parse(mut self, text: &'t str) -> Result<Scenario, Vec<Error>> {
        for (n, raw) in text.lines().enumerate() {
            (self.line, self.raw) = (n + 1, raw);
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            self.focus(line);
            if let Err(e) = self.line_(line) {
                self.errors.push(e);
                if self.errors.len() == ERRORS_MAX {
                    break;
                }
            }
        }
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        self.whole().map_err(|e| vec![e])
    }

    /// The checks on the file as a whole, once every line has parsed.
    fn whole(mut self) -> Result<Scenario, Error> {
        let sc = self.sc.take().ok_or_else(|| Error::Scenario {
            id: String::new(),
            line: 0,
            col: 0,
            why: "empty scenario".into(),
        })?;
        for (what, value) in [
            ("id", &*sc.id),
            ("title", &*sc.title_en),
            ("summary", &*sc.summary_en),
        ] {
            if value.is_empty() {
                return Err(Error::Scenario {
                    id: sc.id.to_string(),
                    line: 0,
                    col: 0,
                    why: format!("missing `{what}:`"),
                });
            }
        }
        if sc.clients.is_empty() {
            return Err(Error::Scenario {
                id: sc.id.to_string(),
                line: 0,
                col: 0,
                why: "no clients".into(),
            });
        }
        Self::check_kubernetes(&sc)?;
        Ok(sc)
    }

    fn line_(&mut self, line: &'t str) -> Result<(), Error> {
        if let Some(rest) = line.strip_prefix("param ") {
            return self.param(rest);
        }
        if let Some(rest) = line.strip_prefix("client ") {
            return self.client(rest);
        }
        if let Some(rest) = line.strip_prefix("expect ") {
            return self.expect(rest);
        }
        if let Some(rest) = line.strip_prefix("at ") {
            return self.fault(rest);
        }
        if let Some(rest) = line.strip_prefix("node ") {
            return self.node(rest);
        }
        let (key, value) = split_key(line)
            .ok_or_else(|| self.err(format!("expected `key: value`, got \"{line}\"")))?;
        self.focus(value);
        match key {
            "id" => {
                if value.is_empty()
                    || !value
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                {
                    return Err(self.err("id must be lowercase letters, digits and dashes"));
                }
                self.sc().id = value.to_string().into();
            }
            "group" => self.sc().group = value.to_string().into(),
            "title" => self.sc().title_en = value.to_string().into(),
            "title.bn" => self.sc().title_bn = value.to_string().into(),
            "summary" => self.sc().summary_en = value.to_string().into(),
            "summary.bn" => self.sc().summary_bn = value.to_string().into(),
            "source" => self.sc().source = value.to_string().into(),
            "derived" => self.sc().derived = value.to_string().into(),
            "balance" => {
                let b: i64 = value
                    .parse()
                    .map_err(|_| self.err("balance must be an integer"))?;
                if !(0..=1_000_000_000).contains(&b) {
                    return Err(self.err("balance must be between 0 and 1e9"));
                }
                self.sc().balance = b;
            }
            "service" => self.service(value)?,
            other => {
                self.focus(other);
                return Err(self.err(format!("unknown key \"{other}\"")));
            }
        }
        Ok(())
    }

    fn dur(&mut self, text: &str) -> Result<Dur, Error> {
        self.focus(text);
        if let Some(name) = text.strip_prefix('$') {
            let i = self.sc().param_index(name).ok_or_else(|| {
                self.err(format!(
                    "unknown parameter ${name} (declare it with `param` first)"
                ))
            })?;
            return Ok(Dur::Param(i as u8));
        }
        parse_duration(text)
            .map(Dur::Lit)
            .map_err(|e| self.err(e.to_string()))
    }

    fn param(&mut self, rest: &str) -> Result<(), Error> {
        // name = default in min..max: English label | Bengali label
        let (spec, labels) = rest
            .split_once(':')
            .ok_or_else(|| self.err("param needs `: label`"))?;
        let (name, range) = spec
            .split_once('=')
            .ok_or_else(|| self.err("param needs `name = default in min..max`"))?;
        let (default, bounds) = range
            .split_once(" in ")
            .ok_or_else(|| self.err("param needs `in min..max`"))?;
        let (min, max) = bounds
            .trim()
            .split_once("..")
            .ok_or_else(|| self.err("range must be `min..max`"))?;
        let mut us = [0; 3];
        for (slot, text) in us.iter_mut().zip([default, min, max]) {
            self.focus(text.trim());
            *slot = parse_duration(text.trim()).map_err(|e| self.err(e.to_string()))?;
        }
        let [default_us, min_us, max_us] = us;
        if !(min_us <= default_us && default_us <= max_us) {
            self.focus(default.trim());
            return Err(self.err("default must lie within min..max"));
        }
        let (en, bn) = labels.split_once('|').unwrap_or((labels, labels));
        let name = name.trim();
        self.focus(name);
        self.param_name(name)?;
        let name = name.to_string();
        self.sc().params.to_mut().push(ParamSpec {
            name: name.into(),
            default_us,
            min_us,
            max_us,
            label_en: en.trim().to_string().into(),
            label_bn: bn.trim().to_string().into(),
        });
        Ok(())
    }

    /// A new parameter's name: a word (`$name` must find it) that is not declared yet, within the limit.
    fn param_name(&mut self, name: &str) -> Result<(), Error> {
        let word = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !word {
            return Err(self.err(format!(
                "parameter name \"{name}\" must start with a lowercase letter and hold only lowercase letters, digits, - and _"
            )));
        }
        if self.sc().param_index(name).is_some() {
            return Err(self.err(format!("parameter {name} declared twice")));
        }
        if self.sc().params.len() >= PARAMS_MAX {
            return Err(self.err(format!(
                "too many parameters; a scenario may declare at most {PARAMS_MAX}"
            )));
        }
        Ok(())
    }

    fn service(&mut self, value: &str) -> Result<(), Error> {
        self.service_first()?;
        let mut words = value.split_whitespace();
        match words.next() {
            Some("lease") => self.sc().service.kind = ServiceKind::Lease,
            Some("session") => {
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Session;
                svc.tokens = false;
            }
            Some("redis") => {
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Redis;
                svc.tokens = false;
            }
            Some("redlock") => {
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Redlock;
                svc.tokens = false;
                svc.nodes = 5;
            }
            Some("etcd") => self.sc().service.kind = ServiceKind::Etcd,
            Some("zookeeper") => {
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Zookeeper;
                svc.ttl = Dur::Lit(6_000 * MS);
            }
            Some("consul") => {
                // api.Lock's DefaultLockSessionTTL, and the lock-delay a session gets by default.
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Consul;
                svc.ttl = Dur::Lit(15 * SEC);
                svc.lock_delay = Dur::Lit(15 * SEC);
            }
            Some("dynamodb") => {
                // The lock client's defaults (AmazonDynamoDBLockClientOptions, DEFAULT_BUFFER_MS).
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Dynamodb;
                svc.ttl = Dur::Lit(20_000 * MS);
                svc.keepalive = Dur::Lit(5_000 * MS);
                svc.timeout = Dur::Lit(1_000 * MS);
            }
            Some("hazelcast") => {
                // CPSubsystemConfig's defaults: session-time-to-live-seconds 300, session-heartbeat-
                // interval-seconds 5; RaftSessionService checks for expired sessions every second.
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Hazelcast;
                svc.ttl = Dur::Lit(300_000 * MS);
                svc.keepalive = Dur::Lit(5_000 * MS);
                svc.tick = Dur::Lit(1_000 * MS);
            }
            Some("kubernetes") => {
                let svc = &mut self.sc().service;
                svc.kind = ServiceKind::Kubernetes;
                svc.tokens = false; // client-go hands the leader no token
                svc.ttl = Dur::Lit(15_000 * MS);
            }
            other => {
                return Err(self.err(format!(
                    "unknown lock service \"{}\"; expected lease, session, redis, redlock, etcd, zookeeper, hazelcast, kubernetes, consul or dynamodb",
                    other.unwrap_or("")
                )))
            }
        }
        for w in words {
            self.focus(w);
            if let Some(sv) = w.strip_prefix("server-") {
                let mut clock = self.sc().service.clock.clone();
                self.clock_setting(&mut clock, sv)
                    .ok_or_else(|| self.err(format!("unknown server clock setting \"{w}\"; expected server-step=±BY@AT or server-monotonic")))??;
                self.sc().service.clock = clock;
                continue;
            }
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| self.err(format!("expected key=value, got \"{w}\"")))?;
            self.service_setting(k, v)?;
        }
        if self.sc().service.kind == ServiceKind::Consul {
            self.consul_bounds()?;
        }
        self.check_hazelcast()
    }

    /// One `service:` line, before anything that depends on it (a client's `renew`, a node's name).
    fn service_first(&mut self) -> Result<(), Error> {
        if std::mem::replace(&mut self.service_seen, true) {
            return Err(self.err("`service:` declared twice"));
        }
        let sc = self.sc();
        if !(sc.clients.is_empty() && sc.faults.is_empty() && sc.expects.is_empty()) {
            return Err(
                self.err("`service:` must come before clients, nodes, faults and expectations")
            );
        }
        Ok(())
    }

    /// Consul refuses a session TTL outside 10 s … 24 h (`SessionTTLMin`, `SessionTTLMax`; here at most
    /// the longest duration, an hour) and caps a lock-delay at 60 s (`MaxLockDelay`): a scenario that
    /// asks for more, literally or by a parameter's range, is an error rather than a silent clamp.
    fn consul_bounds(&mut self) -> Result<(), Error> {
        let (ttl, delay) = (self.sc().service.ttl, self.sc().service.lock_delay);
        let span = |sc: &Scenario, d: Dur| match d {
            Dur::Lit(us) => (us, us),
            Dur::Param(i) => {
                let p = &sc.params[usize::from(i)];
                (p.min_us, p.max_us)
            }
        };
        let (lo, hi) = span(self.sc(), ttl);
        if lo < 10 * SEC || hi > DURATION_US_MAX {
            return Err(self.err("Consul's session TTL must be between 10s and 1 hour"));
        }
        let (_, hi) = span(self.sc(), delay);
        if hi > 60 * SEC {
            return Err(self.err("Consul's lock-delay is at most 60s (MaxLockDelay)"));
        }
        Ok(())
    }

    /// Hazelcast refuses a session TTL that is not longer than the heartbeat interval
    /// (CPSubsystemConfig); checked where both are numbers (a parameter's range is the scenario's).
    fn check_hazelcast(&mut self) -> Result<(), Error> {
        let svc = &self.sc().service;
        if svc.kind != ServiceKind::Hazelcast {
            return Ok(());
        }
        match (svc.ttl, svc.keepalive, svc.tick) {
            (_, Dur::Lit(0), _) => Err(self.err("heartbeat must be positive")),
            (_, _, Dur::Lit(0)) => Err(self.err("check must be positive")),
            (Dur::Lit(ttl), Dur::Lit(hb), _) if ttl <= hb => Err(self
                .err("session-ttl must be longer than heartbeat (Hazelcast's CPSubsystemConfig)")),
            _ => Ok(()),
        }
    }

    /// One `key=value` setting of a service.
    fn service_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        match k {
            "ttl" => self.sc().service.ttl = self.dur(v)?,
            "lock-delay" => self.sc().service.lock_delay = self.dur(v)?,
            "lock-latency" => self.sc().service.lock_latency = self.dur(v)?,
            "store-latency" => self.sc().service.store_latency = self.dur(v)?,
            "idle" => self.sc().service.idle = self.dur(v)?,
            "tokens" => self.tokens_setting(v)?,
            "session" | "tick" | "suspended" => self.zookeeper_setting(k, v)?,
            // `heartbeat` is DynamoDB's or Hazelcast's, `lease` DynamoDB's or Kubernetes's: by service.
            "heartbeat" | "lease" | "wait" if self.sc().service.kind == ServiceKind::Dynamodb => {
                self.dynamodb_setting(k, v)?
            }
            "wait" => self.dynamodb_setting(k, v)?,
            "session-ttl" | "heartbeat" | "check" => self.hazelcast_setting(k, v)?,
            "lease" | "renew-deadline" | "retry" | "request-timeout" | "client-go" => {
                self.kubernetes_setting(k, v)?
            }
            "version" => {
                if self.sc().service.kind != ServiceKind::Etcd {
                    return Err(self.err("version needs `service: etcd`"));
                }
                self.sc().service.naive_default = match v {
                    "3.4" => true,
                    "3.5" => false,
                    _ => return Err(self.err("etcd's version must be 3.4 or 3.5")),
                };
            }
            "keepalive" => {
                if self.sc().service.kind != ServiceKind::Etcd {
                    return Err(self.err("keepalive needs `service: etcd`"));
                }
                self.sc().service.keepalive = self.dur(v)?;
            }
            "first-token" => {
                self.sc().service.first_token = v
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| self.err("first-token must be a positive integer"))?
            }
            "nodes" => {
                let n: u8 = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=7).contains(n) && n % 2 == 1)
                    .ok_or_else(|| self.err("nodes must be 1, 3, 5 or 7"))?;
                if self.sc().service.kind != ServiceKind::Redlock {
                    return Err(self.err("nodes needs `service: redlock`"));
                }
                self.sc().service.nodes = n;
            }
            "timeout" => self.sc().service.timeout = self.dur(v)?,
            "jitter" => self.sc().service.jitter = self.dur(v)?,
            "replica-lag" => self.sc().service.replica_lag = self.dur(v)?,
            "persist" => {
                self.sc().service.persist = match v {
                    "none" => Persist::None,
                    "everysec" => Persist::EverySec,
                    "always" => Persist::Always,
                    _ => return Err(self.err("persist must be none, everysec or always")),
                }
            }
            other => return Err(self.err(format!("unknown service setting \"{other}\""))),
        }
        Ok(())
    }

    /// `tokens=…`: whether (and, for etcd, which) fencing token the service hands out, in its own word.
    fn tokens_setting(&mut self, v: &str) -> Result<(), Error> {
        let kind = self.sc().service.kind;
        self.sc().service.tokens = match (v, kind) {
            ("yes", ServiceKind::Lease) | ("incr", ServiceKind::Redis) => true,
            ("revision", ServiceKind::Etcd) | ("czxid", ServiceKind::Zookeeper) => true,
            ("rvn", ServiceKind::Dynamodb) => true,
            ("fence", ServiceKind::Hazelcast) => true,
            ("transitions", ServiceKind::Kubernetes) => true,
            ("lock-index", ServiceKind::Consul) => true,
            ("lease-id", ServiceKind::Etcd) => {
                self.sc().service.etcd_token = EtcdToken::LeaseId;
                true
            }
            ("no", _) => false,
            _ => {
                return Err(self.err(
                    "tokens must be yes or no (lease), incr or no (redis), revision, lease-id or no (etcd), czxid or no (zookeeper), fence or no (hazelcast), transitions or no (kubernetes), lock-index or no (consul), rvn or no (dynamodb)",
                ))
            }
        };
        Ok(())
    }

    /// ZooKeeper's own settings: `session=D` (the session timeout), `tick=D`, `suspended=error|tolerate`.
    fn zookeeper_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        if self.sc().service.kind != ServiceKind::Zookeeper {
            return Err(self.err(format!("{k} needs `service: zookeeper`")));
        }
        match k {
            "session" => self.sc().service.ttl = self.dur(v)?,
            "tick" => self.sc().service.tick = self.dur(v)?,
            _ => {
                self.sc().service.tolerate_suspended = match v {
                    "error" => false,
                    "tolerate" => true,
                    _ => return Err(self.err("suspended must be error or tolerate")),
                }
            }
        }
        Ok(())
    }

    /// The DynamoDB lock client's own settings: `lease=D` (leaseDuration), `heartbeat=D`
    /// (heartbeatPeriod; 0: no heartbeat thread), `wait=D` (additionalTimeToWaitForLock).
    fn dynamodb_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        if self.sc().service.kind != ServiceKind::Dynamodb {
            return Err(self.err(format!("{k} needs `service: dynamodb`")));
        }
        let d = self.dur(v)?;
        let svc = &mut self.sc().service;
        match k {
            "lease" => svc.ttl = d,
            "heartbeat" => svc.keepalive = d,
            _ => svc.timeout = d,
        }
        Ok(())
    }

    /// Hazelcast's own settings: `session-ttl=D` (session-time-to-live-seconds), `heartbeat=D`
    /// (session-heartbeat-interval-seconds), `check=D` (the expired-session check's period).
    fn hazelcast_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        if self.sc().service.kind != ServiceKind::Hazelcast {
            let or = if k == "heartbeat" {
                " or `service: dynamodb`"
            } else {
                ""
            };
            return Err(self.err(format!("{k} needs `service: hazelcast`{or}")));
        }
        let d = self.dur(v)?;
        let svc = &mut self.sc().service;
        match k {
            "session-ttl" => svc.ttl = d,
            "heartbeat" => svc.keepalive = d,
            _ => svc.tick = d,
        }
        Ok(())
    }

    /// Kubernetes's own settings: client-go's `lease=D` (LeaseDuration), `renew-deadline=D`,
    /// `retry=D` (RetryPeriod), the API server's `request-timeout=D`, and `client-go=1.11|1.12`.
    fn kubernetes_setting(&mut self, k: &str, v: &str) -> Result<(), Error> {
        if self.sc().service.kind != ServiceKind::Kubernetes {
            let or = if k == "lease" {
                " or `service: dynamodb`"
            } else {
                ""
            };
            return Err(self.err(format!("{k} needs `service: kubernetes`{or}")));
        }
        match k {
            "lease" => self.sc().service.ttl = self.dur(v)?,
            "renew-deadline" => self.sc().service.renew_deadline = self.dur(v)?,
            "retry" => self.sc().service.retry_period = self.dur(v)?,
            "request-timeout" => self.sc().service.request_timeout = self.dur(v)?,
            _ => {
                self.sc().service.naive_default = match v {
                    "1.11" => true,
                    "1.12" => false,
                    _ => return Err(self.err("client-go must be 1.11 or 1.12")),
                }
            }
        }
        Ok(())
    }

    /// client-go's own checks (`NewLeaderElector`), on the defaults: LeaseDuration > RenewDeadline >
    /// JitterFactor (1.2) × RetryPeriod > 0. A run with other values is the lab's to try.
    fn check_kubernetes(sc: &Scenario) -> Result<(), Error> {
        let svc = &sc.service;
        if svc.kind != ServiceKind::Kubernetes {
            return Ok(());
        }
        let d = sc.defaults();
        let (lease, renew) = (svc.ttl.resolve(&d), svc.renew_deadline.resolve(&d));
        let (retry, timeout) = (
            svc.retry_period.resolve(&d),
            svc.request_timeout.resolve(&d),
        );
        let why = if lease <= renew {
            "the lease duration must be longer than the renew deadline (client-go refuses it)"
        } else if renew * 5 <= retry * 6 {
            "the renew deadline must be longer than 1.2 × the retry period (client-go refuses it)"
        } else if retry == 0 || timeout == 0 {
            "the retry period and the request timeout must be longer than zero"
        } else {
            return Ok(());
        };
        Err(Error::Scenario {
            id: sc.id.to_string(),
            line: 0,
            col: 0,
            why: why.into(),
        })
    }

    /// One clock setting: `clock=Nppm` (rate), `step=±BY@AT` (the reading steps by BY at true time AT),
    /// `monotonic`. `None` when `w` is not a clock setting.
    fn clock_setting(&mut self, clock: &mut Clock, w: &str) -> Option<Result<(), Error>> {
        if w == "monotonic" {
            clock.monotonic = true;
            return Some(Ok(()));
        }
        if let Some(rate) = w.strip_prefix("clock=").and_then(|r| r.strip_suffix("ppm")) {
            return Some(
                match rate
                    .parse::<i64>()
                    .ok()
                    .filter(|r| (-500_000..=500_000).contains(r))
                {
                    Some(r) => {
                        clock.rate_ppm = r;
                        Ok(())
                    }
                    None => Err(self.err("clock rate must be between -500000ppm and 500000ppm")),
                },
            );
        }
        let step = w.strip_prefix("step=")?;
        let parsed = step.split_once('@').and_then(|(by, at)| {
            let at = parse_duration(at).ok()?;
            let (sign, mag) = match by.as_bytes().first()? {
                b'-' => (-1, &by[1..]),
                b'+' => (1, &by[1..]),
                _ => (1, by),
            };
            Some((at, sign * i64::try_from(parse_duration(mag).ok()?).ok()?))
        });
        Some(match parsed {
            Some(_) if clock.steps.len() >= STEPS_MAX => Err(self.err(format!(
                "too many clock steps; a clock may take at most {STEPS_MAX}"
            ))),
            Some((at, by)) if clock.steps.last().is_none_or(|&(prev, _)| prev < at) => {
                clock.steps.to_mut().push((at, by));
                Ok(())
            }
            Some(_) => Err(self.err("clock steps must be in time order")),
            None => Err(self.err(format!(
                "bad clock step \"{step}\"; expected step=±BY@AT like step=+300ms@50ms"
            ))),
        })
    }

    /// `node n3: step=+300ms@50ms` or `node n3: monotonic`: one Redlock node's own clock.
    fn node(&mut self, rest: &str) -> Result<(), Error> {
        let (name, settings) = rest
            .split_once(':')
            .ok_or_else(|| self.err("node needs `nK: clock settings`"))?;
        self.focus(name.trim());
        let k = self.node_index(name.trim())?;
        let svc = &self.sc().service;
        let mut clocks: Vec<Clock> = (0..usize::from(svc.nodes))
            .map(|i| svc.node_clock(i).clone())
            .collect();
        for w in settings.split_whitespace() {
            self.focus(w);
            self.clock_setting(&mut clocks[usize::from(k)], w)
                .ok_or_else(|| self.err(format!("unknown node setting \"{w}\"; expected clock=Nppm, step=±BY@AT or monotonic")))??;
        }
        self.sc().service.node_clocks = clocks.into();
        Ok(())
    }

    /// `n1` … `nN` → 0 … N−1, for a Redlock service declared before.
    fn node_index(&mut self, name: &str) -> Result<u8, Error> {
        self.focus(name);
        let n = self.sc().service.nodes;
        if !matches!(
            self.sc().service.kind,
            ServiceKind::Redlock | ServiceKind::Zookeeper | ServiceKind::Kubernetes
        ) {
            return Err(self.err(
                "nodes need `service: redlock` (or zookeeper's or kubernetes's one server, n1) declared before them",
            ));
        }
        name.strip_prefix('n')
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|k| (1..=n).contains(k))
            .map(|k| k - 1)
            .ok_or_else(|| self.err(format!("unknown node \"{name}\"; expected n1 to n{n}")))
    }

    /// `n1,n2,n3` → a bit mask of nodes.
    fn node_mask(&mut self, list: &str) -> Result<u8, Error> {
        let mut mask = 0;
        for name in list.split(',') {
            mask |= 1 << self.node_index(name.trim())?;
        }
        Ok(mask)
    }

    fn client(&mut self, rest: &str) -> Result<(), Error> {
        // The head ends at the first ": " (a colon alone may sit inside a setting, as in latency=n1:1ms).
        let (head, script) = rest
            .split_once(": ")
            .or_else(|| rest.split_once(':'))
            .ok_or_else(|| self.err("client needs `NAME: ops`"))?;
        let mut head_words = head.split_whitespace();
        let name = head_words.next().unwrap_or(head);
        self.focus(name);
        let letter = self.client_letter(name)?;
        if self.sc().clients.iter().any(|c| c.name == letter) {
            return Err(self.err(format!("client {letter} declared twice")));
        }
        if self.sc().clients.len() >= CLIENTS_MAX {
            return Err(self.err(format!(
                "too many clients; a scenario may declare at most {CLIENTS_MAX}"
            )));
        }
        let (clock, reach, links) = self.client_settings(head_words)?;
        let (start, ops) = self.script(script)?;
        self.sc().clients.to_mut().push(ClientSpec {
            name: letter,
            start,
            ops: ops.into(),
            clock,
            reach,
            links: links.into(),
        });
        Ok(())
    }

    fn client_letter(&mut self, name: &str) -> Result<char, Error> {
        let mut chars = name.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(self.err("client name must be one letter"));
        };
        if !letter.is_ascii_uppercase() {
            return Err(self.err("client name must be an uppercase letter"));
        }
        Ok(letter)
    }

    /// A client's settings after its name: its clock, the nodes it reaches, its links' latencies.
    #[allow(clippy::type_complexity)]
    fn client_settings<'w>(
        &mut self,
        words: impl Iterator<Item = &'w str>,
    ) -> Result<(Clock, u8, Vec<(u8, Dur)>), Error> {
        let mut clock = Clock::PERFECT;
        let mut reach = u8::MAX;
        let mut links = Vec::new();
        for w in words {
            self.focus(w);
            if let Some(list) = w.strip_prefix("reach=") {
                reach = self.node_mask(list)?;
                continue;
            }
            if let Some(list) = w.strip_prefix("latency=") {
                // latency=n1:1ms,n2:3ms — one-way delay on the links to those nodes
                for item in list.split(',') {
                    let (node, d) = item
                        .split_once(':')
                        .ok_or_else(|| self.err("latency needs NODE:D pairs like n1:1ms,n2:3ms"))?;
                    let k = self.node_index(node)?;
                    if links.iter().any(|&(seen, _)| seen == k) {
                        return Err(self.err(format!("latency to {node} given twice")));
                    }
                    let d = self.dur(d)?;
                    links.push((k, d));
                }
                continue;
            }
            self.clock_setting(&mut clock, w).ok_or_else(|| {
                self.err(format!(
                    "unknown client setting \"{w}\"; expected clock=Nppm, step=±BY@AT, monotonic, reach=n1,n2 or latency=n1:1ms"
                ))
            })??;
        }
        Ok((clock, reach, links))
    }

    /// A client's script: `[start D;] op; op; …`, checked (length, a read before any write).
    fn script(&mut self, script: &str) -> Result<(Dur, Vec<Op>), Error> {
        let mut start = Dur::Lit(0);
        let (mut ops, mut has_read) = (Vec::new(), false);
        for (i, step) in script.split(';').map(str::trim).enumerate() {
            self.focus(step);
            let words: Vec<&str> = step.split_whitespace().collect();
            if let (0, ["start", d]) = (i, words.as_slice()) {
                start = self.dur(d)?;
                continue;
            }
            if ops.len() == OPS_MAX {
                return Err(self.err(format!(
                    "script too long; a client may have at most {OPS_MAX} operations"
                )));
            }
            let op = self.op(step, &words)?;
            match op {
                Op::Read { .. } => has_read = true,
                Op::Write { .. } if !has_read => {
                    return Err(self.err("a write needs a read before it"))
                }
                _ => {}
            }
            ops.push(op);
        }
        Ok((start, ops))
    }

    /// One operation of a script.
    fn op(&mut self, step: &str, words: &[&str]) -> Result<Op, Error> {
        Ok(match words {
            ["acquire", rest @ ..] => self.acquire_op(rest)?,
            ["read"] => Op::Read { via_session: false },
            ["read", "via", "session"] => Op::Read { via_session: true },
            ["work", d] => Op::Work(self.dur(d)?),
            ["pause", d] => Op::Pause(self.dur(d)?),
            ["check", d] => Op::Check(self.dur(d)?),
            ["write", debit, rest @ ..] => self.write_op(debit, rest)?,
            ["release"] => Op::Release,
            // The other services keep their leases alive themselves (keepalives, heartbeats).
            ["renew"]
                if !matches!(
                    self.sc().service.kind,
                    ServiceKind::Lease | ServiceKind::Session | ServiceKind::Redis
                ) =>
            {
                let kind = self.sc().service.kind.name();
                return Err(self.err(format!(
                    "renew is not modelled for {kind}; it is for lease, session and redis"
                )));
            }
            ["renew"] => Op::Renew,
            ["idle"] => Op::Idle,
            _ => return Err(self.err(format!("unknown operation \"{step}\""))),
        })
    }

    /// `acquire [every D] [tries N]`.
    fn acquire_op(&mut self, rest: &[&str]) -> Result<Op, Error> {
        let mut every = Dur::Lit(50 * MS);
        let mut tries = 0;
        let mut it = rest.iter();
        while let Some(k) = it.next() {
            let v = it
                .next()
                .ok_or_else(|| self.err(format!("`{k}` needs a value")))?;
            match *k {
                "every" => every = self.dur(v)?,
                "tries" => {
                    tries = v
                        .parse()
                        .ok()
                        .filter(|n| *n >= 1)
                        .ok_or_else(|| self.err("tries must be a positive integer"))?
                }
                _ => return Err(self.err(format!("unknown acquire option \"{k}\""))),
            }
        }
        Ok(Op::Acquire { every, tries })
    }

    /// `write DEBIT [delay D] [via session]`; a negative debit is a credit (a refund puts money back).
    fn write_op(&mut self, debit: &str, rest: &[&str]) -> Result<Op, Error> {
        let debit: i64 = debit
            .parse()
            .ok()
            .filter(|d: &i64| (-1_000_000_000..=1_000_000_000).contains(d))
            .ok_or_else(|| {
                self.err("write needs a debit between -1e9 and 1e9 (negative: a credit)")
            })?;
        let (mut delay, mut via_session) = (Dur::Lit(0), false);
        let mut it = rest.iter();
        while let Some(k) = it.next() {
            match (*k, it.next()) {
                ("delay", Some(d)) => delay = self.dur(d)?,
                ("via", Some(&"session")) => via_session = true,
                _ => return Err(self.err("write takes `write DEBIT [delay D] [via session]`")),
            }
        }
        Ok(Op::Write {
            debit,
            delay,
            via_session,
        })
    }

    fn fault(&mut self, rest: &str) -> Result<(), Error> {
        // at D: terminate A
        let (when, what) = rest
            .split_once(':')
            .ok_or_else(|| self.err("expected `at D: ACTION`"))?;
        if self.sc().faults.len() >= FAULTS_MAX {
            return Err(self.err(format!(
                "too many faults; a scenario may declare at most {FAULTS_MAX}"
            )));
        }
        let at = self.dur(when.trim())?;
        self.focus(what.trim());
        let words: Vec<&str> = what.split_whitespace().collect();
        let action = match words.as_slice() {
            ["terminate", who] => {
                if self.sc().service.kind != ServiceKind::Session {
                    return Err(self.err("terminate needs `service: session` declared before it"));
                }
                FaultAction::Terminate(self.client_index(who)?)
            }
            ["pause", who, d] => FaultAction::Freeze(self.client_index(who)?, self.dur(d)?),
            ["crash" | "restart", ..] if self.sc().service.kind != ServiceKind::Redlock => {
                return Err(self.err("crash and restart need `service: redlock` declared before them"))
            }
            ["crash", node] => FaultAction::Crash(self.node_index(node)?, None),
            ["crash", node, "restart", d] => FaultAction::Crash(self.node_index(node)?, Some(self.dur(d)?)),
            ["restart", node] => FaultAction::Restart(self.node_index(node)?),
            ["failover"] => {
                if self.sc().service.kind != ServiceKind::Redis {
                    return Err(self.err("failover needs `service: redis` declared before it"));
                }
                FaultAction::Failover
            }
            ["cut" | "heal", who, nodes] => {
                FaultAction::Partition(self.client_index(who)?, self.node_mask(nodes)?, words[0] == "cut")
            }
            _ => {
                return Err(self.err(format!(
                    "unknown fault \"{}\"; expected terminate CLIENT, pause CLIENT D, crash NODE [restart D], \
                     restart NODE, failover, cut CLIENT NODES or heal CLIENT NODES",
                    what.trim()
                )))
            }
        };
        self.sc().faults.to_mut().push(Fault { at, action });
        Ok(())
    }

    fn client_index(&mut self, name: &str) -> Result<u8, Error> {
        self.focus(name);
        let letter = name.chars().next().unwrap_or('?');
        self.sc()
            .clients
            .iter()
            .position(|c| c.name == letter && name.len() == 1)
            .map(|i| i as u8)
            .ok_or_else(|| {
                self.err(format!(
                    "unknown client \"{name}\" (declare clients before expectations)"
                ))
            })
    }

    fn expect(&mut self, rest: &str) -> Result<(), Error> {
        let (head, body) = rest
            .split_once(':')
            .ok_or_else(|| self.err("expect needs `POLICY: key=value …`"))?;
        if self.sc().expects.len() >= EXPECTS_MAX {
            return Err(self.err(format!(
                "too many expectations; a scenario may have at most {EXPECTS_MAX}"
            )));
        }
        let mut head_words = head.split_whitespace();
        let policy = head_words.next().unwrap_or(head);
        self.focus(policy);
        let policy = Policy::parse(policy).map_err(|e| self.err(e.to_string()))?;
        let (mut retry, mut naive) = (false, None);
        let mut overrides = Vec::new();
        for w in head_words {
            self.focus(w);
            if w == "+retry" {
                retry = true;
            } else if w == "+naive" || w == "-naive" {
                naive = Some(w == "+naive");
            } else if let Some((k, v)) = w.split_once('=') {
                overrides.push(self.override_(&overrides, k, v)?);
            } else {
                return Err(self.err(format!("unexpected \"{w}\" in expect")));
            }
        }
        let mut e = Expectation {
            policy,
            retry,
            naive,
            overrides: overrides.into(),
            final_balance: None,
            expected: None,
            lost: None,
            rejected: None,
            stale: None,
            grants: None,
            locked_out: None,
            line: self.line,
        };
        for kv in body.split_whitespace() {
            self.focus(kv);
            self.expectation(&mut e, kv)?;
        }
        self.sc().expects.to_mut().push(e);
        Ok(())
    }

    /// `NAME=D` in an expectation's head: a declared parameter, once, within its range.
    fn override_(&mut self, seen: &[(u8, u64)], k: &str, v: &str) -> Result<(u8, u64), Error> {
        let i = self
            .sc()
            .param_index(k)
            .ok_or_else(|| self.err(format!("unknown parameter \"{k}\"")))?;
        if seen.iter().any(|&(j, _)| usize::from(j) == i) {
            return Err(self.err(format!("parameter {k} given twice")));
        }
        let us = parse_duration(v).map_err(|e| self.err(e.to_string()))?;
        self.sc()
            .check_param(i, us)
            .map_err(|e| self.err(e.to_string()))?;
        Ok((i as u8, us))
    }

    /// One `key=value` of an expectation's body.
    fn expectation(&mut self, e: &mut Expectation, kv: &str) -> Result<(), Error> {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| self.err(format!("expected key=value, got \"{kv}\"")))?;
        match k {
            "final" => {
                e.final_balance = Some(
                    v.parse()
                        .map_err(|_| self.err("final must be an integer"))?,
                )
            }
            "expected" => {
                e.expected = Some(
                    v.parse()
                        .map_err(|_| self.err("expected must be an integer"))?,
                )
            }
            "lost" | "locked-out" => {
                let who = if v == "none" {
                    Lost::Nobody
                } else {
                    Lost::Client(self.client_index(v)?)
                };
                if k == "lost" {
                    e.lost = Some(who);
                } else {
                    e.locked_out = Some(who);
                }
            }
            "rejected" | "grants" => {
                let mut who = Vec::new();
                if v != "none" {
                    for n in v.split(',') {
                        who.push(self.client_index(n)?);
                    }
                }
                if k == "rejected" {
                    e.rejected = Some(who.into());
                } else {
                    e.grants = Some(who.into());
                }
            }
            "stale" => {
                e.stale = Some(match v {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(self.err("stale must be yes or no")),
                })
            }
            other => return Err(self.err(format!("unknown expectation \"{other}\""))),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_name_the_line() {
        let err =
            Scenario::parse("id: x\ntitle: t\nsummary: s\nclient A: acquire; fly\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "scenario \"x\", line 4: unknown operation \"fly\""
        );
        let err = Scenario::parse("id: x\nclient A: work $nope\n").unwrap_err();
        assert!(err.to_string().contains("unknown parameter $nope"), "{err}");
        let err = Scenario::parse("id: x\nparam p = 5s in 0..1s: P\n").unwrap_err();
        assert!(err.to_string().contains("within"), "{err}");
    }

    /// `lease` belongs to Kubernetes and DynamoDB, `heartbeat` to Hazelcast and DynamoDB: each is
    /// read by the scenario's service, and elsewhere the error names both.
    #[test]
    fn a_shared_setting_goes_to_the_scenario_s_service() {
        let svc = |line: &str| {
            let body = "title: t\nsummary: s\nclient A: acquire; read; write 1; release\n";
            Scenario::parse(&format!("id: x\nservice: {line}\n{body}"))
        };
        let k8s = svc("kubernetes lease=20s").unwrap();
        let dynamo = svc("dynamodb lease=20s heartbeat=2s").unwrap();
        let hz = svc("hazelcast heartbeat=2s").unwrap();
        assert_eq!(k8s.service.kind, ServiceKind::Kubernetes);
        assert_eq!(k8s.service.ttl, Dur::Lit(20 * SEC));
        assert_eq!(dynamo.service.ttl, Dur::Lit(20 * SEC));
        assert_eq!(dynamo.service.keepalive, Dur::Lit(2 * SEC));
        assert_eq!(hz.service.keepalive, Dur::Lit(2 * SEC));
        let lease = svc("etcd lease=20s").unwrap_err().to_string();
        assert!(
            lease.contains("`service: kubernetes` or `service: dynamodb`"),
            "{lease}"
        );
        let beat = svc("etcd heartbeat=2s").unwrap_err().to_string();
        assert!(
            beat.contains("`service: hazelcast` or `service: dynamodb`"),
            "{beat}"
        );
    }
}
