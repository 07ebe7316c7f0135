//! The events of a run: one table of event kinds ([`Tag`]), from which everything the kernel needs to
//! know about a kind follows, and the messages they carry ([`Msg`]).
//!
//! Adding an event kind is one row here (its tag, its properties, and where its message travels) and
//! one arm in the handler of the module that owns it (`super::Engine::handle` says which).

use crate::lock::Grant;
use crate::store::{Credentials, Refusal};
use crate::time::SimTime;

/// What an event of a kind may do, as the kernel sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Props {
    /// A timer of the client's, or a reply reaching it: it waits while the client is frozen, and runs
    /// when it thaws, in the order they came.
    pub own: bool,
    /// Touches neither the lock servers nor a client other than its own: it may run while another
    /// client's denied retries are being skipped (see `Skip`).
    pub lock_free: bool,
}

const OWN: Props = Props {
    own: true,
    lock_free: true,
};
const WORLD: Props = Props {
    own: false,
    lock_free: true,
};
const LOCK: Props = Props {
    own: false,
    lock_free: false,
};
const OWN_LOCK: Props = Props {
    own: true,
    lock_free: false,
};

/// Where an event's message travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carry {
    /// It carries nothing (a timer, or an index in `client`).
    Bare,
    /// In the queue entry itself: 16 bits a service packs its message into ([`Ev::inline`]).
    Inline,
    /// In the mailbox slot of its kind and client.
    Mailbox,
}
use Carry::{Bare, Inline, Mailbox as Boxed};

