//! The network between each Redlock client and each node: one proxy (proxy.rs) per link, delaying
//! both directions by the link's one-way latency — the scenario's `lock-latency`, or the client's own
//! for that node (`latency=n1:1ms,…`). A request then reaches its node a latency after it was sent,
//! so who arrives first at a node is decided by the links, as in the model (redlock-split-vote), and a
//! reply waits a latency on its way back, where a client frozen meanwhile finds it in its socket
//! buffer when it wakes (redlock-pause-before-check).

use std::time::Duration;

use leaselab::scenario::Scenario;

use super::proxy::{Dir, Proxy};
use super::us;
use crate::servers::Res;

/// Every client's links to the nodes: `proxies[client][node]`.
pub struct NodeLinks {
    proxies: Vec<Vec<Proxy>>,
}

impl NodeLinks {
    /// A proxy for each link with a latency, to the node on `node_ports[k]`; `None` when no link has one
    /// (the clients then reach the nodes directly).
    pub fn start(sc: &Scenario, p: &[u64], node_ports: &[u16]) -> Res<Option<NodeLinks>> {
        let lat = |c: usize, k: usize| {
            let default_us = us(sc.service.lock_latency, p).as_micros() as u64;
            Duration::from_micros(sc.clients[c].link(k as u8, default_us, p))
        };
        let clients = 0..sc.clients.len();
        if clients
            .clone()
            .all(|c| (0..node_ports.len()).all(|k| lat(c, k).is_zero()))
        {
            return Ok(None);
        }
        let mut proxies = Vec::new();
        for c in clients {
            let mut row = Vec::new();
            for (k, &port) in node_ports.iter().enumerate() {
                let proxy = Proxy::start(port)?;
                proxy.delay(Dir::Up, lat(c, k));
                proxy.delay(Dir::Down, lat(c, k));
                row.push(proxy);
            }
            proxies.push(row);
        }
        Ok(Some(NodeLinks { proxies }))
    }

    /// Where client `c` reaches each node.
    pub fn ports(&self, c: usize) -> Vec<u16> {
        self.proxies[c].iter().map(|p| p.port).collect()
    }
}
