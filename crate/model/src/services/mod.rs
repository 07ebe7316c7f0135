//! The lock services a scenario can run against, and the one list of them: [`ServiceKind`], and each
//! service's own part of the scenario format in its home, `services/NAME.rs` — its defaults, its own
//! `key=value` settings and their checks, its word for `tokens=`, its faults — behind one interface,
//! [`ServiceFormat`]. The shared parser (`scenario/`) names no service: it asks the scenario's service
//! through [`format_of`], and the messages that list services are made here from [`LISTED`].
//!
//! Adding a service to the model: its home file and one line in the list below, from which the
//! `services!` macro makes its `mod` line, its `ServiceKind` variant, its `name()`, its line in
//! [`format_of`] and its place in [`LISTED`].
//!
//! A trait of unit structs rather than a table of function pointers: each service overrides only what
//! it has, the rest is the trait's default. The parser alone reaches these (through `format_of`), so
//! a build that never parses (the page's wasm) carries none of it; [`ServiceKind::name`] and
//! [`ServiceKind::has_naive`], which runs read, stay plain matches.

use crate::error::Error;
use crate::scenario::parser::Parser;
use crate::scenario::{Scenario, ServiceSpec};

/// `services! { Kind => module [naive]; … }`: one line per service, in the order the format's
/// messages list them. `module` is the service's home and its name in scenario files; its unit type
/// is named as its kind; `naive` says the naive switch means something for it.
macro_rules! services {
    (@naive) => { false };
    (@naive naive) => { true };
    ($( $kind:ident => $module:ident $($naive:ident)? ; )*) => {
        $( pub(crate) mod $module; )*

        /// What kind of lock service: each is described in its home, `services/NAME.rs`, and in the
        /// engine's `crate/src/services/NAME.rs`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ServiceKind {
            $( #[doc = concat!("`service: ", stringify!($module), "`.")] $kind, )*
        }

        impl ServiceKind {
            /// Every service, in the order the format's messages list them.
            pub const ALL: [ServiceKind; [$(stringify!($kind)),*].len()] = [$( ServiceKind::$kind ),*];

            /// The name scenario files and the run JSON use.
            pub fn name(self) -> &'static str {
                match self {
                    $( ServiceKind::$kind => stringify!($module), )*
                }
            }

            /// A client polls one lock server ([`Facts::POLLS_ONE_SERVER`]).
            pub const fn polls_one_server(self) -> bool {
                match self { $( ServiceKind::$kind => <$module::$kind as Facts>::POLLS_ONE_SERVER, )* }
            }

            /// The lock is held by a quorum of nodes ([`Facts::QUORUM`]).
            pub const fn quorum(self) -> bool {
                match self { $( ServiceKind::$kind => <$module::$kind as Facts>::QUORUM, )* }
            }

            /// Why a crash or failover of the service's servers is not a fault it has (the safety
            /// table's `failover` column is n/a for it, with this reason), or `None` where the
            /// model has one that loses state ([`Facts::NO_FAILOVER`]).
            pub const fn no_failover(self) -> Option<&'static str> {
                match self { $( ServiceKind::$kind => <$module::$kind as Facts>::NO_FAILOVER, )* }
            }

            /// A hold ends by itself after a TTL ([`Facts::EXPIRES`]).
            pub const fn expires(self) -> bool {
                match self { $( ServiceKind::$kind => <$module::$kind as Facts>::EXPIRES, )* }
            }

            /// Whether the naive switch means something for this service (what it means: its
            /// [`ServiceKind::naive_means`]). A plain match, which runs read; that the two agree
            /// is a test.
            pub fn has_naive(self) -> bool {
                match self {
                    $( ServiceKind::$kind => services!(@naive $($naive)?), )*
                }
            }
        }

        /// The service's own part of the format: the one dispatch by kind.
        pub(crate) fn format_of(kind: ServiceKind) -> Format {
            Format(kind)
        }

        /// Each of [`ServiceFormat`]'s questions, asked of the kind's own format by a `match`:
        /// static dispatch, which the parser's wasm (budgeted for size) takes in fewer bytes than
        /// a table of trait objects, most services' answers being the trait's defaults.
        impl ServiceFormat for Format {
            fn defaults(&self, svc: &mut ServiceSpec) {
                svc.own = Own::default_of(self.0);
                match self.0 { $( ServiceKind::$kind => $module::$kind.defaults(svc), )* }
            }
            fn keys(&self) -> &'static [&'static str] {
                match self.0 { $( ServiceKind::$kind => $module::$kind.keys(), )* }
            }
            fn setting(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
                match self.0 { $( ServiceKind::$kind => $module::$kind.setting(p, k, v), )* }
            }
            fn check_foreign(&self, p: &mut Parser<'_>, k: &str, v: &str) -> Result<(), Error> {
                match self.0 { $( ServiceKind::$kind => $module::$kind.check_foreign(p, k, v), )* }
            }
            fn token_words(&self) -> &'static [&'static str] {
                match self.0 { $( ServiceKind::$kind => $module::$kind.token_words(), )* }
            }
            fn token(&self, svc: &mut ServiceSpec, word: &str) {
                match self.0 { $( ServiceKind::$kind => $module::$kind.token(svc, word), )* }
            }
            fn renews(&self) -> bool {
                match self.0 { $( ServiceKind::$kind => $module::$kind.renews(), )* }
            }
            fn named_nodes(&self) -> bool {
                match self.0 { $( ServiceKind::$kind => $module::$kind.named_nodes(), )* }
            }
            fn faults(&self) -> &'static [&'static str] {
                match self.0 { $( ServiceKind::$kind => $module::$kind.faults(), )* }
            }
            fn naive(&self) -> &'static str {
                match self.0 { $( ServiceKind::$kind => $module::$kind.naive(), )* }
            }
            fn check_line(&self, p: &mut Parser<'_>) -> Result<(), Error> {
                match self.0 { $( ServiceKind::$kind => $module::$kind.check_line(p), )* }
            }
            fn check_whole(&self, sc: &Scenario) -> Result<(), Error> {
                match self.0 { $( ServiceKind::$kind => $module::$kind.check_whole(sc), )* }
            }
        }

        /// The scenario's service's own settings, typed in its home (`services/NAME.rs`'s
        /// `Options`): what no other service reads. (The settings several services read are
        /// [`ServiceSpec`]'s own fields.)
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Own {
            $( #[doc = concat!("`service: ", stringify!($module), "`'s.")] $kind($module::Options), )*
        }

        /// Each service's options type under its kind's name (`own::KIND`), for the engine's
        /// service files and the build script.
        pub mod own {
            $( pub use super::$module::Options as $kind; )*
        }

        impl Own {
            /// `kind`'s default options.
            pub fn default_of(kind: ServiceKind) -> Own {
                match kind { $( ServiceKind::$kind => Own::$kind(Default::default()), )* }
            }

            /// Whether the service prints its tokens in hex (they are IDs, not counters).
            pub fn token_in_hex(&self) -> bool {
                match self { $( Own::$kind(o) => o.token_in_hex(), )* }
            }

            /// Whether a client keeps acting on its lock while its connection is SUSPENDED: a
            /// library's connection listener then loses the lock on LOST only.
            pub fn tolerates_suspended(&self) -> bool {
                match self { $( Own::$kind(o) => o.tolerates_suspended(), )* }
            }
        }

        $(
            impl $module::Options {
                /// The scenario's options of this service; its defaults for a scenario of another.
                #[allow(unreachable_patterns)]
                pub fn of(svc: &ServiceSpec) -> Self {
                    match svc.own {
                        Own::$kind(o) => o,
                        _ => Self::default(),
                    }
                }

                /// For its home's parser: the scenario's options of this service (made its defaults
                /// first if they were another's).
                #[allow(dead_code, unreachable_patterns)]
                pub(crate) fn of_mut(svc: &mut ServiceSpec) -> &mut Self {
                    if !matches!(svc.own, Own::$kind(_)) {
                        svc.own = Own::$kind(Self::default());
                    }
                    match &mut svc.own {
                        Own::$kind(o) => o,
                        // Unreachable: set just above.
                        _ => unreachable!(),
                    }
                }
            }
        )*

        /// Every service, in the order the format's messages list them.
        const LISTED: [ServiceKind; ServiceKind::ALL.len()] = ServiceKind::ALL;
    };
}

