//! Redlock: N independent redis nodes. A client sends `SET key value NX PX ttl` with one random value
//! per round to every node it can reach, and holds the lock if a majority granted it and — unless the
//! client is naive — validity = TTL − elapsed − drift is still positive, elapsed measured by its own
//! clock from when it sent the requests. Otherwise it unlocks every node and tries again after `every`
//! plus a seeded random share of `jitter`.
//!
//! A cut (an injected `cut:A,at=R,for=R`, or a scenario's `at D: cut A n1,n2`) takes nodes from the
//! client's reach until the heal (an injected one: all of them): what would cross a cut link is
//! dropped, so a round during the cut wins no node and ends at its timeout.

use super::lease::grant_word;
use super::{LockService, Said, Serve};
use crate::lock::Grant;
use crate::scenario::{Persist, Scenario};
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::store::Credentials;
use crate::time::Millis;
use crate::trace::{TraceEvent, What};

/// Redlock's run state: each client's current round, and who holds a majority.
#[derive(Default)]
pub(crate) struct State {
    rounds: Vec<Round>,
    /// The client holding live keys on a majority of nodes most recently (the ideal guard's truth).
    pub majority: Option<u8>,
}

/// A client's acquisition round.
#[derive(Clone, Copy, Default)]
struct Round {
    /// Rounds so far, wrapping at 12 bits (each with its own random lock value).
    number: u16,
    /// Still collecting this round's replies.
    open: bool,
    /// Nodes that answered this round, and those that granted (bit masks).
    replied: u8,
    granted: u8,
}

impl State {
    pub fn reset(&mut self, clients: usize) {
        self.rounds.clear();
        self.rounds.resize(clients, Round::default());
        self.majority = None;
    }

    /// Whether a message of round `number` belongs to the client's round still open.
    fn open(&self, c: u8, number: u16) -> bool {
        let r = self.rounds[usize::from(c)];
        r.open && number == r.number & 0xfff
    }
}

/// A node message's payload: node, answer and round, small enough to ride in the queue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeMsg {
    pub node: u8,
    pub ok: bool,
    /// Wrapping at 12 bits: replies never lag thousands of rounds behind.
    pub round: u16,
}

impl NodeMsg {
    fn pack(self) -> u16 {
        u16::from(self.node & 7) | (u16::from(self.ok) << 3) | ((self.round & 0xfff) << 4)
    }

    fn unpack(p: u16) -> NodeMsg {
        NodeMsg {
            node: (p & 7) as u8,
            ok: p & 8 != 0,
            round: p >> 4,
        }
    }
}

/// Redlock (see the module's note).
pub(crate) struct Redlock;

impl LockService for Redlock {
    type State = State;

    fn reset(state: &mut State, clients: usize) {
        state.reset(clients);
    }

    fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
        say(sc, e, who)
    }
}

/// What the page's diagram draws for it (docs/run-json.md, `diagram`). A lane per node (the run's
/// `nodes`) and nothing of its own beyond.
pub(super) const DIAGRAM: super::Diagram = super::Diagram::PLAIN;

