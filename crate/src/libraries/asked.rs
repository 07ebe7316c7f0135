//! What a client library asks the lock server, shared by the libraries that do (the redis family):
//! `owned`'s round trip, the check its `release`'s answer makes (and the exception it raises when the
//! lock was no longer the client's), and a renewal thread that extends the lock on its own timer.
//!
//! Steps ride in the inline payload of `LibraryAt` (at the server) and `LibraryTimer` (at the
//! client): the step in the low byte (at least [`SHARED`]; a library's own steps are below it), a
//! datum in the high byte (an answer and its truth, or the grant a renewal belongs to).

use super::Note;
use crate::sim::{Ctx, Engine, Ev, Tag};
use crate::trace::What;

/// The first shared step; a library numbers its own below.
pub(crate) const SHARED: u16 = 16;
/// `owned`'s request reaches the server.
const OWNED_AT: u16 = 16;
/// Its answer reaches the client (datum: bit 0 the answer, bit 1 the truth).
const OWNED_REPLY: u16 = 17;
/// A release reaches the server: was the lock still the client's?
const RELEASE_AT: u16 = 18;
/// The release's answer reaches the client: it raises.
const RAISED: u16 = 19;
/// The grant reaches the library: its renewal thread starts.
const GRANTED: u16 = 20;
/// The renewal thread wakes (datum: the grant it renews).
const RENEW_TICK: u16 = 21;
/// Its renewal reaches the server (datum: the grant).
const RENEW_AT: u16 = 22;
/// The renewal's answer reaches the client: renewed (datum: the grant), or refused.
const RENEWED: u16 = 23;
const RENEW_FAILED: u16 = 24;

fn pack(step: u16, datum: u8) -> u16 {
    step | u16::from(datum) << 8
}

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// A request of the library's, `step`, reaches the server one latency from now.
    fn lib_ask(&mut self, ctx: &Ctx, c: u8, step: u16) {
        let at = self.now.plus(ctx.lock_latency);
        self.schedule(at, Ev::inline(Tag::LibraryAt, c, step));
    }

    /// The server's answer, `step`, reaches the client one latency from now.
    fn lib_reply(&mut self, ctx: &Ctx, c: u8, step: u16) {
        self.lib_timer(c, ctx.lock_latency, step);
    }

    /// `owned` asks the server (a library whose answer is a round trip).
    pub(crate) fn lib_ask_owned(&mut self, ctx: &Ctx, c: u8) {
        self.lib_ask(ctx, c, OWNED_AT);
    }

    /// The client calls `release`: a library that raises when the lock was gone checks the answer.
    /// Called before the release is sent, so that its check reaches the server first.
    pub(crate) fn lib_on_release(&mut self, ctx: &Ctx, c: u8) {
        if ctx.sc.clients[usize::from(c)]
            .library
            .is_some_and(|l| l.raises().is_some())
        {
            self.lib_ask(ctx, c, RELEASE_AT);
        }
    }

    /// The grant reaches the library (`Engine::hold_lease`), at the server's instant.
    pub(crate) fn lib_granted(&mut self, c: u8) {
        self.schedule(self.now, Ev::inline(Tag::LibraryAt, c, GRANTED));
    }

    /// One of the library's requests at the server (`Tag::LibraryAt`).
    pub(crate) fn on_library_at(&mut self, ctx: &Ctx, ev: Ev) {
        let (c, payload) = (ev.client, ev.inline_payload());
        let (step, datum) = (payload & 0xff, (payload >> 8) as u8);
        match step {
            OWNED_AT => {
                let yes = self.lib_server_owned(ctx, c);
                let truth = self.lib_truth(ctx, c);
                let datum = u8::from(yes) | u8::from(truth) << 1;
                self.lib_reply(ctx, c, pack(OWNED_REPLY, datum));
            }
            RELEASE_AT => {
                if !self.lib_truth(ctx, c) {
                    self.lib_reply(ctx, c, RAISED);
                }
            }
            GRANTED => self.lib_on_grant(ctx, c),
            RENEW_AT => self.lib_renew_at(ctx, c, datum),
            // Unreachable: no other step is sent to the server.
            _ => unreachable!(),
        }
    }

    /// One of the shared steps at the client (`Tag::LibraryTimer`).
    pub(crate) fn lib_shared_timer(&mut self, ctx: &Ctx, c: u8, payload: u16) {
        let (step, datum) = (payload & 0xff, (payload >> 8) as u8);
        match step {
            OWNED_REPLY => self.lib_owned_answer(ctx, c, datum & 1 != 0, datum & 2 != 0),
            RAISED => {
                let note = Note::ReleaseRaised;
                self.record(c, What::Notice { note });
            }
            RENEW_TICK => self.lib_renew_tick(ctx, c, datum),
            RENEWED => {
                let every = self.lib_renewal_every(ctx, c);
                self.lib_timer(c, every, pack(RENEW_TICK, datum));
            }
            RENEW_FAILED => {
                let note = Note::RenewalDied;
                self.record(c, What::Notice { note });
            }
            // Unreachable: no other shared step is set at the client.
            _ => unreachable!(),
        }
    }

    /// `owned`'s answer reaches the client: noted with the truth at the server; a no gives the
    /// attempt up, as a failed check does.
    fn lib_owned_answer(&mut self, ctx: &Ctx, c: u8, yes: bool, truth: bool) {
        self.lib_note_owned(c, yes, truth);
        if !yes {
            self.abort(ctx, c);
            return;
        }
        self.clients[usize::from(c)].pc += 1;
        self.advance(ctx, c);
    }

    /// The grant reached a library with a renewal thread: its first tick, a period on.
    pub(crate) fn lib_start_renewal(&mut self, ctx: &Ctx, c: u8) {
        let every = self.lib_renewal_every(ctx, c);
        let st = &mut self.clients[usize::from(c)];
        let Some(lease) = st.lease else {
            return;
        };
        st.heard.value = lease.cred.lock_value;
        let grant = st.heard.grant;
        self.lib_timer(c, every, pack(RENEW_TICK, grant));
    }

    /// The renewal thread wakes (on time, or overdue when the client thaws): it renews, unless the
    /// client released (the thread is stopped) or holds a newer grant (another thread renews it).
    fn lib_renew_tick(&mut self, ctx: &Ctx, c: u8, grant: u8) {
        let st = &self.clients[usize::from(c)];
        if st.lease.is_none() || st.heard.grant != grant {
            return;
        }
        self.lib_ask(ctx, c, pack(RENEW_AT, grant));
    }

    /// The renewal at the server: the service's value-checked renew.
    fn lib_renew_at(&mut self, ctx: &Ctx, c: u8, grant: u8) {
        let value = self.clients[usize::from(c)].heard.value;
        let renewed = self.locks[0].renew(value, self.now);
        let ok = self.decide(renewed.is_some());
        let what = match renewed {
            Some(end) => What::Renewed {
                lease_end: Some(end),
            },
            None => What::RenewDenied,
        };
        self.record(c, what);
        let step = if ok { RENEWED } else { RENEW_FAILED };
        self.lib_reply(ctx, c, pack(step, grant));
    }
}
