//! The DynamoDB lock client (`dynamodb`) as a real service, against an implementation of DynamoDB's
//! API, not AWS: dynalite (see dynamodb_api.rs), fresh for every attempt, its lock table made before the
//! run. The client is the lock client's protocol from the suite's own code (dynamodb_client.rs), every
//! call a signed request: GetItem, PutItem on `attribute_not_exists` or on the RVN it waited out,
//! heartbeats as UpdateItem on its RVN from a thread of the client's process (stopped with it), a
//! DeleteItem on its RVN to release. These are API rows: what they check is the protocol's
//! conditional writes and the waiter's timing against a server that evaluates the conditions, not
//! DynamoDB's service (its replication, its latencies).

use leaselab::scenario::{Scenario, ServiceKind};
use leaselab::store::Policy;

use super::dynamodb_client::DdbClient;
use super::player::{Client, Held, Stop};
use super::service::{Attempt, Conn, LockServers, RealService};
use super::Setup;
use crate::cases::{case, Case};
use crate::coverage::{api, Component, Entry};
use crate::dynamodb_api::Dynalite;
use crate::servers::Res;

/// The DynamoDB lock client on dynalite.
pub struct DynamodbLock;

/// The component its rows run on (coverage.rs).
const DYNALITE: Component = Component {
    name: "dynalite (DynamoDB's API)",
    version: "4.0.0",
    from: "npm `dynalite`; the lock client's protocol the suite's own",
};

/// Its catalogue scenarios in the table of what each runs on (coverage.rs's format).
static COVERAGE: &[Entry] = &[
    api(
        "dynamodb-heartbeat-pause",
        &DYNALITE,
        "the lock client's conditional writes (RVN, heartbeats as UpdateItem, the waiter's takeover) against dynalite, not AWS",
    ),
    api("table-dynamodb", &DYNALITE, "the safety table's base run, no fault"),
];

impl RealService for DynamodbLock {
    fn coverage(&self) -> &'static [Entry] {
        COVERAGE
    }

    fn kinds(&self) -> &'static [ServiceKind] {
        &[ServiceKind::Dynamodb]
    }

    fn scenario_text(&self, id: &str) -> Option<&'static str> {
        Some(match id {
            "dynamodb-heartbeat-pause" => {
                include_str!("../../../crate/scenarios/dynamodb-heartbeat-pause.txt")
            }
            "table-dynamodb" => include_str!("../../../crate/scenarios/table-dynamodb.txt"),
            _ => return None,
        })
    }

    fn cases(&self) -> Vec<Case> {
        cases()
    }

    /// The RVN is a random GUID: where it is the token, the token policies compare two random
    /// numbers, and the model's outcome is its seed's draw, which no real run can repeat.
    fn unsupported(&self, sc: &Scenario, setup: &Setup) -> Option<&'static str> {
        let draws = matches!(
            setup.policy,
            Policy::Token | Policy::FirstTouch | Policy::EqualToken
        );
        (sc.service.tokens && draws)
            .then_some("a token policy on random RVNs (the model's outcome is its seed's draw)")
    }

    /// A fresh dynalite for every attempt (an empty table, as the model's run starts).
    fn start<'a>(&self, at: &Attempt<'_, 'a>) -> Res<Box<dyn LockServers + 'a>> {
        let d = Dynalite::start(at.work.join(format!("dynalite-{}", at.tag)))?;
        if at.first {
            eprintln!(
                "conformance: dynalite {} (DynamoDB's API, not AWS) on 127.0.0.1:{}",
                d.version, d.port
            );
        }
        Ok(Box::new(d))
    }

    fn connect(&self, sc: &Scenario, setup: &Setup, name: char, spec: &str) -> Res<Conn> {
        let port = spec
            .parse()
            .map_err(|_| format!("bad dynamodb spec {spec:?}"))?;
        Ok(Conn {
            session: None,
            state: Box::new(DdbClient::new(port, name, sc, setup)),
        })
    }

    fn try_acquire(&self, c: &mut Client, _value: i64) -> Result<Option<Held>, Stop> {
        c.ddb_poll()
    }

    fn release(&self, c: &mut Client, _h: Held) -> Result<(), Stop> {
        c.ddb_release()
    }

    fn finish(&self, c: &mut Client) {
        if let Ok(d) = c.state::<DdbClient>() {
            d.stop_heartbeats();
        }
    }

    /// The grant is the PutItem that took the item, not the GetItem the poll began with.
    fn reports_grants(&self) -> bool {
        true
    }
}

impl LockServers for Dynalite {
    fn prepare(&mut self, _first_token: u64) -> Res<()> {
        self.create_table()
    }

    fn agent_spec(&self, _client: usize) -> String {
        self.port.to_string()
    }
}

/// The DynamoDB rows: the catalogue's timelines, shortened where a parameter allows (every real
/// second is a second of the run). dynamodb-heartbeat-pause with a 2.25 s lease, a heartbeat every
/// 1.1 s (the last before A's freeze at 5.5 s, none at the 6 s freeze itself), B polling every
/// 500 ms from 7 s and A frozen 4 s: B first sees A's RVN at 7.0 s; at 9.0 s it has seen it 2.0 s,
/// 250 ms short of the lease, at 9.5 s 2.5 s, 250 ms past it, and takes the item over, writes right
/// after, 500 ms before A wakes (10 s); its call's budget (1 s + the lease from 7.0 s) ends 750 ms
/// later. So 100 ms. table-dynamodb on its own defaults: A's item is gone (2 s) 500 ms before B's
/// poll finds it so (2.5 s): 200 ms.
fn cases() -> Vec<Case> {
    const PAUSE: &[(&str, u64)] = &[
        ("ttl", 2250),
        ("heartbeat", 1100),
        ("refresh", 500),
        ("pause", 4000),
    ];
    let pause = |policy, how| Case {
        tolerance_ms: 100,
        ..case("dynamodb-heartbeat-pause", policy, PAUSE, 1, how)
    };
    let table = |policy, how| Case {
        tolerance_ms: 200,
        ..case("table-dynamodb", policy, &[], 1, how)
    };
    vec![
        pause(
            Policy::None,
            "API row: dynalite (DynamoDB's API, not AWS); the lock client's conditional PutItem/UpdateItem on the RVN, A's heartbeat thread SIGSTOPped with it; PostgreSQL table",
        ),
        pause(Policy::Version, "API row: as above; UPDATE … WHERE version = read"),
        pause(
            Policy::Owner,
            "API row: as above; reader stamps its RVN as owner; UPDATE … WHERE owner = mine",
        ),
        table(
            Policy::None,
            "API row: dynalite; A's DeleteItem on its RVN, B's poll finds no item and puts; PostgreSQL table",
        ),
        table(Policy::Version, "API row: as above; UPDATE … WHERE version = read"),
    ]
}
