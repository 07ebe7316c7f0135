//! The client libraries a scenario's client may call (`library=kazoo`, …), the engine's half: what
//! each library tells the application, and when. A library is a unit type in its own file
//! implementing [`Library`] on the engine; the list below names each once, and the engine calls only
//! the dispatch made from it, never a library by name. Each library's facts and timings, with their
//! sources, are its model home's (`crate/model/src/libraries/NAME.rs`).
//!
//! The lock's truth stays the service's: a library only changes what the application hears. Its
//! notices are trace events ([`What::Notice`], and [`What::Connection`] for a listener's states), on
//! the client's lane; `owned` and `listener` are script ops whose answer decides, as a failed
//! `check` does, whether the attempt goes on.
//!
//! Behind the cargo feature `libraries` (the command line's): a build without it has none of this,
//! and refuses a scenario whose client names a library ([`check_built_in`]).

use crate::scenario::Scenario;
#[cfg(feature = "libraries")]
use crate::sim::{Ctx, Engine, Ev, Tag};
#[cfg(feature = "libraries")]
use crate::trace::{Connection, Note, What};

#[cfg(feature = "libraries")]
mod asked;
#[cfg(feature = "libraries")]
mod curator;
#[cfg(feature = "libraries")]
mod etcd_concurrency;
#[cfg(feature = "libraries")]
mod kazoo;
#[cfg(feature = "libraries")]
mod node_redlock;
#[cfg(feature = "libraries")]
mod pottery;
#[cfg(feature = "libraries")]
mod python_redis_lock;
#[cfg(feature = "libraries")]
mod redis_py;
#[cfg(feature = "libraries")]
mod redisson;

/// Whether client `c` calls a library that speaks for it to the service: the service then leaves its
/// own client library's conclusions (a listener's states, letting go of the lock) to it. Always
/// `false` in a build without libraries, so the test costs such a build nothing. (Only the services
/// beyond the core ask: the core's build leaves it unused.)
#[allow(dead_code)] // (only a service beyond the core asks)
pub(crate) fn speaks_for(sc: &Scenario, c: u8) -> bool {
    cfg!(feature = "libraries") && sc.clients[usize::from(c)].library.is_some()
}

/// The token client `c`'s library offers for a lock granted now: the response's revision
/// (`header_revision`) where the library's token is that, else the service's own (`token`). Always
/// the service's in a build without libraries.
#[allow(dead_code)] // (only one service beyond the core asks)
pub(crate) fn grant_token(sc: &Scenario, c: u8, token: u64, header_revision: u64) -> u64 {
    let lib = sc.clients[usize::from(c)].library;
    if cfg!(feature = "libraries") && lib.is_some_and(|l| l.grant_revision_token()) {
        header_revision
    } else {
        token
    }
}

/// An error for a scenario whose client names a library in a build without them.
pub fn check_built_in(sc: &Scenario) -> Result<(), crate::error::Error> {
    if cfg!(feature = "libraries") || sc.clients.iter().all(|c| c.library.is_none()) {
        return Ok(());
    }
    Err(crate::error::Error::BadValue {
        what: "build".into(),
        why: format!(
            "scenario {}: library= needs a build with the libraries",
            sc.id
        ),
    })
}

/// What a client's library has heard and is doing, during a run (reset with the client's state).
#[cfg(feature = "libraries")]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Heard {
    /// The listener states heard since the grant (bits: [`SUSPENDED`], [`LOST`]).
    pub states: u8,
    /// Its connection is down between a timeout and the reconnect: it sends nothing (no pings).
    pub down: bool,
    /// It offered its session again and waits for the answer.
    pub reconnecting: bool,
    /// Counts the client's grants: a renewal thread's tick carries the grant it renews.
    pub grant: u8,
    /// The client calls a library (set when a run starts).
    pub library: bool,
    /// Its library has a renewal thread (set when a run starts).
    pub renews: bool,
    /// The lock value its renewal thread renews.
    pub value: u64,
}

#[cfg(feature = "libraries")]
pub(crate) const SUSPENDED: u8 = 1;
#[cfg(feature = "libraries")]
pub(crate) const LOST: u8 = 2;

