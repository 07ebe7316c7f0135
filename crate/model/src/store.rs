//! The guarded store: one balance, a version, and the storage policy that decides which accesses it
//! accepts. The guard lives here, in the storage, not in the lock service: that is the whole point.

use crate::error::Error;

/// How the storage guards writes (docs/model.md, "Storage policies").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Policy {
    /// Last write wins (the seed's "unfenced").
    None = 0,
    /// Reject a write whose token is lower than the highest token seen on a write (the seed's "fenced").
    Token = 1,
    /// Every access with a token (read or write) raises the highest-seen token; lower ones are rejected.
    FirstTouch = 2,
    /// Compare-and-set on the version the writer read.
    Version = 3,
    /// antirez's check-and-set: the reader stamps its lock value; its write needs the stamp still its own.
    Owner = 4,
    /// Not a real storage: the ideal guard that knows the lock service's truth and rejects any write from
    /// a client that is no longer the latest grantee. Used to compute `expected`.
    Ideal = 5,
    /// etcd's `contrib/lock` storage: the first write's token is kept, and a write is accepted only
    /// with exactly that token (equality: it works with IDs that have no order).
    EqualToken = 6,
    /// S3's conditional write (`If-Match`, 2024): accepted only if the object's ETag is still the one
    /// the writer read. The ETag derives from the content, so equal content has an equal ETag: after
    /// A → B → A a stale writer's ETag matches again (ABA). `version` is GCS's `ifGenerationMatch`,
    /// whose generation never repeats.
    Etag = 7,
}

impl Policy {
    /// The policies a user can pick, in the order the UI lists them.
    pub const ALL: [Policy; 7] = [
        Policy::None,
        Policy::Token,
        Policy::FirstTouch,
        Policy::Version,
        Policy::Etag,
        Policy::Owner,
        Policy::EqualToken,
    ];

    /// Whether the storage checks the lock service's fencing token (so a service that gives none
    /// cannot feed it): the token's order, its first touch, its equality.
    pub fn reads_token(self) -> bool {
        matches!(
            self,
            Policy::Token | Policy::FirstTouch | Policy::EqualToken
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::None => "none",
            Policy::Token => "token",
            Policy::FirstTouch => "first-touch",
            Policy::Version => "version",
            Policy::Owner => "owner",
            Policy::EqualToken => "equal-token",
            Policy::Etag => "etag",
            Policy::Ideal => "ideal",
        }
    }

    /// The label the seed's script prints in its PASS line.
    pub fn seed_label(self) -> &'static str {
        match self {
            Policy::None => "unfenced",
            Policy::Token => "fenced",
            other => other.name(),
        }
    }

    pub fn parse(name: &str) -> Result<Policy, Error> {
        match name.trim() {
            "none" | "unfenced" => Ok(Policy::None),
            "token" | "fenced" => Ok(Policy::Token),
            "first-touch" => Ok(Policy::FirstTouch),
            "version" => Ok(Policy::Version),
            "owner" => Ok(Policy::Owner),
            "equal-token" => Ok(Policy::EqualToken),
            "etag" => Ok(Policy::Etag),
            other => Err(Error::UnknownPolicy {
                name: other.to_string(),
            }),
        }
    }
}

/// Why the storage refused an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Refusal {
    /// `token`/`first-touch`: the access carried a token lower than one the storage has seen.
    StaleToken = 1,
    /// `version`: the version changed since the writer read it.
    VersionChanged = 2,
    /// `owner`: another holder stamped the resource since.
    NotOwner = 3,
    /// `ideal`: the writer is no longer the latest grantee.
    NotLatestGrantee = 4,
    /// The access went through a database session that has ended (PostgreSQL: the backend was
    /// terminated). Not a storage policy: the session itself was the fence.
    SessionGone = 5,
    /// `equal-token`: the token is not the one the first write left.
    TokenMismatch = 6,
    /// `etag`: the content changed since the writer read it (S3 answers 412 Precondition Failed).
    EtagChanged = 7,
}

impl Refusal {
    pub fn name(self) -> &'static str {
        match self {
            Refusal::StaleToken => "stale-token",
            Refusal::VersionChanged => "version-changed",
            Refusal::NotOwner => "not-owner",
            Refusal::NotLatestGrantee => "not-latest-grantee",
            Refusal::SessionGone => "session-gone",
            Refusal::TokenMismatch => "token-mismatch",
            Refusal::EtagChanged => "etag-changed",
        }
    }
}