services! {
    Lease => lease;
    Session => session;
    Mysql => mysql;
    Redis => redis;
    Redlock => redlock naive;
    Etcd => etcd naive;
    Zookeeper => zookeeper;
    Hazelcast => hazelcast;
    Kubernetes => kubernetes naive;
    Consul => consul;
    Dynamodb => dynamodb;
}

/// What the engine, its sweeps and the search ask of a service beyond its format: facts, as constants
/// its home sets where it differs from the default most services share (asked through
/// [`ServiceKind`]'s methods of the same names, which fold to constants for a known kind).
pub(crate) trait Facts {
    /// A client asks one lock server and, when denied, asks it again after a while: the engine takes
    /// such a client's requests and answers on a fast path, and sweeps may skip its denied retries.
    const POLLS_ONE_SERVER: bool = false;

    /// A client holds the lock when a majority of independent nodes granted it within its validity:
    /// its grants are the majorities, injections may name its nodes, and its validity's drift
    /// allowance is a floor of the TTL in a run's signature.
    const QUORUM: bool = false;

    /// A hold ends by itself after the TTL; `false` for a lock held by a session (no TTL).
    const EXPIRES: bool = true;

    /// Why no crash or failover of the service loses its lock, from its documentation (or why the
    /// model cannot say what a crash keeps): the safety table's `failover` column's reason. `None`
    /// where the model has a crash or failover that loses state (a single redis, a quorum's nodes).
    const NO_FAILOVER: Option<&'static str> = None;
}