/// Its rounds are its own events; the rest (a renewal) is the lease service's protocol.
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Serve<Redlock> for Engine {
    fn on_event(&mut self, ctx: &Ctx, ev: Ev) {
        match ev.tag {
            Tag::NodeAcquireAt | Tag::NodeAcquireReply | Tag::NodeReleaseAt | Tag::RoundTimeout => {
                self.on_redlock_event(ctx, ev)
            }
            _ => self.on_lease_event(ctx, ev),
        }
    }

    /// A new round: one request to every reachable node, and a timer for the replies.
    fn acquire(&mut self, ctx: &Ctx, c: u8) {
        let now = self.now;
        let r = self.round(c);
        *r = Round {
            number: r.number.wrapping_add(1) & 0xfff,
            open: true,
            replied: 0,
            granted: 0,
        };
        let round = r.number;
        self.send_to_reachable_nodes(ctx, c, Tag::NodeAcquireAt, round);
        let timeout = NodeMsg {
            node: 0,
            ok: false,
            round,
        };
        self.schedule(
            now.plus(ctx.timeout),
            Ev::inline(Tag::RoundTimeout, c, timeout.pack()),
        );
    }

    fn release(&mut self, ctx: &Ctx, c: u8, _value: u64) {
        self.redlock_release(ctx, c);
    }

    fn rightful(&self, _ctx: &Ctx) -> Option<u8> {
        self.services.redlock.majority
    }
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    fn round(&mut self, c: u8) -> &mut Round {
        &mut self.services.redlock.rounds[usize::from(c)]
    }

    fn on_redlock_event(&mut self, ctx: &Ctx, ev: Ev) {
        let (c, m) = (ev.client, NodeMsg::unpack(ev.inline_payload()));
        match ev.tag {
            Tag::NodeAcquireAt => self.node_acquire_at(ctx, c, m),
            Tag::NodeAcquireReply => self.on_node_reply(ctx, c, m),
            Tag::NodeReleaseAt => self.node_release_at(c, m),
            _ => {
                // The round's wait is over: count what came back, if the round is still open.
                if self.services.redlock.open(c, m.round) {
                    self.count_round(ctx, c);
                }
            }
        }
    }


    /// Unlocks the current round's value on every node the client can reach.
    fn redlock_release(&mut self, ctx: &Ctx, c: u8) {
        let round = self.round(c).number;
        self.send_to_reachable_nodes(ctx, c, Tag::NodeReleaseAt, round);
    }

    /// Sends a message of the round to each node the client can reach now, over its own link.
    fn send_to_reachable_nodes(&mut self, ctx: &Ctx, c: u8, tag: Tag, round: u16) {
        let spec = &ctx.sc.clients[usize::from(c)];
        let reach = self.reach(c);
        for node in (0..ctx.sc.service.nodes).filter(|k| reach & (1 << k) != 0) {
            let at = self.now.plus(spec.link(node, ctx.lock_latency, ctx.params));
            self.schedule(
                at,
                Ev::inline(
                    tag,
                    c,
                    NodeMsg {
                        node,
                        ok: false,
                        round,
                    }
                    .pack(),
                ),
            );
        }
    }

    /// The random value of a client's round: one per round, the same on every node, so an unlock
    /// deletes only that round's keys (a deterministic stand-in for a random generator).
    fn lock_value(&self, c: u8, round: u16) -> u64 {
        round_value(self.seed, c, round)
    }

    fn node_acquire_at(&mut self, ctx: &Ctx, c: u8, m: NodeMsg) {
        let now = self.now;
        let value = self.lock_value(c, m.round);
        let node = &mut self.locks[usize::from(m.node)];
        if !node.up {
            return; // a crashed node: the request is lost
        }
        let grant = node.acquire(c, now, Some(value));
        self.floor(grant_word(grant));
        match grant {
            Grant::Granted { expires_at, .. } => {
                let lease_end = super::lease::lease_end(expires_at);
                self.record_on(
                    m.node,
                    c,
                    What::Granted {
                        token: 0,
                        lease_end,
                    },
                );
                self.note_majority(ctx, c);
            }
            Grant::Denied { holder } => {
                self.record_on(
                    m.node,
                    c,
                    What::Denied {
                        holder,
                        session_gone: false,
                    },
                );
            }
            // Unreachable: a Redlock node has no sessions.
            Grant::NoSession => unreachable!(),
        }
        if self.reach(c) & (1 << m.node) != 0 {
            let ok = matches!(grant, Grant::Granted { .. });
            let lat = ctx.sc.clients[usize::from(c)].link(m.node, ctx.lock_latency, ctx.params);
            let reply = NodeMsg { ok, ..m };
            self.schedule(now.plus(lat), Ev::inline(Tag::NodeAcquireReply, c, reply.pack()));
        }
    }

    /// The ideal guard's truth: whether `c` now holds live keys on a majority of the nodes.
    fn note_majority(&mut self, ctx: &Ctx, c: u8) {
        let now = self.now;
        let mut mask = 0u64;
        for (i, l) in self.locks.iter().enumerate() {
            mask |= u64::from(l.holds(c, now)) << i;
        }
        self.floor(mask); // each node's own expiry choice
        let held = mask.count_ones() as usize;
        let truth = &mut self.services.redlock.majority;
        if held >= usize::from(ctx.sc.service.quorum()) && *truth != Some(c) {
            *truth = Some(c);
            if self.records_spans() {
                self.run.majorities.push(c);
            }
        }
    }

    fn on_node_reply(&mut self, ctx: &Ctx, c: u8, m: NodeMsg) {
        if !self.services.redlock.open(c, m.round) {
            return; // a late reply to a round already counted
        }
        let r = self.round(c);
        r.replied |= 1 << m.node;
        if m.ok {
            r.granted |= 1 << m.node;
        }
        if r.replied.count_ones() == u32::from(ctx.sc.service.nodes) {
            self.count_round(ctx, c);
        }
    }

    fn node_release_at(&mut self, c: u8, m: NodeMsg) {
        let value = self.lock_value(c, m.round);
        let node = &mut self.locks[usize::from(m.node)];
        if node.up {
            let ended = node.release(value, self.now);
            let ended = self.decide(ended);
            self.record_on(m.node, c, What::Released { ended_lease: ended });
        }
    }

    /// After the replies are in (or the wait timed out): hold the lock, or unlock and back off.
    fn count_round(&mut self, ctx: &Ctx, c: u8) {
        let clock = &ctx.sc.clients[usize::from(c)].clock;
        let now = self.now;
        let sent = self.clients[usize::from(c)].acquire_sent_local;
        let r = self.round(c);
        r.open = false;
        let (granted, round) = (r.granted.count_ones(), r.number);
        let elapsed = clock.local_h(now, &mut self.path) - sent;
        let validity = ctx.ttl_local() - elapsed - ctx.drift as i64;
        let value = self.lock_value(c, round);
        let valid = self.decide(validity > 0);
        if granted >= u32::from(ctx.sc.service.quorum()) && (ctx.naive || valid) {
            let cred = Credentials {
                token: None,
                lock_value: value,
                via_session: false,
            };
            self.hold_lease(c, cred, sent + ctx.ttl_local() - ctx.drift as i64);
            self.record_round(c, true, granted, validity);
            self.advance(ctx, c);
            return;
        }
        self.record_round(c, false, granted, validity);
        self.redlock_release(ctx, c);
        let jitter = self.jitter(ctx, c, round);
        self.retry_acquire(ctx, c, jitter);
    }

    fn record_round(&mut self, c: u8, acquired: bool, granted: u32, validity_us: i64) {
        let granted_nodes = granted as u8;
        self.record(
            c,
            What::Round {
                acquired,
                granted_nodes,
                validity_us,
            },
        );
    }

    /// The random share of `jitter` added to this round's back-off (seeded).
    fn jitter(&mut self, ctx: &Ctx, c: u8, round: u16) -> u64 {
        if ctx.jitter == 0 {
            return 0;
        }
        let r = round_value(self.seed, c, round ^ BACKOFF_DRAW);
        self.floor(r / (ctx.jitter + 1)); // a floor of the jitter parameter
        backoff_share_us(self.seed, c, round, ctx.jitter)
    }
}