/// What a client presents with each access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Credentials {
    /// The fencing token of the client's lease, if its lock service issues tokens.
    pub token: Option<u64>,
    /// The unique value the lock service handed out with the grant (redis's random value).
    pub lock_value: u64,
    /// The access goes through the client's database session (the one that holds a session lock).
    pub via_session: bool,
}

/// The balance and everything the guards remember.
#[derive(Clone, Debug, Default)]
pub struct GuardedStore {
    pub balance: i64,
    pub version: u64,
    /// Highest token seen (on writes for `token`; on any access for `first-touch`).
    pub highest_token: u64,
    /// The lock value stamped by the latest reader under `owner`.
    pub stamp: Option<u64>,
    /// The token the first write carried, under `equal-token`.
    pub pinned_token: Option<u64>,
}

impl GuardedStore {
    pub fn new(balance: i64) -> GuardedStore {
        GuardedStore {
            balance,
            version: 0,
            highest_token: 0,
            stamp: None,
            pinned_token: None,
        }
    }

    /// A read: returns `(balance, version)` or a refusal.
    pub fn read(&mut self, policy: Policy, cred: Credentials) -> Result<(i64, u64), Refusal> {
        match policy {
            Policy::FirstTouch => {
                if let Some(t) = cred.token {
                    if t < self.highest_token {
                        return Err(Refusal::StaleToken);
                    }
                    self.highest_token = t;
                }
            }
            Policy::Owner => self.stamp = Some(cred.lock_value),
            Policy::None
            | Policy::Token
            | Policy::Version
            | Policy::Etag
            | Policy::EqualToken
            | Policy::Ideal => {}
        }
        Ok((self.balance, self.version))
    }

    /// A write of `value` by a client whose read returned `read` (balance, version).
    /// `is_latest_grantee` is only consulted by the ideal guard.
    pub fn write(
        &mut self,
        policy: Policy,
        cred: Credentials,
        read: (i64, u64),
        value: i64,
        is_latest_grantee: bool,
    ) -> Result<(), Refusal> {
        let (balance_read, version_read) = read;
        match policy {
            Policy::None => {}
            Policy::Token | Policy::FirstTouch => {
                if let Some(t) = cred.token {
                    if t < self.highest_token {
                        return Err(Refusal::StaleToken);
                    }
                    self.highest_token = t;
                }
            }
            Policy::Version => {
                if version_read != self.version {
                    return Err(Refusal::VersionChanged);
                }
            }
            Policy::Etag => {
                if etag(balance_read) != etag(self.balance) {
                    return Err(Refusal::EtagChanged);
                }
            }
            Policy::Owner => {
                if self.stamp != Some(cred.lock_value) {
                    return Err(Refusal::NotOwner);
                }
            }
            Policy::EqualToken => match (cred.token, self.pinned_token) {
                (Some(t), Some(pinned)) if t != pinned => return Err(Refusal::TokenMismatch),
                (Some(t), None) => self.pinned_token = Some(t),
                _ => {}
            },
            Policy::Ideal => {
                if !is_latest_grantee {
                    return Err(Refusal::NotLatestGrantee);
                }
            }
        }
        self.balance = value;
        self.version += 1;
        Ok(())
    }
}