/// What the shared code may ask of a service's own options (its home's `Options`); each question's
/// default is what options without it answer.
pub(crate) trait OwnOptions {
    /// Its tokens are IDs printed in hex, not counters.
    fn token_in_hex(&self) -> bool {
        false
    }

    /// Its clients keep acting on a lock while their connection is SUSPENDED (the service's own
    /// setting says so), instead of taking SUSPENDED as losing it.
    fn tolerates_suspended(&self) -> bool {
        false
    }
}

/// A lock service's own part of the scenario format. Every method has a default, what a service
/// without that part needs: a service overrides what it has.
pub(crate) trait ServiceFormat {
    /// Its defaults, set on the empty scenario's service when `service: NAME` names it.
    fn defaults(&self, _svc: &mut ServiceSpec) {}

    /// The keys of its own `key=value` settings (the shared ones, `ttl=` and the like, are the
    /// parser's). Two services may share a key (`heartbeat`, `lease`): the scenario's reads it.
    fn keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// One of its own settings (`k` is one of its `keys`), in a scenario of this service.
    fn setting(&self, _p: &mut Parser<'_>, _k: &str, _v: &str) -> Result<(), Error> {
        Ok(())
    }

    /// Checks the value of one of its own settings that a scenario of another service writes, before
    /// the error that says which service it needs.
    fn check_foreign(&self, _p: &mut Parser<'_>, _k: &str, _v: &str) -> Result<(), Error> {
        Ok(())
    }

    /// The words of `tokens=` that turn its tokens on (`no` turns any service's off).
    fn token_words(&self) -> &'static [&'static str] {
        &[]
    }

    /// What a token word of its own chooses besides turning tokens on.
    fn token(&self, _svc: &mut ServiceSpec, _word: &str) {}

    /// Whether its clients may `renew` (the other services keep their locks alive themselves).
    fn renews(&self) -> bool {
        false
    }

    /// Whether a scenario names its servers (`n1` …: in `node`, `reach=`, `latency=`, `cut`).
    fn named_nodes(&self) -> bool {
        false
    }

    /// The faults only it has (`at D: WORD …`).
    fn faults(&self) -> &'static [&'static str] {
        &[]
    }

    /// What the naive switch does to it, worded to follow "the naive switch on: " (`""`: it has
    /// none).
    fn naive(&self) -> &'static str {
        ""
    }

    /// Its checks on the service line, once every setting on it is read.
    fn check_line(&self, _p: &mut Parser<'_>) -> Result<(), Error> {
        Ok(())
    }

    /// Its checks on the whole scenario, once every line has parsed.
    fn check_whole(&self, _sc: &Scenario) -> Result<(), Error> {
        Ok(())
    }
}

