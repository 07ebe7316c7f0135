//! The guarded store's side of a run: reads and writes arrive, the storage policy decides, the answer
//! travels back. The guard lives in the storage, not in the lock service: that is the whole point.

use super::{Ctx, Engine, Ev, Msg, Tag, WriteMsg};
use crate::store::{Credentials, Refusal};
use crate::trace::{What, WriteRecord};

#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    // Out of line, as every handler the run loop calls: see `Engine::handle`.
    #[inline(never)]
    pub(super) fn on_storage_event(&mut self, ctx: &Ctx, ev: Ev) {
        let c = ev.client;
        match (ev.tag, self.msg(ev)) {
            (Tag::ReadAt, Msg::Cred(cred)) => self.read_at(ctx, c, cred),
            (Tag::ReadReply, Msg::Read(Ok(snapshot))) => {
                let st = &mut self.clients[usize::from(c)];
                st.snapshot = Some(snapshot);
                st.pc += 1;
                self.advance(ctx, c);
            }
            (Tag::WriteAt, Msg::Write(w)) => self.write_at(ctx, c, w),
            (Tag::WriteReply, Msg::Accepted(true)) => {
                let st = &mut self.clients[usize::from(c)];
                st.pc += 1;
                st.woke = false;
                self.advance(ctx, c);
            }
            // A refused read or write: the attempt failed.
            (Tag::ReadReply | Tag::WriteReply, _) => self.abort(ctx, c),
            // Unreachable: every storage event carries its own message.
            _ => unreachable!(),
        }
    }

    /// Whether an access through the client's database session fails because the session is gone.
    fn session_gone(&self, c: u8, cred: Credentials) -> bool {
        cred.via_session && self.clients[usize::from(c)].session_dead
    }

    fn read_at(&mut self, ctx: &Ctx, c: u8, cred: Credentials) {
        let result = if self.session_gone(c, cred) {
            Err(Refusal::SessionGone)
        } else {
            self.store.read(ctx.policy, cred)
        };
        let token = cred.token.unwrap_or(0);
        match result {
            Ok((value, version)) => self.record(
                c,
                What::Read {
                    token,
                    value,
                    version,
                },
            ),
            Err(reason) => self.record(c, What::ReadRejected { token, reason }),
        }
        let at = self.now.plus(ctx.store_latency);
        self.send(at, Tag::ReadReply, c, Msg::Read(result));
    }

    fn write_at(&mut self, ctx: &Ctx, c: u8, w: WriteMsg) {
        let latest = self.rightful(ctx) == Some(c);
        let result = if self.session_gone(c, w.cred) {
            Err(Refusal::SessionGone)
        } else {
            self.store.write(
                ctx.policy,
                w.cred,
                (w.snapshot, w.version_read),
                w.value,
                latest,
            )
        };
        let token = w.cred.token.unwrap_or(0);
        let reason = result.err();
        match reason {
            None => self.record(
                c,
                What::WriteAccepted {
                    token,
                    value: w.value,
                },
            ),
            Some(reason) => self.record(
                c,
                What::WriteRejected {
                    token,
                    value: w.value,
                    reason,
                },
            ),
        }
        let accepted = reason.is_none();
        self.run.writes.push(WriteRecord {
            client: c,
            token,
            snapshot: w.snapshot,
            value: w.value,
            debit: w.debit,
            t: self.now,
            accepted,
            reason,
            stale: !latest,
        });
        let at = self.now.plus(ctx.store_latency);
        self.send(at, Tag::WriteReply, c, Msg::Accepted(accepted));
    }
}
