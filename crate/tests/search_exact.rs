//! The search against running every point: on random grids of one to four parameters over every
//! catalogue scenario and every policy, `search` must give the same answer as `simulate` (what
//! `leaselab run` prints) at every point — safe when no point loses an update, else the point of least
//! cost, ties to the smaller in the order of the dimensions.
#![cfg(not(target_arch = "wasm32"))]

use leaselab::rng::Rng;
use leaselab::search::{search, search_every_point, Counterexample, Dim};
use leaselab::time::MS;
use leaselab::{catalogue, simulate, Config, Policy, Scenario};

/// A random dimension over parameter `p`: up to `count_max` values from near its minimum, often on
/// whole 10 ms (where events meet exactly and the event order decides), with a step of 1 ms to 1 s.
fn random_dim(rng: &mut Rng, sc: &Scenario, p: usize, count_max: u64) -> Dim {
    let spec = &sc.params[p];
    let aligned = rng.range_inclusive(0, 2) > 0;
    let near = spec
        .max_us
        .min(spec.min_us.max(spec.default_us * 2).max(2_000 * MS));
    let count = rng.range_inclusive(1, count_max);
    let mut step = rng.range_inclusive(MS, 400 * MS);
    if aligned {
        step = step.div_ceil(10 * MS) * 10 * MS;
    }
    // A third of the grids start at the parameter's minimum and a third around its default, where
    // runs are often safe, so that the least cost is not always 0 and ties for it occur.
    let mut from = match rng.range_inclusive(0, 2) {
        0 => spec.min_us,
        1 => spec
            .default_us
            .saturating_sub(count / 2 * step)
            .max(spec.min_us),
        _ => rng.range_inclusive(spec.min_us, near),
    };
    if aligned {
        from = (from.div_ceil(10 * MS) * 10 * MS).min(spec.max_us);
    }
    let to = spec.max_us.min(from + (count - 1) * step);
    Dim::new(sc, &spec.name, from, to, step).unwrap()
}

/// Every point run by `simulate`, and the least lost one by cost, then by its indices in order —
/// computed here without the search module's own ordering.
/// `None` when some point's run hits a limit (an error for `leaselab run` there).
fn brute_force(
    sc: &Scenario,
    base: &Config,
    dims: &[Dim],
) -> Option<(Option<Counterexample>, usize)> {
    let mut points: Vec<Vec<u64>> = vec![Vec::new()];
    for d in dims {
        let next = points.iter().flat_map(|p| {
            (0..d.count).map(move |i| {
                let mut q = p.clone();
                q.push(i);
                q
            })
        });
        points = next.collect();
    }
    let mut lost = Vec::new();
    for index in points {
        let mut cfg = base.clone();
        for (d, i) in dims.iter().zip(&index) {
            cfg.params[d.param] = d.value(*i);
        }
        if simulate(sc, &cfg).ok()?.lost_update {
            lost.push((index.iter().sum::<u64>(), index, cfg.params));
        }
    }
    lost.sort();
    let ties = lost
        .iter()
        .filter(|l| Some(l.0) == lost.first().map(|f| f.0))
        .count();
    let best = lost
        .into_iter()
        .next()
        .map(|(cost, index, params)| Counterexample {
            index,
            cost,
            params,
        });
    Some((best, ties))
}