/// What the engine calls on a library (implemented on the engine in the library's file). What a
/// library asks the lock server over the network (`owned`'s round trip, the check its release's
/// answer makes, a renewal thread) is shared, in [`asked`]; a library's own timers are its own steps.
#[cfg(feature = "libraries")]
pub(crate) trait Library<L> {
    /// The client woke from a script's pause of `paused_us`.
    fn on_wake(&mut self, _ctx: &Ctx, _c: u8, _paused_us: u64) {}

    /// The client was granted the lock (a renewal thread starts).
    fn on_grant(&mut self, _ctx: &Ctx, _c: u8) {}

    /// One of the library's own timers (`step`: which, below [`asked::SHARED`]).
    fn on_timer(&mut self, _ctx: &Ctx, _c: u8, _step: u16) {
        // Unreachable: a library that sets no timers of its own gets none.
        unreachable!()
    }

    /// The library's answer to `owned`: now, or asked of the server (it answers a round trip later,
    /// [`Library::server_owned`]). Only for a library that offers it: the parser refuses it otherwise.
    fn owned(&mut self, ctx: &Ctx, c: u8) -> Ask;

    /// At the server, the answer `owned`'s request gets (for a library that asks it).
    fn server_owned(&mut self, _ctx: &Ctx, _c: u8) -> bool {
        // Unreachable: only a library whose `owned` asks the server sends the request.
        unreachable!()
    }

    /// Whether the client holds the lock at the server now: what a note's `truth` says, and whether a
    /// release finds the lock still the client's.
    fn truth(&mut self, ctx: &Ctx, c: u8) -> bool;

    /// Its renewal thread's period (0: it has none).
    fn renewal_every(&self, _ctx: &Ctx) -> u64 {
        0
    }

    /// What its listener hears that loses the lock (bits [`SUSPENDED`], [`LOST`]).
    fn listener_loses(&self, _ctx: &Ctx) -> u8 {
        LOST | SUSPENDED
    }
}

/// SUSPENDED or LOST lose the lock, or LOST only where the service tolerates SUSPENDED (its own
/// setting, asked of its options: `suspended=tolerate`, Curator's SessionConnectionStateErrorPolicy),
/// for a listener of its states.
#[cfg(feature = "libraries")]
fn lost_unless_tolerated(ctx: &Ctx) -> u8 {
    if ctx.sc.service.own.tolerates_suspended() {
        LOST
    } else {
        LOST | SUSPENDED
    }
}

/// `owned`'s answer: now (local bookkeeping), or after a round trip to the server.
#[cfg(feature = "libraries")]
pub(crate) enum Ask {
    Now(bool),
    Asked,
}

/// `libraries! { Kind => module::Type; … }`: the dispatch by the client's library.
#[cfg(feature = "libraries")]
macro_rules! libraries {
    ($( $kind:ident => $module:ident::$ty:ident; )*) => {
        #[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
        impl Engine {
            /// Client `c` woke from a script's pause of `paused_us`: its library's hook, if any.
            pub(crate) fn lib_on_wake(&mut self, ctx: &Ctx, c: u8, paused_us: u64) {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::on_wake(self, ctx, c, paused_us), )*
                    None => {}
                }
            }

            /// The grant reached a library with a renewal thread: its hook.
            pub(crate) fn lib_on_grant(&mut self, ctx: &Ctx, c: u8) {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::on_grant(self, ctx, c), )*
                    None => {}
                }
            }

            /// A library's own timer (`step` below [`asked::SHARED`]).
            fn lib_own_timer(&mut self, ctx: &Ctx, c: u8, step: u16) {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::on_timer(self, ctx, c, step), )*
                    // Unreachable: only a library sets its timers.
                    None => unreachable!(),
                }
            }

            /// The library's answer to `owned` (the parser allows the op only with a library).
            fn lib_owned(&mut self, ctx: &Ctx, c: u8) -> Ask {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::owned(self, ctx, c), )*
                    // Unreachable: the parser refuses `owned` for a client without a library.
                    None => unreachable!(),
                }
            }

            /// At the server: the answer to the library's `owned` request.
            fn lib_server_owned(&mut self, ctx: &Ctx, c: u8) -> bool {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::server_owned(self, ctx, c), )*
                    // Unreachable: only a library sends the request.
                    None => unreachable!(),
                }
            }

            /// Whether the client holds the lock at the server now, as its library's service says.
            fn lib_truth(&mut self, ctx: &Ctx, c: u8) -> bool {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::truth(self, ctx, c), )*
                    None => self.rightful(ctx) == Some(c),
                }
            }

            /// What the library's listener hears that loses the lock.
            fn lib_listener_loses(&self, ctx: &Ctx, c: u8) -> u8 {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::listener_loses(self, ctx), )*
                    None => LOST | SUSPENDED,
                }
            }

            /// The library's renewal period (0: none).
            fn lib_renewal_every(&self, ctx: &Ctx, c: u8) -> u64 {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::renewal_every(self, ctx), )*
                    None => 0,
                }
            }
        }
    };
}

