//! The link between a client and the lock service while an injected cut
//! ([`crate::scenario::FaultAction::Cut`]) may be on: when a message sent on it arrives, and which
//! lock nodes the client reaches.
//!
//! A service whose clients talk to it over one TCP connection (every service but those that name
//! their servers) keeps a message sent while the client is cut off: TCP retransmits it until the link
//! heals, sooner than TCP's own give-up, so it arrives one latency after the heal — in either
//! direction, in the order sent ([`Engine::lock_hop`]). A message already on its way when the cut
//! comes arrives as it would have. A service that names its servers (Redlock, ZooKeeper, Kubernetes)
//! reaches none of them while the cut is on ([`Engine::reach`]) and drops what they would carry.
//!
//! Exactness: the cut and its heal are events of the run, so whether a cut is on compares no time
//! (the path signature holds the events' order), and a held message's arrival, heal + latency, is
//! affine in the injected parameters. A run without a cut tests one length per message and nothing
//! else: its path and signature are unchanged.

use super::{Ctx, Engine, Ev, Msg, Tag};
use crate::time::SimTime;

/// A client cut off from the lock service until `heal`; `on` until the heal's event has run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cut {
    pub client: u8,
    pub heal: SimTime,
    pub on: bool,
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// When a message between client `c` and the lock service, sent now, arrives: one latency from
    /// now, or from the heal while `c` is cut off.
    pub(crate) fn lock_hop(&self, ctx: &Ctx, c: u8) -> SimTime {
        match self.cut_off(c) {
            Some(heal) => heal.plus(ctx.lock_latency),
            None => self.now.plus(ctx.lock_latency),
        }
    }

    /// Queues `ev`, a message between its client and the lock service, for when it arrives
    /// ([`Engine::lock_hop`]). A run that has cut no client off pays one test of a length: the rest
    /// is out of line, and a tail call, so that the hot senders keep no registers for it (a call there
    /// cost the seed's every-cell sweep 1.8 % more instructions, in the senders' prologues).
    #[inline(always)]
    pub(crate) fn schedule_hop(&mut self, ctx: &Ctx, ev: Ev) {
        if self.any_cut() {
            return self.schedule_hop_after_a_cut(ctx, ev);
        }
        self.schedule(self.now.plus(ctx.lock_latency), ev);
    }

    #[cold]
    #[inline(never)]
    fn schedule_hop_after_a_cut(&mut self, ctx: &Ctx, ev: Ev) {
        let at = self.lock_hop(ctx, ev.client);
        self.schedule(at, ev);
    }

    /// Sends `msg` between client `c` and the lock service, arriving as [`Engine::lock_hop`] says
    /// (out of line after a cut, as [`Engine::schedule_hop`]).
    #[inline(always)]
    pub(crate) fn send_hop(&mut self, ctx: &Ctx, tag: Tag, c: u8, msg: Msg) {
        if self.any_cut() {
            return self.send_hop_after_a_cut(ctx, tag, c, msg);
        }
        self.send(self.now.plus(ctx.lock_latency), tag, c, msg);
    }

    #[cold]
    #[inline(never)]
    fn send_hop_after_a_cut(&mut self, ctx: &Ctx, tag: Tag, c: u8, msg: Msg) {
        let at = self.lock_hop(ctx, c);
        self.send(at, tag, c, msg);
    }

    /// The lock nodes client `c` reaches now (bit mask), for the services that name their servers:
    /// its own (a scenario's partitions cut and heal them), or none while an injected cut is on.
    #[cfg(any(feature = "redlock", feature = "zookeeper", feature = "kubernetes"))]
    pub(crate) fn reach(&self, c: u8) -> u8 {
        match self.cut_off(c) {
            Some(_) => 0,
            None => self.clients[usize::from(c)].reach,
        }
    }

    /// Whether some client has been cut off in this run. Never in a build without the cargo
    /// feature `cut` (the page's wasm: it injects no fault), where every cut's path is left out.
    #[inline(always)]
    fn any_cut(&self) -> bool {
        cfg!(feature = "cut") && !self.cuts.is_empty()
    }

    /// When client `c`'s cut heals, if it is cut off from the lock service now.
    pub(crate) fn cut_off(&self, c: u8) -> Option<SimTime> {
        if !self.any_cut() {
            return None;
        }
        let k = self.cuts.iter().find(|k| k.client == c && k.on)?;
        Some(k.heal)
    }
}
