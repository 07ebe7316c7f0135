//! The one gap in the path signatures' interval argument (docs/model.md, "Sweeps are exact": the gap):
//! a point where another client's event ties exactly with a polling client's skipped retry runs event
//! by event, with a signature of its own, between neighbours that share one. This checks what the docs
//! say of it on random lines over the whole catalogue: such points occur, each is an isolated point,
//! and no point between two places of one signature has another outcome, final balance or event count.

use std::collections::HashMap;

use leaselab::outcome::{summarize, Summary};
use leaselab::rng::Rng;
use leaselab::{catalogue, Config, Engine, Policy};

/// Steps along each random line.
const STEPS: u64 = 200;

/// What a point's run leaves that a sweep or a search reports.
type Seen = (u64, Summary, u32);

#[test]
fn a_recurring_signature_surrounds_only_ties_with_its_own_outcome() {
    let mut engine = Engine::new();
    engine.set_fast(true);
    let mut rng = Rng::new(0x71e5);
    let (mut lines, mut gaps) = (0, 0);
    for sc in catalogue::catalogue() {
        for policy in Policy::ALL {
            let base = Config::new(sc, policy);
            for _ in 0..30 {
                let line = random_line(&mut rng, sc, &base.params);
                let Some(points) = run_line(&mut engine, sc, &base, &line) else {
                    continue;
                };
                lines += 1;
                gaps += check_gaps(&points, &format!("{} {} {line:?}", sc.id, policy.name()));
            }
        }
    }
    eprintln!("{gaps} of {lines} lines hold a tie inside a signature's stretch");
    assert!(gaps > 0, "the probe should meet the gap it documents");
    assert!(lines > 5_000, "{lines} lines");
}

/// A random base point, a parameter to move, and its step: `(params, k, from, step)`.
fn random_line(
    rng: &mut Rng,
    sc: &leaselab::Scenario,
    defaults: &[u64],
) -> (Vec<u64>, usize, u64, u64) {
    let mut params = defaults.to_vec();
    let top = |p: &leaselab::scenario::ParamSpec| p.max_us.min(p.default_us * 4 + 2_000_000);
    for (i, p) in sc.params.iter().enumerate() {
        params[i] = p.min_us + rng.range_inclusive(0, top(p).saturating_sub(p.min_us));
    }
    let k = rng.range_inclusive(0, sc.params.len().saturating_sub(1) as u64) as usize;
    let p = &sc.params[k.min(sc.params.len().saturating_sub(1))];
    let step = ((top(p) - p.min_us) / STEPS).max(1);
    (params, k, p.min_us, step)
}

/// Each point's signature, outcome and event count along the line (`None`: no parameters, or a run
/// stopped at a limit).
fn run_line(
    engine: &mut Engine,
    sc: &leaselab::Scenario,
    base: &Config,
    (params, k, from, step): &(Vec<u64>, usize, u64, u64),
) -> Option<Vec<Seen>> {
    if sc.params.is_empty() {
        return None;
    }
    let mut at = params.clone();
    let mut out = Vec::new();
    for j in 0..=STEPS {
        at[*k] = from + j * step;
        if at[*k] > sc.params[*k].max_us {
            break;
        }
        let run = engine.run_at(sc, base, &at).ok()?;
        out.push((run.sig, summarize(run), run.events));
    }
    Some(out)
}

/// 1 if a signature comes back after others. Then the recurrence is a tie's: the points between are
/// one point (a tie inside the signature's stretch), or the recurring signature is itself a tie's,
/// one point at each place it occurs; and every point between has its outcome and event count.
fn check_gaps(points: &[Seen], what: &str) -> u32 {
    let mut last: HashMap<u64, usize> = HashMap::new();
    let mut found = 0;
    for (j, p) in points.iter().enumerate() {
        if let Some(&e) = last.get(&p.0).filter(|&&e| e + 1 < j) {
            let single = |at: usize| {
                (at == 0 || points[at - 1].0 != p.0)
                    && points.get(at + 1).is_none_or(|q| q.0 != p.0)
            };
            let one_between = j - e == 2;
            assert!(
                one_between || (single(e) && single(j)),
                "{what}: {} points between {e} and {j}",
                j - e - 1
            );
            for q in &points[e + 1..j] {
                assert_eq!((q.1, q.2), (p.1, p.2), "{what}: between {e} and {j}");
            }
            found = 1;
        }
        last.insert(p.0, j);
    }
    found
}