#[test]
fn the_search_equals_running_every_point() {
    let mut rng = Rng::new(0x5ea_4c);
    let (mut grids, mut unsafe_grids, mut limited) = (0, 0, 0);
    let (mut runs, mut points) = (0u64, 0u64);
    for round in 0..40 {
        for sc in catalogue::catalogue() {
            let n = sc.params.len() as u64;
            if n == 0 {
                continue;
            }
            let policy = Policy::ALL[rng.range_inclusive(0, Policy::ALL.len() as u64 - 1) as usize];
            let mut base = Config::new(sc, policy);
            base.retries = [0, 0, 1, 3][round % 4];
            base.naive = sc.service.kind.has_naive() && round % 2 == 1;
            let d = rng.range_inclusive(1, n.min(4)) as usize;
            let mut params: Vec<usize> = (0..n as usize).collect();
            for i in 0..d {
                let j = rng.range_inclusive(i as u64, n - 1) as usize;
                params.swap(i, j);
            }
            let count_max = [40, 12, 6, 4][d - 1];
            let dims: Vec<Dim> = params[..d]
                .iter()
                .map(|&p| random_dim(&mut rng, sc, p, count_max))
                .collect();
            let what = format!(
                "{} {:?} retries={} dims={dims:?}",
                sc.id, policy, base.retries
            );
            let Some((brute, _)) = brute_force(sc, &base, &dims) else {
                assert!(search_every_point(sc, &base, &dims).is_err(), "{what}");
                limited += 1;
                continue;
            };
            let fast = search(sc, &base, &dims).expect(&what);
            let slow = search_every_point(sc, &base, &dims).expect(&what);
            assert_eq!(fast.counterexample, brute, "{what}");
            assert_eq!(slow.counterexample, brute, "{what}");
            assert_eq!(fast.combinations, slow.combinations, "{what}");
            assert!(fast.runs <= fast.combinations, "{what}");
            grids += 1;
            unsafe_grids += u32::from(brute.is_some());
            points += fast.combinations;
            runs += fast.runs;
        }
    }
    assert!(
        grids > 1_000 && limited < grids / 20,
        "{grids} grids, {limited} hit a limit"
    );
    assert!(
        unsafe_grids > 30 && grids - unsafe_grids > 30,
        "{unsafe_grids} of {grids} unsafe"
    );
    assert!(runs < points, "{runs} runs for {points} points");
}

#[test]
fn ties_go_to_the_first_dimension_first() {
    // Grids where several points share the least cost (found by running every point): the first
    // --vary decides which is shown, and each order agrees with running every point.
    type Axis = (&'static str, u64, u64, u64);
    let grids: [(&str, Policy, Axis, Axis); 4] = [
        (
            "seed-gc-pause",
            Policy::Token,
            ("ttl", 10, 710, 100),
            ("work", 0, 500, 100),
        ),
        (
            "seed-gc-pause",
            Policy::Token,
            ("ttl", 50, 550, 50),
            ("work", 0, 250, 50),
        ),
        (
            "lock-delay",
            Policy::Token,
            ("ttl", 50, 550, 50),
            ("lockdelay", 250, 750, 50),
        ),
        (
            "lock-delay",
            Policy::Token,
            ("ttl", 10, 710, 100),
            ("lockdelay", 0, 1_000, 100),
        ),
    ];
    for (id, policy, a, b) in grids {
        let sc = catalogue::find(id).unwrap();
        let base = Config::new(sc, policy);
        let dim = |(name, from, to, step): Axis| Dim::new(sc, name, from * MS, to * MS, step * MS);
        let (a, b) = (dim(a).unwrap(), dim(b).unwrap());
        let mut chosen = Vec::new();
        for dims in [[a.clone(), b.clone()], [b, a]] {
            let (brute, ties) = brute_force(sc, &base, &dims).unwrap();
            assert!(ties > 1, "{id} {dims:?}: {ties}");
            let found = search(sc, &base, &dims).unwrap().counterexample;
            assert_eq!(found, brute, "{id} {dims:?}");
            let found = found.unwrap();
            chosen.push((found.cost, found.params));
        }
        // Same cost, two different points: the tie rule picked the one with the first dimension
        // smallest in each order.
        assert_eq!(chosen[0].0, chosen[1].0, "{id}");
        assert_ne!(chosen[0].1, chosen[1].1, "{id}");
    }
}

#[test]
fn a_four_dimensional_grid_needs_few_runs() {
    // TTL × pause × B's retry × B's work on the seed (33 × 32 × 32 × 33 points), under a policy where
    // no point loses an update, so the whole grid is decided.
    let sc = catalogue::find("seed-gc-pause").unwrap();
    let base = Config::new(sc, Policy::FirstTouch);
    let dims = [
        Dim::new(sc, "ttl", 10 * MS, 2_000 * MS, 62 * MS).unwrap(),
        Dim::new(sc, "pause", 0, 3_000 * MS, 95 * MS).unwrap(),
        Dim::new(sc, "retry", MS, 500 * MS, 16 * MS).unwrap(),
        Dim::new(sc, "work", 0, 1_000 * MS, 31 * MS).unwrap(),
    ];
    let found = search(sc, &base, &dims).unwrap();
    assert_eq!(found.combinations, 33 * 32 * 32 * 33);
    assert_eq!(found.counterexample, None);
    assert!(found.runs * 5 < found.combinations, "{} runs", found.runs);
}