macro_rules! tags {
    ($($(#[$doc:meta])* $name:ident = ($props:expr, $carry:expr),)*) => {
        /// Every kind of event, with the number that identifies it in the queue and the signature.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub(crate) enum Tag { $($(#[$doc])* $name,)* }

        impl Tag {
            const ALL: &'static [Tag] = &[$(Tag::$name,)*];
            /// The table as written, for the test that the masks below agree with it.
            #[cfg(test)]
            const ROWS: &'static [(Tag, Props, Carry)] = &[$((Tag::$name, $props, $carry),)*];
            // One bit per kind, by its number: testing a bit of a constant needs no load from a
            // table, which in the run loop's wasm was a chain of dependent loads on every event.
            const OWN: u64 = 0 $(| (($props.own as u64) << Tag::$name as u8))*;
            const LOCK_FREE: u64 = 0 $(| (($props.lock_free as u64) << Tag::$name as u8))*;
            const BOXED: u64 = 0 $(| ((matches!($carry, Boxed) as u64) << Tag::$name as u8))*;
            const INLINE: u64 = 0 $(| ((matches!($carry, Inline) as u64) << Tag::$name as u8))*;

            /// The kind numbered `n` (`n` from a queue entry, which only a `Tag` filled).
            pub fn from_u8(n: u8) -> Tag {
                $(if n == Tag::$name as u8 {
                    return Tag::$name;
                })*
                // Unreachable: no event kind has number n.
                unreachable!()
            }
        }
    };
}

tags! {
    /// The client runs its next operations (start, after work, after a retry timer).
    Step = (OWN, Bare),
    /// A script's pause ends.
    Wake = (OWN, Bare),
    /// A single server: the client's acquire request arrives.
    AcquireAt = (LOCK, Bare),
    /// A single server's answer reaches the client: a grant (with the lease's credentials), or no
    /// session.
    AcquireReply = (OWN, Boxed),
    /// A single server's refusal reaches the client: it carries nothing.
    AcquireRefused = (OWN, Bare),
    /// The storage: a read arrives.
    ReadAt = (WORLD, Boxed),
    ReadReply = (OWN, Boxed),
    /// The storage: a write arrives.
    WriteAt = (WORLD, Boxed),
    WriteReply = (OWN, Boxed),
    /// A single server: a value-checked release arrives.
    ReleaseAt = (LOCK, Boxed),
    /// A single server: a value-checked renewal arrives.
    RenewAt = (LOCK, Boxed),
    RenewReply = (OWN, Boxed),
    /// The scenario's fault number `client` happens.
    Fault = (LOCK, Bare),
    /// A session service: a frozen client's session times out (no keepalives).
    SessionTimeout = (LOCK, Bare),
    /// A session service: the client closes its connection at the end of its script.
    Disconnect = (LOCK, Bare),
    /// A timed pause (a fault, not a script step) ends.
    Thaw = (WORLD, Bare),
    /// A quorum service: an acquire request reaches a node.
    NodeAcquireAt = (LOCK, Inline),
    /// A quorum service: a node's answer reaches the client.
    NodeAcquireReply = (OWN_LOCK, Inline),
    /// A quorum service: an unlock reaches a node.
    NodeReleaseAt = (LOCK, Inline),
    /// A quorum service: the client stops waiting for replies of this round.
    RoundTimeout = (OWN_LOCK, Inline),
    /// A crashed node restarts (`client` is the node).
    Restart = (LOCK, Bare),
    /// A session service (a lease, a session): the client's request to open one arrives.
    SessionOpenAt = (LOCK, Bare),
    /// Its answer reaches the client (the lease's or session's ID).
    SessionOpenReply = (OWN, Boxed),
    /// The client's lock call arrives (a key or node of its own put in the lock's queue).
    LockAt = (LOCK, Bare),
    /// The lock call's answer (held, waiting behind another, or an error).
    LockReply = (OWN, Boxed),
    /// The client's unlock (a delete of its key or node) arrives.
    UnlockAt = (LOCK, Bare),
    /// A client's keepalive or ping timer (it freezes with the client).
    Heartbeat = (OWN, Bare),
    /// A keepalive (ping, heartbeat, renewal) arrives.
    HeartbeatAt = (LOCK, Bare),
    /// Its answer reaches the client.
    HeartbeatReply = (OWN, Boxed),
    /// The server checks whether the client's lease or session expired.
    SessionExpiry = (LOCK, Bare),
    /// The client's session closes (or its lease is revoked).
    SessionCloseAt = (LOCK, Bare),
    /// The entry a waiter watches was deleted; the watch event reaches the waiter.
    WatchFired = (OWN, Bare),
    /// The waiter lists the lock's queue again.
    ChildrenAt = (LOCK, Bare),
    /// The client library's read timeout (no reply from the server for a while): its connection
    /// state changes.
    ConnTimeout = (OWN, Bare),
    /// A while after that with still no reply, the client library declares the session lost.
    ConnLost = (OWN, Bare),
    /// A request that waits at the server for the lock (a lock call with a timeout) stops
    /// waiting; it carries the wait's number.
    WaitTimeout = (LOCK, Inline),
    /// The server closes a connection idle since its last statement (an idle timeout); it
    /// carries that statement's number.
    IdleTimeout = (LOCK, Inline),
    /// An injected cut of the client's links ends (last in the table: the kinds before keep their
    /// numbers, and so every signature of a run without one).
    Heal = (LOCK, Bare),
    /// A client library's own timer (a listener's next state, a renewal thread's tick): it freezes
    /// with the client; it carries the library's step (after `Heal`: the kinds before keep their
    /// numbers, and so every signature of a run without a library).
    LibraryTimer = (OWN, Inline),
    /// A client library's request reaches the lock server (`owned`'s question, a renewal, the
    /// check of a release's answer), or a grant reaches the library; it carries the library's step.
    LibraryAt = (LOCK, Inline),
}

// The masks above hold one bit per kind.
const _: () = assert!(Tag::ALL.len() <= 64);

impl Tag {
    fn bit(self, mask: u64) -> bool {
        (mask >> (self as u8)) & 1 != 0
    }

    pub fn props(self) -> Props {
        Props {
            own: self.bit(Tag::OWN),
            lock_free: self.bit(Tag::LOCK_FREE),
        }
    }

    pub fn carry(self) -> Carry {
        if self.bit(Tag::BOXED) {
            Boxed
        } else if self.bit(Tag::INLINE) {
            Inline
        } else {
            Bare
        }
    }
}

/// A write on its way to the storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WriteMsg {
    pub cred: Credentials,
    pub version_read: u64,
    pub value: i64,
    pub debit: i64,
    pub snapshot: i64,
}

/// What an event of a `Mailbox` kind carries (a message packed by its service rides in
/// [`Ev::payload`] instead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Msg {
    #[default]
    None,
    Grant(Grant),
    Cred(Credentials),
    Read(Result<(i64, u64), Refusal>),
    Write(WriteMsg),
    Accepted(bool),
    /// A lock value (release, renew).
    Value(u64),
    Renewed(Option<SimTime>),
}

/// An event as the queue holds it and a handler receives it: its kind, the client it belongs to (or the
/// fault's or node's index) and the word that travels in the queue entry itself ([`Ev::inline`]; 0
/// otherwise). Four bytes, passed in a register: a message of a `Mailbox` kind stays in its slot until
/// the handler reads it ([`crate::sim::Engine::msg`]), so no event copies a message it does not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ev {
    pub tag: Tag,
    pub client: u8,
    pub payload: u16,
}