#[cfg(feature = "libraries")]
libraries! {
    Kazoo => kazoo::Kazoo;
    Curator => curator::Curator;
    RedisPy => redis_py::RedisPy;
    PythonRedisLock => python_redis_lock::PythonRedisLock;
    Redisson => redisson::Redisson;
    Pottery => pottery::Pottery;
    EtcdConcurrency => etcd_concurrency::EtcdConcurrency;
    NodeRedlock => node_redlock::NodeRedlock;
}

#[cfg(feature = "libraries")]
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// The client holds the lock it was granted (`Engine::hold_lease`): its library's listener
    /// record starts again, and a renewal thread starts at the server's instant, so that a pause
    /// right after the grant does not hold it back.
    pub(crate) fn lib_on_hold(&mut self, c: u8) {
        let heard = &mut self.clients[usize::from(c)].heard;
        if !heard.library {
            return;
        }
        heard.states = 0;
        heard.grant = heard.grant.wrapping_add(1);
        if heard.renews {
            self.lib_granted(c);
        }
    }

    /// A library's timer `step` for client `c`, `after` from now (it freezes with the client).
    pub(crate) fn lib_timer(&mut self, c: u8, after: u64, step: u16) {
        self.schedule(self.now.plus(after), Ev::inline(Tag::LibraryTimer, c, step));
    }

    /// A library's timer comes due (`Tag::LibraryTimer`): a shared step, or the library's own.
    pub(crate) fn on_library_timer(&mut self, ctx: &Ctx, ev: Ev) {
        let (c, payload) = (ev.client, ev.inline_payload());
        if payload & 0xff >= asked::SHARED {
            self.lib_shared_timer(ctx, c, payload);
        } else {
            self.lib_own_timer(ctx, c, payload);
        }
    }

    /// The listener hears `state` (recorded on the client's lane as the library reports it).
    pub(crate) fn lib_hears(&mut self, c: u8, state: Connection) {
        let bit = match state {
            Connection::Suspended => SUSPENDED,
            Connection::Lost => LOST,
            Connection::Reconnected => 0,
        };
        self.clients[usize::from(c)].heard.states |= bit;
        self.record(c, What::Connection { state });
    }

    /// Whether the library's connection is down (it sends nothing): the service asks before a ping.
    pub(crate) fn lib_down(&self, c: u8) -> bool {
        self.clients[usize::from(c)].heard.down
    }

    /// The server answered a ping or a reconnect (`live`: the session lives). A library waiting for
    /// its reconnect's answer hears LOST and a new session, or the session back.
    pub(crate) fn lib_on_session_answer(&mut self, c: u8, live: bool) {
        if !std::mem::take(&mut self.clients[usize::from(c)].heard.reconnecting) {
            return;
        }
        if !live {
            self.lib_hears(c, Connection::Lost);
        }
        self.lib_hears(c, Connection::Reconnected);
    }

    /// `owned`: the library's answer now, noted with the truth (`Some`), or asked of the server
    /// (`None`: the answer moves the client on, [`Engine::lib_owned_answer`]).
    pub(crate) fn op_owned(&mut self, ctx: &Ctx, c: u8) -> Option<bool> {
        let Ask::Now(yes) = self.lib_owned(ctx, c) else {
            return None;
        };
        let truth = self.lib_truth(ctx, c);
        self.lib_note_owned(c, yes, truth);
        Some(yes)
    }

    /// `owned-yes` or `owned-no`, with the truth.
    fn lib_note_owned(&mut self, c: u8, yes: bool, truth: bool) {
        let note = if yes {
            Note::OwnedYes { truth }
        } else {
            Note::OwnedNo { truth }
        };
        self.record(c, What::Notice { note });
    }

    /// `listener`: goes on only if the listener heard nothing that loses the lock since the grant:
    /// SUSPENDED or LOST, or LOST only where the service tolerates SUSPENDED.
    pub(crate) fn op_listener(&mut self, ctx: &Ctx, c: u8) -> bool {
        let loses = self.lib_listener_loses(ctx, c);
        let ok = self.clients[usize::from(c)].heard.states & loses == 0;
        let note = if ok {
            Note::ListenerOk
        } else {
            Note::ListenerLost
        };
        self.record(c, What::Notice { note });
        ok
    }
}