/// The object's ETag: a function of its content only (S3's is the MD5 of the bytes for a simple upload),
/// so two equal balances have equal ETags — which is all the guard needs, and why ABA fools it.
pub fn etag(balance: i64) -> i64 {
    balance
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cred(token: u64, value: u64) -> Credentials {
        Credentials {
            token: Some(token),
            lock_value: value,
            via_session: false,
        }
    }

    #[test]
    fn token_accepts_equal_and_rejects_lower() {
        let mut s = GuardedStore::new(500);
        assert!(s
            .write(Policy::Token, cred(2, 0), (0, 0), 450, true)
            .is_ok());
        assert!(
            s.write(Policy::Token, cred(2, 0), (0, 0), 400, true)
                .is_ok(),
            "one holder may write twice"
        );
        assert_eq!(
            s.write(Policy::Token, cred(1, 0), (0, 0), 440, true),
            Err(Refusal::StaleToken)
        );
        assert_eq!(s.balance, 400);
    }

    #[test]
    fn token_ignores_reads_but_first_touch_counts_them() {
        let mut token = GuardedStore::new(500);
        token.read(Policy::Token, cred(2, 0)).unwrap();
        assert!(token
            .write(Policy::Token, cred(1, 0), (0, 0), 440, true)
            .is_ok());

        let mut ft = GuardedStore::new(500);
        ft.read(Policy::FirstTouch, cred(2, 0)).unwrap();
        assert_eq!(
            ft.write(Policy::FirstTouch, cred(1, 0), (0, 0), 440, true),
            Err(Refusal::StaleToken)
        );
        assert_eq!(
            ft.read(Policy::FirstTouch, cred(1, 0)),
            Err(Refusal::StaleToken)
        );
    }

    #[test]
    fn version_is_compare_and_set() {
        let mut s = GuardedStore::new(500);
        let (_, v) = s.read(Policy::Version, cred(1, 0)).unwrap();
        assert!(s
            .write(Policy::Version, cred(1, 0), (500, v), 440, true)
            .is_ok());
        assert_eq!(
            s.write(Policy::Version, cred(2, 0), (500, v), 450, true),
            Err(Refusal::VersionChanged)
        );
    }

    #[test]
    fn etag_matches_equal_content_again_but_version_does_not() {
        let (mut etag, mut version) = (GuardedStore::new(500), GuardedStore::new(500));
        for s in [&mut etag, &mut version] {
            let a_read = s.read(Policy::Etag, cred(1, 0)).unwrap(); // A reads 500, then pauses
            let b_read = s.read(Policy::Etag, cred(2, 0)).unwrap();
            assert!(s.write(Policy::Etag, cred(2, 0), b_read, 450, true).is_ok());
            let c_read = s.read(Policy::Etag, cred(3, 0)).unwrap();
            assert!(s.write(Policy::Etag, cred(3, 0), c_read, 500, true).is_ok());
            assert_eq!(s.balance, 500, "A → B → A: the content is back");
            assert_eq!(a_read, (500, 0));
        }
        assert!(
            etag.write(Policy::Etag, cred(1, 0), (500, 0), 440, true)
                .is_ok(),
            "the stale ETag matches the restored content"
        );
        assert_eq!(
            version.write(Policy::Version, cred(1, 0), (500, 0), 440, true),
            Err(Refusal::VersionChanged),
            "a generation never repeats"
        );
        assert_eq!(
            etag.write(Policy::Etag, cred(2, 0), (450, 1), 400, true),
            Err(Refusal::EtagChanged)
        );
    }

    #[test]
    fn owner_needs_its_own_stamp() {
        let mut s = GuardedStore::new(500);
        s.read(Policy::Owner, cred(1, 11)).unwrap();
        s.read(Policy::Owner, cred(2, 22)).unwrap();
        assert_eq!(
            s.write(Policy::Owner, cred(1, 11), (0, 0), 440, true),
            Err(Refusal::NotOwner)
        );
        assert!(s
            .write(Policy::Owner, cred(2, 22), (0, 0), 450, true)
            .is_ok());
    }

    #[test]
    fn equal_token_keeps_the_first_writers_token() {
        let mut s = GuardedStore::new(500);
        assert!(s
            .write(Policy::EqualToken, cred(7, 0), (0, 0), 440, true)
            .is_ok());
        assert!(s
            .write(Policy::EqualToken, cred(7, 0), (0, 0), 380, true)
            .is_ok());
        assert_eq!(
            s.write(Policy::EqualToken, cred(9, 0), (0, 0), 450, true),
            Err(Refusal::TokenMismatch),
            "a higher token is refused too: only the first one counts"
        );
        assert_eq!(
            s.write(Policy::EqualToken, cred(3, 0), (0, 0), 450, true),
            Err(Refusal::TokenMismatch)
        );
        assert_eq!(s.balance, 380);
    }

    #[test]
    fn policy_names_round_trip() {
        for p in Policy::ALL {
            assert_eq!(Policy::parse(p.name()).unwrap(), p);
        }
        assert_eq!(Policy::parse("fenced").unwrap(), Policy::Token);
        assert!(
            Policy::parse("ideal").is_err(),
            "the ideal guard is internal"
        );
    }
}
