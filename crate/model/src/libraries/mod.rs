//! The client libraries a scenario's client may call (`client A library=kazoo: …`), and the one list
//! of them: [`LibraryKind`], and each library's own facts in its home, `libraries/NAME.rs` — its
//! name and version, the service it speaks to, which of the library ops (`owned`, `listener`) it
//! offers, and its timings as constants, each cited from the library's source and from the
//! measurements in docs/clients.md.
//!
//! A library is a unit on the shape of a lock service (issue 37): its home here, its engine half in
//! `crate/src/libraries/NAME.rs`, and one line in each crate's list. The parser names no library: it
//! asks [`LibraryKind::by_name`] and the kind's answers, and its messages list the libraries from
//! [`LibraryKind::ALL`].

use crate::scenario::ServiceKind;

/// What a library is, to the scenario format: its facts, as constants.
pub trait LibraryFormat {
    /// Its name in scenario files (`library=NAME`) and the run JSON.
    const NAME: &'static str;
    /// The version whose source and behaviour the model follows (docs/clients.md).
    const VERSION: &'static str;
    /// The service it speaks to.
    const SPEAKS: ServiceKind;
    /// `None` when it answers `owned` (what the answer is: its home's comment); else why not, in the
    /// words the parser's refusal prints.
    const NO_OWNED: Option<&'static str>;
    /// As [`LibraryFormat::NO_OWNED`], for `listener`.
    const NO_LISTENER: Option<&'static str>;
    /// What its `release` raises when the lock was not the client's any more (`None`: it returns
    /// quietly).
    const RAISES: Option<&'static str> = None;
    /// It runs a renewal thread (a watchdog) that extends the lock on its own timer.
    const RENEWS: bool = false;
    /// Its token is the revision of the response that granted the lock (the service's own grant
    /// carries the key's create revision).
    const GRANT_REVISION_TOKEN: bool = false;
}

/// `libraries! { Kind => module; … }`: one line per library, in the order messages list them; its
/// unit type is named as its kind.
macro_rules! libraries {
    ($( $kind:ident => $module:ident; )*) => {
        $( pub mod $module; )*

        /// Which client library a client calls (`library=NAME`); each is described in its home,
        /// `libraries/NAME.rs`, and in the engine's `crate/src/libraries/NAME.rs`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum LibraryKind {
            $( $kind, )*
        }

        impl LibraryKind {
            /// Every library, in the order messages list them.
            pub const ALL: &'static [LibraryKind] = &[$( LibraryKind::$kind ),*];

            /// Its name in scenario files and the run JSON.
            pub fn name(self) -> &'static str {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::NAME, )* }
            }

            /// The version the model follows.
            pub fn version(self) -> &'static str {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::VERSION, )* }
            }

            /// The service it speaks to.
            pub fn speaks(self) -> ServiceKind {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::SPEAKS, )* }
            }

            /// What its `release` raises when the lock was gone (`None`: nothing).
            pub fn raises(self) -> Option<&'static str> {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::RAISES, )* }
            }

            /// Whether its token is the revision of the response that granted the lock.
            pub fn grant_revision_token(self) -> bool {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::GRANT_REVISION_TOKEN, )* }
            }

            /// Whether it runs a renewal thread.
            pub fn renews(self) -> bool {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::RENEWS, )* }
            }

            /// Why it does not offer `owned` (`None`: it does).
            pub fn no_owned(self) -> Option<&'static str> {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::NO_OWNED, )* }
            }

            /// Why it does not offer `listener` (`None`: it does).
            pub fn no_listener(self) -> Option<&'static str> {
                match self { $( LibraryKind::$kind => <$module::$kind as LibraryFormat>::NO_LISTENER, )* }
            }
        }
    };
}

libraries! {
    Kazoo => kazoo;
    Curator => curator;
    RedisPy => redis_py;
    PythonRedisLock => python_redis_lock;
    Redisson => redisson;
    Pottery => pottery;
    EtcdConcurrency => etcd_concurrency;
    NodeRedlock => node_redlock;
}

impl LibraryKind {
    /// The library a scenario names, by its name.
    pub fn by_name(name: &str) -> Option<LibraryKind> {
        Self::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// Every library's name, for messages: `kazoo, curator, …`.
    pub fn names() -> String {
        let names: Vec<&str> = Self::ALL.iter().map(|l| l.name()).collect();
        names.join(", ")
    }

    /// The libraries that speak to `service`, for messages (empty if none does).
    pub fn speaking_to(service: ServiceKind) -> String {
        let names: Vec<&str> = Self::ALL
            .iter()
            .filter(|l| l.speaks() == service)
            .map(|l| l.name())
            .collect();
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_is_found_by_its_own_name_and_names_are_unique() {
        for &l in LibraryKind::ALL {
            assert_eq!(LibraryKind::by_name(l.name()), Some(l));
        }
        assert_eq!(LibraryKind::by_name("kazoo3"), None);
    }

    #[cfg(feature = "libraries")]
    fn parse_err(client: &str) -> String {
        let service = LibraryKind::Kazoo.speaks().name();
        let text = format!("id: x\ntitle: x\nsummary: x\nservice: {service}\nclient A{client}\n");
        crate::scenario::Scenario::parse(&text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    #[cfg(feature = "libraries")]
    fn the_parser_refuses_unknown_libraries_wrong_services_and_unoffered_ops() {
        let e = parse_err(" library=kazoo3: acquire");
        assert!(
            e.contains("unknown library \"kazoo3\"") && e.contains("kazoo, curator, redis-py"),
            "{e}"
        );
        let text = "id: x\ntitle: x\nsummary: x\nservice: redis\nclient A library=kazoo: acquire\n";
        let e = crate::scenario::Scenario::parse(text)
            .unwrap_err()
            .to_string();
        let kazoo_speaks = LibraryKind::Kazoo.speaks().name();
        assert!(
            e.contains(&format!("speaks to {kazoo_speaks}, not redis")),
            "{e}"
        );
        assert!(
            e.contains("for redis use redis-py, python-redis-lock, redisson"),
            "{e}"
        );
        let text = "id: x\ntitle: x\nsummary: x\nservice: redis\nclient A library=redis-py: acquire; listener\n";
        let e = crate::scenario::Scenario::parse(text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("redis-py offers no listener") && e.contains("ask `owned`"),
            "{e}"
        );
        let e = parse_err(": acquire; owned");
        assert!(e.contains("owned asks the client's library"), "{e}");
        let e = parse_err(": acquire; listener");
        assert!(e.contains("listener asks the client's library"), "{e}");
        let ok = format!("id: x\ntitle: x\nsummary: x\nservice: {kazoo_speaks}\nclient A library=curator: acquire; owned; listener\n");
        let sc = crate::scenario::Scenario::parse(&ok).unwrap();
        assert_eq!(sc.clients[0].library, Some(LibraryKind::Curator));
    }
}
