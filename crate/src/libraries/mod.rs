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
mod curator;
#[cfg(feature = "libraries")]
mod kazoo;

/// Whether client `c` calls a library that speaks for it to the service: the service then leaves its
/// own client library's conclusions (a listener's states, letting go of the lock) to it. Always
/// `false` in a build without libraries, so the test costs such a build nothing. (Only the services
/// beyond the core ask: the core's build leaves it unused.)
#[cfg_attr(not(feature = "zookeeper"), allow(dead_code))]
pub(crate) fn speaks_for(sc: &Scenario, c: u8) -> bool {
    cfg!(feature = "libraries") && sc.clients[usize::from(c)].library.is_some()
}

/// An error for a scenario whose client names a library in a build without them.
pub fn check_built_in(sc: &Scenario) -> Result<(), crate::error::Error> {
    if cfg!(feature = "libraries") || sc.clients.iter().all(|c| c.library.is_none()) {
        return Ok(());
    }
    Err(crate::error::Error::BadValue {
        what: "build".into(),
        why: format!(
            "scenario {} has a client that calls a library (library=…), which this build leaves \
             out (the cargo feature `libraries`: the command line has it)",
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
}

#[cfg(feature = "libraries")]
const SUSPENDED: u8 = 1;
#[cfg(feature = "libraries")]
const LOST: u8 = 2;

/// What the engine calls on a library (implemented on the engine in the library's file).
#[cfg(feature = "libraries")]
pub(crate) trait Library<L> {
    /// The client woke from a script's pause of `paused_us`.
    fn on_wake(&mut self, ctx: &Ctx, c: u8, paused_us: u64);

    /// One of the library's own timers (`step`: which, the library's numbering).
    fn on_timer(&mut self, ctx: &Ctx, c: u8, step: u16);

    /// The library's answer to `owned` now (only for a library that offers it: the parser refuses
    /// the op otherwise).
    fn owned(&mut self, ctx: &Ctx, c: u8) -> bool;
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

            /// A library's timer (`Tag::LibraryTimer`).
            pub(crate) fn on_library_timer(&mut self, ctx: &Ctx, ev: Ev) {
                use crate::scenario::LibraryKind as K;
                let (c, step) = (ev.client, ev.inline_payload());
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::on_timer(self, ctx, c, step), )*
                    // Unreachable: only a library sets its timers.
                    None => unreachable!(),
                }
            }

            /// The library's answer to `owned` (the parser allows the op only with a library).
            fn lib_owned(&mut self, ctx: &Ctx, c: u8) -> bool {
                use crate::scenario::LibraryKind as K;
                match ctx.sc.clients[usize::from(c)].library {
                    $( Some(K::$kind) => <Self as Library<$module::$ty>>::owned(self, ctx, c), )*
                    // Unreachable: the parser refuses `owned` for a client without a library.
                    None => unreachable!(),
                }
            }
        }
    };
}

#[cfg(feature = "libraries")]
libraries! {
    Kazoo => kazoo::Kazoo;
    Curator => curator::Curator;
}

#[cfg(feature = "libraries")]
#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]
impl Engine {
    /// A library's timer `step` for client `c`, `after` from now (it freezes with the client).
    pub(crate) fn lib_timer(&mut self, c: u8, after: u64, step: u16) {
        self.schedule(self.now.plus(after), Ev::inline(Tag::LibraryTimer, c, step));
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

    /// The client was granted the lock: the listener's record starts again.
    pub(crate) fn lib_on_grant(&mut self, c: u8) {
        self.clients[usize::from(c)].heard.states = 0;
    }

    /// Whether the client truly holds the lock now (what a note's `truth` says).
    fn lib_truth(&self, ctx: &Ctx, c: u8) -> bool {
        self.rightful(ctx) == Some(c)
    }

    /// `owned`: the library's answer, noted with the truth; a no gives the attempt up.
    pub(crate) fn op_owned(&mut self, ctx: &Ctx, c: u8) -> bool {
        let yes = self.lib_owned(ctx, c);
        let truth = self.lib_truth(ctx, c);
        let note = if yes {
            Note::OwnedYes { truth }
        } else {
            Note::OwnedNo { truth }
        };
        self.record(c, What::Notice { note });
        yes
    }

    /// `listener`: goes on only if the listener heard nothing that loses the lock since the grant:
    /// SUSPENDED or LOST, or LOST only where the service tolerates SUSPENDED.
    pub(crate) fn op_listener(&mut self, ctx: &Ctx, c: u8) -> bool {
        let tolerate = crate::scenario::own::Zookeeper::of(&ctx.sc.service).tolerate_suspended;
        let loses = if tolerate { LOST } else { LOST | SUSPENDED };
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

    #[test]
    fn a_build_without_libraries_refuses_their_scenarios_and_runs_the_rest() {
        let sc = catalogue::find("kazoo-is-acquired").unwrap();
        assert!(super::check_built_in(sc).is_ok(), "this build has them");
        assert!(sc.clients[0].library.is_some());
        assert!(super::speaks_for(sc, 0));
        assert!(!super::speaks_for(sc, 1));
    }
}