/// A service's own format, by its kind ([`format_of`]).
#[derive(Clone, Copy)]
pub(crate) struct Format(ServiceKind);

/// "nodes (n1 …) need `service: A`, `service: B` or …": a node named in a scenario whose
/// service names none.
pub(crate) fn nodes_needed() -> String {
    let (owners, n) = picked(|f| f.named_nodes());
    let mut out = String::from("nodes (n1 …) need `service: ");
    push_list(&mut out, &owners[..n], "`, `service: ", "` or `service: ");
    out.push_str("` declared before them");
    out
}

/// The service `service: WORD` names, if any.
pub(crate) fn named(word: &str) -> Option<ServiceKind> {
    LISTED.into_iter().find(|k| k.name() == word)
}

/// Appends `a, b, c and d` to a message: `items` parted by `sep`, the last two by `last`.
fn push_list(out: &mut String, items: &[&str], sep: &str, last: &str) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == items.len() { last } else { sep });
        }
        out.push_str(item);
    }
}

/// The names of the services `pick` chooses, in [`LISTED`]'s order, and how many (no allocation:
/// the parser's wasm build is budgeted for size).
fn picked(pick: impl Fn(Format) -> bool) -> ([&'static str; LISTED.len()], usize) {
    let (mut names, mut n) = ([""; LISTED.len()], 0);
    for k in LISTED {
        if pick(format_of(k)) {
            names[n] = k.name();
            n += 1;
        }
    }
    (names, n)
}

/// "lease, session, … or NAME": what `service:` may name.
pub(crate) fn names() -> String {
    let (names, n) = picked(|_| true);
    let mut out = String::new();
    push_list(&mut out, &names[..n], ", ", " or ");
    out
}

/// "yes or no (lease), incr or no (redis), …": every service's words for `tokens=`.
pub(crate) fn token_words() -> String {
    let mut out = String::new();
    for k in LISTED {
        let own = format_of(k).token_words();
        if own.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        push_list(&mut out, own, ", ", ", ");
        out.push_str(" or no (");
        out.push_str(k.name());
        out.push(')');
    }
    out
}

/// "lease, session and redis": the services whose clients may `renew`.
pub(crate) fn renewers() -> String {
    let (names, n) = picked(|f| f.renews());
    let mut out = String::new();
    push_list(&mut out, &names[..n], ", ", " and ");
    out
}

impl ServiceKind {
    /// What the naive switch does to this service (`""`: it has none), from its home.
    pub fn naive_means(self) -> &'static str {
        format_of(self).naive()
    }
}

/// "NAME: …; NAME: …": what the naive switch does, for each service that has one.
pub fn naive_meanings() -> String {
    let mut out = String::new();
    for k in LISTED.into_iter().filter(|k| k.has_naive()) {
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push_str(k.name());
        out.push_str(": ");
        out.push_str(k.naive_means());
    }
    out
}

/// "A, B and C": the services that have a naive switch.
pub fn naive_services() -> String {
    let (names, n) = picked(|f| !f.naive().is_empty());
    let mut out = String::new();
    push_list(&mut out, &names[..n], ", ", " and ");
    out
}

/// A service setting that is not the scenario's service's own: the first owner's check of its value,
/// then "KEY needs `service: A` or `service: B`"; `None` if no service has that key.
pub(crate) fn foreign_setting(p: &mut Parser<'_>, k: &str, v: &str) -> Option<Error> {
    let (owners, n) = picked(|f| f.keys().contains(&k));
    let first = named(owners[..n].first()?)?;
    if let Err(e) = format_of(first).check_foreign(p, k, v) {
        return Some(e);
    }
    let mut why = String::from(k);
    why.push_str(" needs `service: ");
    let or = "` or `service: ";
    push_list(&mut why, &owners[..n], or, or);
    why.push('`');
    Some(p.err(why))
}

