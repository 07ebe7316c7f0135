//! ZooKeeper's client side: the session (in a process of its own, see zk.rs) and the lock recipe.

use super::player::{Client, Held, Stop};
use super::us;

impl Client<'_> {
    /// ZooKeeper: the session first (opened at the first acquire), then the lock recipe, which returns
    /// when the client's node is the lowest; the token is the node's czxid.
    pub(super) fn zk_lock(&mut self) -> Result<Option<Held>, Stop> {
        let svc = &self.sc.service;
        let session = us(svc.ttl, &self.setup.params);
        let within = self.link.time_left();
        if !self.zk_connected {
            self.zk.as_mut().ok_or("no zookeeper")?.connect(session)?;
            self.zk_connected = true;
            self.note(format!(
                "connects (session timeout {} ms)",
                session.as_millis()
            ));
        }
        let z = self.zk.as_mut().ok_or("no zookeeper")?;
        let (czxid, path, id) = match z.lock(within) {
            Ok(held) => held,
            Err(err) => {
                self.note(format!("lock → error: {err}"));
                return Err(Stop::GaveUp);
            }
        };
        self.note(format!(
            "{path} is the lowest: holds the lock (czxid {czxid:#x}, session {id})"
        ));
        Ok(Some(Held {
            token: svc.tokens.then_some(czxid),
            value: i64::from_str_radix(&id, 16).unwrap_or(czxid),
            believed_end: None,
        }))
    }

    pub(super) fn zk_release(&mut self) -> Result<(), Stop> {
        let z = self.zk.as_mut().ok_or("no zookeeper")?;
        match z.unlock() {
            Ok(_) => self.note("deletes its node".into()),
            Err(e) => self.note(format!("delete of its node → {e}")),
        }
        Ok(())
    }
}