#[cfg(all(test, feature = "libraries"))]
mod tests {
    use crate::scenario::Scenario;
    use crate::trace::{Kind, Note, What};
    use crate::{catalogue, simulate, Config, Policy};

    /// The client's library events (listener states and notices) as (µs, kind, note).
    fn heard(sc: &Scenario, set: &[(&str, u64)]) -> Vec<(u64, Kind, Option<Note>)> {
        let mut cfg = Config::new(sc, Policy::None);
        for &(name, us) in set {
            sc.set_param(&mut cfg.params, name, us).unwrap();
        }
        let o = simulate(sc, &cfg).unwrap();
        o.run
            .trace
            .iter()
            .filter(|e| e.client == 0)
            .filter_map(|e| match e.what {
                What::Connection { .. } => Some((e.t.0, e.kind(), None)),
                What::Notice { note } => Some((e.t.0, e.kind(), Some(note))),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn kazoo_hears_suspended_lost_and_a_new_session_at_its_own_moments() {
        let sc = catalogue::find("kazoo-is-acquired").unwrap();
        let got = heard(sc, &[]);
        // Woke at 4 s: SUSPENDED 1 ms later, LOST and CONNECTED each 100 ms + a round trip (0 here)
        // after; `is_acquired` at 5 s says yes, though the lock is B's.
        let owned = Some(Note::OwnedYes { truth: false });
        assert_eq!(
            got,
            [
                (4_001_000, Kind::Suspended, None),
                (4_101_000, Kind::Lost, None),
                (4_201_000, Kind::Reconnected, None),
                (5_000_000, Kind::Notice, owned),
            ]
        );
    }

    #[test]
    fn kazoo_says_nothing_after_a_pause_its_session_survived() {
        let sc = catalogue::find("kazoo-is-acquired").unwrap();
        let got = heard(sc, &[("pause", 1_800_000)]); // past 2/3 of the 2 s session, short of it
        let owned = Some(Note::OwnedYes { truth: true });
        assert_eq!(got, [(2_800_000, Kind::Notice, owned)]);
    }

    #[test]
    fn a_listener_check_before_suspended_passes_and_after_it_fails() {
        let sc = catalogue::find("kazoo-listener-race").unwrap();
        let at_wake = heard(sc, &[]);
        assert_eq!(
            at_wake[0],
            (4_000_000, Kind::Notice, Some(Note::ListenerOk))
        );
        let later = heard(sc, &[("work", 2_000)]);
        assert_eq!(later[0], (4_001_000, Kind::Suspended, None));
        assert_eq!(
            later[1],
            (4_002_000, Kind::Notice, Some(Note::ListenerLost))
        );
    }

    #[test]
    fn curator_hears_suspended_then_lost_a_second_and_a_half_later() {
        let sc = catalogue::find("curator-listener-window").unwrap();
        let got = heard(sc, &[]);
        // SUSPENDED 100 ms after waking at 4 s; the reconnect 1 s + 500 ms later finds the session
        // expired: LOST and the new session at once (a round trip of 0 here). The check at 5 s,
        // tolerating SUSPENDED, passes.
        assert_eq!(
            got,
            [
                (4_100_000, Kind::Suspended, None),
                (5_000_000, Kind::Notice, Some(Note::ListenerOk)),
                (5_600_000, Kind::Lost, None),
                (5_600_000, Kind::Reconnected, None),
            ]
        );
    }

    #[test]
    fn curator_keeps_a_session_its_reconnect_reaches_in_time() {
        // A 6 s session, A frozen 4.2 s from 0: past the read timeout (4 s), so SUSPENDED at 4.3 s
        // and no pings; its reconnect at 5.8 s comes before the server's expiry (6 s after the last
        // touch at 0): the same session, RECONNECTED, and no LOST. (A works 2 s after waking: a
        // client that ends its script closes its session, and a reconnect after that finds none.)
        let text = include_str!("../../scenarios/curator-listener-window.txt")
            .replace("session=$session", "session=6s")
            .replace("pause 4s", "pause 4200ms");
        let sc = Scenario::parse(&text).unwrap();
        let got = heard(&sc, &[("work", 2_000_000)]);
        assert_eq!(got[0], (4_300_000, Kind::Suspended, None));
        assert!(
            got.contains(&(5_800_000, Kind::Reconnected, None)),
            "{got:?}"
        );
        assert!(got.iter().all(|e| e.1 != Kind::Lost), "{got:?}");
    }

    /// The client's notices alone, as (µs, note).
    fn notes(id: &str, set: &[(&str, u64)]) -> Vec<(u64, Note)> {
        let sc = catalogue::find(id).unwrap();
        heard(sc, set)
            .into_iter()
            .filter_map(|(t, _, n)| n.map(|n| (t, n)))
            .collect()
    }

    #[test]
    fn redis_py_answers_owned_a_round_trip_later_and_raises_at_release() {
        // Latency 0.5 ms: the grant reaches A at 1 ms, and A freezes then; its GET after the pause
        // (woke at 2.501 s) reads the server at 2.5015 s and answers at 2.502 s: no, and A gives up.
        let after = notes("redis-py-owned-after-pause", &[]);
        assert_eq!(after, [(2_502_000, Note::OwnedNo { truth: false })]);
        // Asked before the pause: yes, truly; the stale write at 2.502 s, then the release raises a
        // round trip after it is called (2.503 s).
        let before = notes("redis-py-owned-before-pause", &[]);
        let yes = (2_000, Note::OwnedYes { truth: true });
        assert_eq!(before, [yes, (2_503_000, Note::ReleaseRaised)]);
        // A release of a lock still its own raises nothing.
        assert_eq!(
            notes("redis-py-owned-before-pause", &[("pause", 500_000)]),
            [yes]
        );
    }

    #[test]
    fn the_renewal_thread_renews_at_once_on_waking_and_dies_when_refused() {
        let died = notes("python-redis-lock-renewal-died", &[]);
        // Woke at 2.501 s; the overdue renewal reaches the server at 2.5015 s, is refused (B holds
        // the key), and the thread dies as its answer comes back, at 2.502 s.
        assert_eq!(
            died,
            [
                (2_502_000, Note::RenewalDied),
                (2_502_000, Note::ReleaseRaised)
            ]
        );
        // A pause past the renewal's period but within the TTL: the overdue renewal keeps the lock.
        assert_eq!(
            notes("python-redis-lock-renewal-died", &[("pause", 700_000)]),
            []
        );
        // Redisson's watchdog: renewed at 10 s and 20 s; the JVM woke at 65.001 s.
        let frozen = notes("redisson-watchdog-frozen", &[]);
        assert_eq!(
            frozen,
            [
                (65_002_000, Note::RenewalDied),
                (65_002_000, Note::ReleaseRaised)
            ]
        );
    }

    #[test]
    fn pottery_raises_when_no_majority_held_its_value() {
        let raised = notes("pottery-release-raised", &[]);
        assert_eq!(raised.len(), 1);
        assert_eq!(raised[0].1, Note::ReleaseRaised);
        assert_eq!(notes("pottery-release-raised", &[("pause", 500_000)]), []);
    }

    #[test]
    fn node_redlock_answers_owned_at_once_from_the_clients_own_clock() {
        // A sends its lock requests at local 0: expiration 0 + 1000 − 12 = 988 ms on A's clock. The
        // grant reaches A at 1 ms and A freezes; it wakes at 2.501 s and asks at once, no round trip.
        let no = Note::OwnedNo { truth: false };
        assert_eq!(
            notes("node-redlock-expiration-after-pause", &[]),
            [(2_501_000, no)]
        );
        let yes = Note::OwnedYes { truth: true };
        let short = [("pause", 500_000)];
        assert_eq!(
            notes("node-redlock-expiration-after-pause", &short),
            [(501_000, yes)]
        );
        // Stepped back 2 s at 1.5 s, A's clock reads 0.501 s on waking: yes, though the keys expired
        // at 1 s and B holds the lock; the release raises a round trip after it is called.
        let stale = notes("node-redlock-clock-step-back", &[]);
        assert_eq!(stale[0], (2_501_000, Note::OwnedYes { truth: false }));
        assert_eq!(stale[1].1, Note::ReleaseRaised);
        assert_eq!(stale.len(), 2);
    }

    #[test]
    fn node_redlocks_expiration_ends_at_the_988th_ms_of_the_clients_clock() {
        // Waking at true 1 ms + pause, A's clock reads 2 s less: 987.999 ms is still before the
        // expiration (Date.now() says 987 < 988), 988.000 ms is not.
        let id = "node-redlock-clock-step-back";
        let before = notes(id, &[("pause", 2_986_999)]);
        assert_eq!(before[0], (2_987_999, Note::OwnedYes { truth: false }));
        let at = notes(id, &[("pause", 2_987_000)]);
        assert_eq!(at, [(2_988_000, Note::OwnedNo { truth: false })]);
    }

    #[test]
    fn etcd_sessions_are_done_3_ms_after_waking_and_a_waiters_token_is_its_grants_revision() {
        assert_eq!(
            notes("etcdctl-lock-rev", &[]),
            [(5_003_000, Note::SessionDone)]
        );
        assert_eq!(notes("etcdctl-lock-rev", &[("pause", 1_000_000)]), []);
        let sc = catalogue::find("etcdctl-lock-rev").unwrap();
        let o = simulate(sc, &Config::new(sc, Policy::Token)).unwrap();
        let b_create = o.run.leases.iter().find(|l| l.client == 1).unwrap().token;
        let b_write = o.run.writes.iter().find(|w| w.client == 1).unwrap().token;
        assert_eq!(b_create, 3, "B's key is put at revision 3");
        assert_eq!(
            b_write, 4,
            "the way cleared when A's key was deleted, at revision 4"
        );
        let a_write = o.run.writes.iter().find(|w| w.client == 0).unwrap().token;
        assert_eq!(
            a_write, 2,
            "A was granted at once: its key's create revision"
        );
    }

    #[test]
    fn an_etcd_listener_check_after_the_session_is_done_fails() {
        let text = include_str!("../../scenarios/etcdctl-lock-rev.txt").replace(
            "pause $pause; write 60",
            "pause $pause; work 5ms; listener; write 60",
        );
        let sc = Scenario::parse(&text).unwrap();
        let got = heard(&sc, &[]);
        assert_eq!(got[1], (5_005_000, Kind::Notice, Some(Note::ListenerLost)));
        let e = Scenario::parse(&text.replace("listener;", "owned;")).unwrap_err();
        assert!(e.to_string().contains("IsOwner() is a compare"), "{e}");
    }

    #[test]
    fn a_build_without_libraries_refuses_their_scenarios_and_runs_the_rest() {
        let sc = catalogue::find("kazoo-is-acquired").unwrap();
        assert!(super::check_built_in(sc).is_ok(), "this build has them");
        assert!(sc.clients[0].library.is_some());
        assert!(super::speaks_for(sc, 0));
        assert!(!super::speaks_for(sc, 1));
    }
}
