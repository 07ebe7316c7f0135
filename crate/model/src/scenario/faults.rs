//! Fault lines, as the parser reads them: `at D: ACTION` — what happens to the world at a time of
//! the run apart from the clients' scripts (a freeze, a partition, and the faults only some services
//! have, which their homes in `services/` list).

use super::parser::Parser;
use super::{Fault, FaultAction, FAULTS_MAX};
use crate::error::Error;
use crate::services::{self, ServiceFormat};

impl Parser<'_> {
    /// `at D: ACTION`: a fault at a time of the run.
    pub(super) fn fault(&mut self, rest: &str) -> Result<(), Error> {
        // at D: terminate A
        let (when, what) = rest
            .split_once(':')
            .ok_or_else(|| self.err("expected `at D: ACTION`"))?;
        if self.sc().faults.len() >= FAULTS_MAX {
            return Err(self.err(format!(
                "too many faults; a scenario may declare at most {FAULTS_MAX}"
            )));
        }
        let at = self.dur(when.trim())?;
        self.focus(what.trim());
        let words: Vec<&str> = what.split_whitespace().collect();
        let action = match words.as_slice() {
            ["terminate", who] => {
                self.own_fault("terminate")?;
                FaultAction::Terminate(self.client_index(who)?)
            }
            ["pause", who, d] => FaultAction::Freeze(self.client_index(who)?, self.dur(d)?),
            ["crash" | "restart", ..] if !self.has_fault(words[0]) => {
                return Err(self.fault_needs(words[0]))
            }
            ["crash", node] => FaultAction::Crash(self.node_index(node)?, None),
            ["crash", node, "restart", d] => FaultAction::Crash(self.node_index(node)?, Some(self.dur(d)?)),
            ["restart", node] => FaultAction::Restart(self.node_index(node)?),
            ["failover"] => {
                self.own_fault("failover")?;
                FaultAction::Failover
            }
            ["cut" | "heal", who, nodes] => {
                FaultAction::Partition(self.client_index(who)?, self.node_mask(nodes)?, words[0] == "cut")
            }
            _ => {
                return Err(self.err(format!(
                    "unknown fault \"{}\"; expected terminate CLIENT, pause CLIENT D, crash NODE [restart D], \
                     restart NODE, failover, cut CLIENT NODES or heal CLIENT NODES",
                    what.trim()
                )))
            }
        };
        self.sc().faults.to_mut().push(Fault { at, action });
        Ok(())
    }

    /// Whether the scenario's service has this fault of its own.
    fn has_fault(&mut self, word: &str) -> bool {
        self.service_format().faults().contains(&word)
    }

    /// A fault only some service has: the scenario's own, or the error that names the service it needs.
    fn own_fault(&mut self, word: &str) -> Result<(), Error> {
        if self.has_fault(word) {
            return Ok(());
        }
        Err(self.fault_needs(word))
    }

    /// "WORD needs `service: NAME` declared before it".
    fn fault_needs(&self, word: &str) -> Error {
        self.err(services::fault_needs(word).unwrap_or_else(|| format!("unknown fault \"{word}\"")))
    }
}