/// Client `c`'s random value for its round number `round` (rounds count from 1, per client, across
/// acquires, wrapping at 12 bits) in a run seeded `seed`.
fn round_value(seed: u64, c: u8, round: u16) -> u64 {
    crate::rng::splitmix64(seed ^ (u64::from(c) + 1) << 40 ^ u64::from(round))
}

/// The bit that sets a round's back-off draw apart from its lock value (rounds wrap at 12 bits).
const BACKOFF_DRAW: u16 = 0x800;

/// The random share of `jitter_us` that client `c` adds to its back-off after its round number
/// `round` failed, in a run seeded `seed`: a pure function of the four, so a real client (the
/// conformance suite's) can draw exactly the model's delays.
pub fn backoff_share_us(seed: u64, c: u8, round: u16, jitter_us: u64) -> u64 {
    if jitter_us == 0 {
        return 0;
    }
    round_value(seed, c, round ^ BACKOFF_DRAW) % (jitter_us + 1)
}

/// Rounds, node crashes and restarts, partitions and node clocks, in the transcript.
fn say(sc: &Scenario, e: &TraceEvent, who: char) -> Option<Said> {
    let node = e.node + 1;
    let line = match e.what {
        What::Round {
            acquired,
            granted_nodes,
            validity_us,
        } => round_line(sc, who, acquired, granted_nodes, validity_us),
        What::NodeCrashed { keys_lost } => {
            let keys = if keys_lost == 1 { "key" } else { "keys" };
            let how = match sc.service.persist {
                Persist::None => "no persistence",
                Persist::EverySec => "appendfsync everysec",
                Persist::Always => "appendfsync always",
            };
            format!("n{node}: crashes ({how}): {keys_lost} live {keys} lost")
        }
        What::NodeRestarted => format!("n{node}: restarts"),
        What::Partition { cut, nodes } => {
            let nodes: Vec<String> = (0..8)
                .filter(|k| nodes & (1 << k) != 0)
                .map(|k| format!("n{}", k + 1))
                .collect();
            let how = if cut {
                "cut off from"
            } else {
                "reconnected to"
            };
            format!("network: {who} {how} {}", crate::text::join(&nodes, ","))
        }
        What::ServerClockStep { by_us } => {
            crate::report::transcript::clock_step_line(&format!("n{node}"), by_us)
        }
        _ => return None,
    };
    Some(Said::Line(line))
}

/// `A: 3/5 nodes OK, validity 293 ms → holds the lock`.
fn round_line(sc: &Scenario, who: char, acquired: bool, granted: u8, validity_us: i64) -> String {
    let then = match (acquired, validity_us > 0) {
        (true, true) => "holds the lock",
        (true, false) => "trusts the majority anyway (naive client)",
        _ if granted < sc.service.quorum() => "no majority: unlock all, retry later",
        _ => "no validity left: unlock all, retry later",
    };
    let sign = if validity_us < 0 { "-" } else { "" };
    let validity = Millis(validity_us.unsigned_abs());
    let nodes = sc.service.nodes;
    format!("{who}: {granted}/{nodes} nodes OK, validity {sign}{validity} ms → {then}")
}