/// "crash and restart need `service: NAME` declared before them": a fault only another service
/// has; `None` if no service has it.
pub(crate) fn fault_needs(word: &str) -> Option<String> {
    let (owners, n) = picked(|f| f.faults().contains(&word));
    let own = format_of(named(owners[..n].first()?)?).faults();
    let mut list = String::new();
    push_list(&mut list, own, ", ", " and ");
    let (verb, it) = if own.len() == 1 {
        ("needs", "it")
    } else {
        ("need", "them")
    };
    let mut services = String::from("`service: ");
    let or = "` or `service: ";
    push_list(&mut services, &owners[..n], or, or);
    Some(format!("{list} {verb} {services}` declared before {it}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Dur;
    use crate::time::SEC;

    /// Each service once in the list the messages are made from, each with its own format.
    #[test]
    fn every_service_is_listed_once() {
        for (i, k) in LISTED.iter().enumerate() {
            assert_eq!(named(k.name()), Some(*k));
            assert!(!LISTED[..i].contains(k), "{k:?} listed twice");
        }
    }

    /// A service has a naive switch (the flag in the list, which runs read) exactly when its home
    /// says what the switch does.
    #[test]
    fn the_naive_flag_and_its_meaning_agree() {
        for k in LISTED {
            assert_eq!(k.has_naive(), !k.naive_means().is_empty(), "{k:?}");
        }
        assert_eq!(naive_services(), "redlock, etcd and kubernetes");
    }

    /// The messages made from the list read as they did when they were written out.
    #[test]
    fn the_messages_list_services_in_their_order() {
        assert_eq!(
            names(),
            "lease, session, mysql, redis, redlock, etcd, zookeeper, hazelcast, kubernetes, consul or dynamodb"
        );
        assert_eq!(
            token_words(),
            "yes or no (lease), counter or no (mysql), incr or no (redis), revision, lease-id or no (etcd), czxid or no \
             (zookeeper), fence or no (hazelcast), transitions or no (kubernetes), lock-index or no \
             (consul), rvn or no (dynamodb)"
        );
        assert_eq!(renewers(), "lease, session and redis");
        assert_eq!(
            nodes_needed(),
            "nodes (n1 …) need `service: redlock`, `service: zookeeper` or `service: kubernetes` declared before them"
        );
        assert_eq!(
            fault_needs("restart").unwrap(),
            "crash and restart need `service: redlock` declared before them"
        );
        assert_eq!(
            fault_needs("terminate").unwrap(),
            "terminate needs `service: session` or `service: mysql` declared before it"
        );
        assert_eq!(fault_needs("pause"), None);
        let err = |line: &str| {
            let text = format!("id: x\nservice: {line}\n");
            Scenario::parse(&text).unwrap_err().to_string()
        };
        assert!(err("lease nodes=4").ends_with(": nodes must be 1, 3, 5 or 7"));
        assert!(err("lease nodes=3").ends_with(": nodes needs `service: redlock`"));
        assert!(err("lease tick=1s").ends_with(": tick needs `service: zookeeper`"));
        assert!(err("lease bogus=1").ends_with(": unknown service setting \"bogus\""));
    }

    /// Only a service whose own options say so tolerates SUSPENDED: ZooKeeper's `suspended=tolerate`
    /// (what a library's listener reads, through the service's options, not by the service's name).
    #[test]
    fn tolerating_suspended_is_the_service_s_own_setting() {
        let own = |line: &str| {
            let body = "title: t\nsummary: s\nclient A: acquire; read; write 1; release\n";
            let sc = Scenario::parse(&format!("id: x\nservice: {line}\n{body}")).unwrap();
            sc.service.own.tolerates_suspended()
        };
        assert!(own("zookeeper suspended=tolerate"));
        assert!(!own("zookeeper suspended=error"));
        assert!(!own("zookeeper"));
        assert!(!own("etcd"));
        assert!(!own("redis"));
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
