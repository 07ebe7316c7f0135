//! The fault injector: the scenario's timed faults (a session terminated, a node crashed or restarted,
//! a failover, a partition cut or healed, a client frozen or cut off) and the events that end them.

use super::link::Cut;
use super::Phase;
use super::{Ctx, Engine, Ev, Tag};
use crate::scenario::FaultAction;
use crate::trace::What;

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    // Out of line, as every handler the run loop calls: see `Engine::handle`.
    #[inline(never)]
    pub(super) fn on_fault_event(&mut self, ctx: &Ctx, ev: Ev) {
        match ev.tag {
            Tag::Fault => self.fault(ctx, ev.client),
            Tag::Restart => self.restart_node(ev.client),
            Tag::Heal => self.heal(ctx, ev.client),
            _ => {
                // A timed freeze ends.
                self.clients[usize::from(ev.client)].woke = true;
                self.record(ev.client, What::PauseEnd);
            }
        }
    }

    /// The scenario's fault number `i` happens.
    fn fault(&mut self, ctx: &Ctx, i: u8) {
        match ctx.sc.faults[usize::from(i)].action {
            FaultAction::Terminate(x) => self.on_terminate(ctx, x),
            FaultAction::Crash(k, restart) => {
                let now = self.now;
                let node = &mut self.locks[usize::from(k)];
                let lost = node.crash(now, ctx.sc.service.persist);
                if let Some(d) = restart {
                    // "Wait at least a TTL before restarting", timed by the node's own clock.
                    let d = i64::try_from(d.resolve(ctx.params)).unwrap_or(i64::MAX);
                    let local = node.clock.local_h(now, &mut self.path).saturating_add(d);
                    let at = node.clock.first_at_or_after_h(now, local, &mut self.path);
                    self.schedule(at, Ev::bare(Tag::Restart, k));
                }
                self.record_on(k, 0, What::NodeCrashed { keys_lost: lost });
            }
            FaultAction::Restart(k) => {
                if !self.locks[usize::from(k)].up {
                    self.restart_node(k);
                }
            }
            FaultAction::Failover => self.failover(ctx),
            FaultAction::Partition(x, mask, cut) => {
                let st = &mut self.clients[usize::from(x)];
                st.reach = if cut {
                    st.reach & !mask
                } else {
                    st.reach | mask
                };
                self.record(x, What::Partition { cut, nodes: mask });
            }
            FaultAction::Freeze(x, d) => self.freeze(ctx, x, d.resolve(ctx.params)),
            // Only an injection makes a cut: none in a build without the feature (the page's).
            FaultAction::Cut(x, d) if cfg!(feature = "cut") => {
                self.cut(ctx, x, d.resolve(ctx.params))
            }
            FaultAction::Cut(..) => {}
        }
    }

    /// An injected cut of client `x` from the lock service for `d`: a service that names its servers
    /// reaches none of them until the heal (`Engine::reach`), and drops what they would carry; the
    /// others' messages wait for the heal (`Engine::lock_hop`). The service hears of it (a session's
    /// server stops hearing keepalives). The client's own reach (a scenario's partitions) is kept
    /// apart, so that a heal gives back no node a scenario's cut took meanwhile.
    fn cut(&mut self, ctx: &Ctx, x: u8, d: u64) {
        let heal = self.now.plus(d);
        self.cuts.retain(|k| k.client != x); // a later cut of the same client replaces it
        self.cuts.push(Cut {
            client: x,
            heal,
            on: true,
        });
        let nodes = all_nodes(ctx);
        self.record(x, What::Partition { cut: true, nodes });
        self.schedule(heal, Ev::bare(Tag::Heal, x));
        self.on_cut(ctx, x, d);
    }

    /// The cut of client `x` ends (unless a later one replaced it): it reaches its nodes again.
    fn heal(&mut self, ctx: &Ctx, x: u8) {
        let now = self.now;
        let Some(k) = self
            .cuts
            .iter_mut()
            .find(|k| k.client == x && k.heal == now)
        else {
            return;
        };
        k.on = false;
        let nodes = all_nodes(ctx);
        self.record(x, What::Partition { cut: false, nodes });
    }

    fn restart_node(&mut self, k: u8) {
        self.locks[usize::from(k)].up = true;
        self.record_on(k, 0, What::NodeRestarted);
    }

    /// A timed freeze of client `x` for `d` (a GC pause from outside its script): ignored while it is
    /// already frozen or done. The service hears of it as of a script's pause (a session's server
    /// stops hearing keepalives from it).
    fn freeze(&mut self, ctx: &Ctx, x: u8, d: u64) {
        let now = self.now;
        let thawed = self.decide(now >= self.clients[usize::from(x)].frozen_until);
        let st = &mut self.clients[usize::from(x)];
        if st.phase != Phase::Done && thawed {
            st.frozen_until = now.plus(d);
            self.begin_pause(x, d);
            self.schedule(now.plus(d), Ev::bare(Tag::Thaw, x));
            self.on_pause(ctx, x, d);
        }
    }
}

/// Every lock node of the service, as a reach mask (one bit for a single server).
fn all_nodes(ctx: &Ctx) -> u8 {
    u8::MAX >> (8 - ctx.sc.service.nodes.clamp(1, 8))
}