impl Ev {
    /// An event with nothing in the queue entry: a timer, an index, or a message waiting in the mailbox.
    pub fn bare(tag: Tag, client: u8) -> Ev {
        Ev {
            tag,
            client,
            payload: 0,
        }
    }

    // (The core's services carry nothing inline: a build of the core alone leaves this and
    // `inline_payload` unused.)
    #[allow(dead_code)]
    /// An event whose message rides in the queue entry: 16 bits its service packs (a quorum
    /// client's node replies, which a round sends to every node at once and so cannot wait in one
    /// mailbox slot).
    pub fn inline(tag: Tag, client: u8, payload: u16) -> Ev {
        debug_assert!(tag.carry() == Inline, "{tag:?} carries nothing inline");
        Ev {
            tag,
            client,
            payload,
        }
    }

    /// The payload of an [`Ev::inline`] event.
    #[allow(dead_code)]
    pub fn inline_payload(self) -> u16 {
        debug_assert!(
            self.tag.carry() == Inline,
            "{:?} carries nothing inline",
            self.tag
        );
        self.payload
    }
}

/// Messages waiting in the queue, one slot per kind per client. A client has at most one message of
/// each kind in flight (it waits for every reply), so a slot is never overwritten before its event is
/// handled, and an event deferred while its client is frozen finds its message still there. Keeping
/// payloads here keeps queue entries at 16 bytes, which is what makes the queue fast.
#[derive(Default)]
pub(crate) struct Mailbox {
    slots: Vec<[Msg; Tag::ALL.len()]>,
}

impl Mailbox {
    /// Room for `clients` (slots are written before they are read: no need to clear them). Every run
    /// asks, nearly always with room enough: in the build for speed the answer inline, the growth out of
    /// line (as `check_config`; the lab's builds leave both to the compiler).
    #[cfg_attr(feature = "speed", inline(always))]
    pub fn reset(&mut self, clients: usize) {
        if self.slots.len() < clients {
            self.grow(clients);
        }
    }

    #[cfg_attr(feature = "speed", cold, inline(never))]
    fn grow(&mut self, clients: usize) {
        self.slots.resize(clients, [Msg::None; Tag::ALL.len()]);
    }

    /// Stores the message of an event of a `Mailbox` kind.
    #[inline(always)]
    pub fn put(&mut self, tag: Tag, client: u8, msg: Msg) {
        debug_assert!(tag.carry() == Boxed, "{tag:?} carries no mailbox message");
        self.slots[usize::from(client)][tag as usize] = msg;
    }

    /// The message of an event (`Msg::None` for a kind that carries none in the mailbox: `put` never
    /// writes such a kind's slot, so it keeps the `Msg::None` it was made with).
    // The slot as it is, without asking the kind's carriage first: a choice between the slot and
    // `Msg::None` made wasm copy the whole message, byte by byte at unaligned offsets, before a
    // handler matched it; read as a place, only the fields a handler binds are loaded. The every-cell
    // sweep took 4.5 % less time in wasm (issue 18, CHANGELOG.md).
    #[inline(always)]
    pub fn get(&self, ev: Ev) -> Msg {
        self.slots[usize::from(ev.client)][ev.tag as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_keeps_its_number_properties_and_carriage() {
        for (n, &(tag, props, carry)) in Tag::ROWS.iter().enumerate() {
            assert_eq!(tag as usize, n);
            assert_eq!(Tag::from_u8(n as u8), tag);
            assert_eq!(tag.props(), props, "{tag:?}");
            assert_eq!(tag.carry(), carry, "{tag:?}");
        }
    }

    #[test]
    fn a_kind_that_carries_nothing_reads_none_beside_messages_of_other_kinds() {
        let mut mail = Mailbox::default();
        mail.reset(2);
        for client in 0..2 {
            for &tag in Tag::ALL.iter().filter(|t| t.carry() == Boxed) {
                mail.put(tag, client, Msg::Value(7));
            }
        }
        for client in 0..2 {
            for &tag in Tag::ALL {
                let want = if tag.carry() == Boxed {
                    Msg::Value(7)
                } else {
                    Msg::None
                };
                assert_eq!(mail.get(Ev::bare(tag, client)), want, "{tag:?}");
            }
        }
    }

    /// Where a message goes in, its kind's carriage is checked, in every build with debug assertions:
    /// `make test` runs all tests so (`cargo test --profile checked`), not only the unit tests.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "carries no mailbox message")]
    fn a_message_for_a_bare_kind_is_refused() {
        let mut mail = Mailbox::default();
        mail.reset(1);
        mail.put(Tag::Step, 0, Msg::Value(1));
    }
}
