//! The wasm-bindgen facade: the only module that imports `wasm_bindgen`.
//!
//! One opaque [`Simulation`] handle holds the settings; runs come back as the same JSON the CLI prints
//! (`leaselab run --json`), so native and wasm can be compared byte for byte. Numbers crossing the
//! boundary are `f64` milliseconds or `u32`, never `u64` (which would become a BigInt).

use wasm_bindgen::prelude::*;

use crate::catalogue;
use crate::outcome::summarize;
use crate::report;
use crate::scenario::{Lost, Scenario};
use crate::sim::Engine;
use crate::store::Policy;
#[cfg(feature = "estimate")]
use crate::sweep::{sweep_every_cell, sweep_map, Axis};
use crate::{simulate, Config};

// The wasm build's allocator. `AssumeSingleThreaded` is sound here: this wasm runs on one thread (no
// shared memory, no atomics), which is the one thing it asks us to promise.
#[allow(unsafe_code)]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

fn js(e: crate::Error) -> JsError {
    JsError::new(&e.to_string())
}

/// Milliseconds from JS to whole microseconds, refusing what is not a finite, non-negative number.
fn ms_to_us(name: &str, ms: f64) -> Result<u64, JsError> {
    // No float formatting here: it would add kilobytes of wasm for one error message.
    if !ms.is_finite() || ms < 0.0 || ms > crate::time::DURATION_US_MAX as f64 / 1000.0 {
        return Err(JsError::new(&format!(
            "{name}: expected a duration between 0 and 1 hour in milliseconds"
        )));
    }
    Ok((ms * 1000.0).round() as u64)
}

/// The scenario catalogue as JSON (ids, groups, English and Bengali texts, parameters with ranges).
#[wasm_bindgen]
pub fn catalogue() -> String {
    report::catalogue_json()
}

/// The safety table (`leaselab matrix --json`'s object) of the services, faults and storage
/// policies named in three comma-separated lists (an empty list: every one). matrix.html's workers
/// each compute a share of the cells with it.
#[cfg(feature = "table")]
#[wasm_bindgen(js_name = matrixTable)]
pub fn matrix_table(services: &str, faults: &str, policies: &str) -> Result<String, JsError> {
    let t = crate::matrix::table_named(services, faults, policies).map_err(js)?;
    Ok(report::matrix_json(&t))
}

/// Catalogue scenario `id` as the catalogue lists it (its parameters with their ranges), also one
/// that no menu lists: a safety table's base scenario, opened by a cell's link.
#[cfg(feature = "table")]
#[wasm_bindgen(js_name = scenarioEntry)]
pub fn scenario_entry(id: &str) -> Result<String, JsError> {
    let sc = catalogue::find(id).map_err(js)?;
    let mut j = report::json::Json::new();
    report::catalogue_json::scenario_entry(&mut j, sc);
    Ok(j.finish())
}

/// The id of the default scenario (the seed's).
#[wasm_bindgen(js_name = defaultScenario)]
pub fn default_scenario() -> String {
    catalogue::DEFAULT_ID.to_string()
}

/// How often a refused client starts over when the page's box is ticked: the catalogue's `+retry`.
#[wasm_bindgen(js_name = retriesOn)]
pub fn retries_on() -> u32 {
    crate::outcome::EXPECT_RETRIES
}

/// The names of the storage policies, comma-separated, in UI order.
#[wasm_bindgen]
pub fn policies() -> String {
    crate::text::join(Policy::ALL.iter().map(|p| p.name()), ",")
}

/// The Monte Carlo estimate's presets as JSON, `[{"id", "dist", "a", "b"}]` (a: scale or median in ms;
/// b: shape or sigma): the numbers of `leaselab estimate --preset ID`, for explore.html's form.
#[cfg(feature = "estimate")]
#[wasm_bindgen]
pub fn presets() -> String {
    report::presets_json()
}

/// What explore.html's estimate form starts at and allows, as JSON: `{"scenario", "default": {…},
/// "limits": {…}}`, the CLI's defaults and the ranges the [`Estimator`] accepts.
#[cfg(feature = "estimate")]
#[wasm_bindgen(js_name = estimateForm)]
pub fn estimate_form() -> Result<String, JsError> {
    report::estimate_form_json().map_err(js)
}

/// The scenario a [`Simulation`] runs: the catalogue's, borrowed for the page's life; in the
/// `user-scenario` build it may be a user's own instead, and in the `table` build one with injected
/// faults, owned by the handle and freed with it.
#[cfg(not(any(feature = "user-scenario", feature = "table")))]
type Held = &'static Scenario;
#[cfg(any(feature = "user-scenario", feature = "table"))]
type Held = std::borrow::Cow<'static, Scenario>;

/// A catalogue scenario as the [`Simulation`] holds it.
#[cfg(not(any(feature = "user-scenario", feature = "table")))]
fn held(sc: &'static Scenario) -> Held {
    sc
}
#[cfg(any(feature = "user-scenario", feature = "table"))]
fn held(sc: &'static Scenario) -> Held {
    std::borrow::Cow::Borrowed(sc)
}

/// A user's scenario text parsed (`{"scenario": {…}}`, the catalogue's shape) or its errors located
/// (`{"errors": [{"line", "col", "message"}]}`): `leaselab check`'s, as data for the page.
#[cfg(feature = "user-scenario")]
#[wasm_bindgen(js_name = parseScenario)]
pub fn parse_scenario(text: &str) -> String {
    report::user_scenario_json(text)
}

/// A user's scenario text's expectation lines run, each `{"line", "head", "ok", "run_error"?,
/// "message"?}` under `"expects"`, or its errors as [`parse_scenario`] gives them.
#[cfg(feature = "user-scenario")]
#[wasm_bindgen(js_name = checkScenario)]
pub fn check_scenario(text: &str) -> String {
    report::user_expectations_json(text)
}

/// Settings for runs of one scenario.
#[wasm_bindgen]
pub struct Simulation {
    scenario: Held,
    config: Config,
    engine: Engine,
}

#[wasm_bindgen]
impl Simulation {
    /// A simulation of scenario `id` with its default parameters, unfenced.
    #[wasm_bindgen(constructor)]
    pub fn new(id: &str) -> Result<Simulation, JsError> {
        let scenario = catalogue::find(id).map_err(js)?;
        crate::services::check_built_in(scenario).map_err(js)?;
        Ok(Simulation {
            scenario: held(scenario),
            config: Config::new(scenario, Policy::None),
            engine: Engine::new(),
        })
    }

    /// A simulation of a user's scenario text (its own defaults, unfenced); the handle owns the parsed
    /// scenario. A text that does not parse is refused with its first error, `line LINE, column COL:
    /// message` ([`parse_scenario`] gives them all, as data).
    #[cfg(feature = "user-scenario")]
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str) -> Result<Simulation, JsError> {
        let scenario = crate::check::parse(text).map_err(|errors| match errors.first() {
            Some(d) => JsError::new(&format!("line {}, column {}: {}", d.line, d.col, d.message)),
            None => JsError::new("the scenario does not parse"),
        })?;
        Ok(Simulation {
            config: Config::new(&scenario, Policy::None),
            scenario: std::borrow::Cow::Owned(scenario),
            engine: Engine::new(),
        })
    }

    /// A simulation of catalogue scenario `id` with faults injected, each at one value (`leaselab
    /// run --inject`'s texts, e.g. `freeze:A,at=600ms,for=60s`): a safety table cell's
    /// counterexample, opened by its link. Refuses an unknown id, a bad injection (its message names
    /// it) and a range (the lab runs one point; `leaselab search` searches ranges).
    #[cfg(feature = "table")]
    pub fn injected(id: &str, injections: Vec<String>) -> Result<Simulation, JsError> {
        let sc = catalogue::find(id).map_err(js)?;
        crate::services::check_built_in(sc).map_err(js)?;
        let mut inj = crate::inject::Injected::none(sc);
        for text in &injections {
            inj.add(text).map_err(js)?;
        }
        if let Some(d) = inj.dims.iter().find(|d| d.count > 1) {
            let name = &inj.scenario.params[d.param].name;
            return Err(JsError::new(&format!(
                "{name} has {} values: the lab runs one point (KEY=DUR)",
                d.count
            )));
        }
        let defaults: Vec<u64> = inj.scenario.params.iter().map(|p| p.default_us).collect();
        let scenario = inj.scenario_at(&defaults);
        Ok(Simulation {
            config: Config::new(&scenario, Policy::None),
            scenario: std::borrow::Cow::Owned(scenario),
            engine: Engine::new(),
        })
    }

    #[wasm_bindgen(getter)]
    pub fn scenario(&self) -> String {
        self.scenario.id.to_string()
    }

    /// Sets the storage policy by name (`none`, `token`, `first-touch`, `version`, `owner`).
    #[wasm_bindgen(js_name = setPolicy)]
    pub fn set_policy(&mut self, name: &str) -> Result<(), JsError> {
        self.config.policy = Policy::parse(name).map_err(js)?;
        Ok(())
    }

    /// Sets a parameter in milliseconds; refuses unknown names and values out of the scenario's range.
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&mut self, name: &str, ms: f64) -> Result<(), JsError> {
        let us = ms_to_us(name, ms)?;
        self.scenario
            .set_param(&mut self.config.params, name, us)
            .map_err(js)
    }

    /// Whether the scenario has a parameter of this name.
    #[wasm_bindgen(js_name = hasParam)]
    pub fn has_param(&self, name: &str) -> bool {
        self.scenario.param_index(name).is_some()
    }

    #[wasm_bindgen(js_name = setRetries)]
    pub fn set_retries(&mut self, n: u32) -> Result<(), JsError> {
        if n > crate::sim::RETRIES_MAX {
            return Err(JsError::new(&format!(
                "retries = {n}: expected 0 to {}",
                crate::sim::RETRIES_MAX
            )));
        }
        self.config.retries = n;
        Ok(())
    }

    /// The naive switch: the scenario's service without its check (what that is, each service's
    /// home says: `leaselab run --help` lists them). Ignored by
    /// scenarios of other services.
    #[wasm_bindgen(js_name = setNaive)]
    pub fn set_naive(&mut self, naive: bool) {
        self.config.naive = naive && self.scenario.service.kind.has_naive();
    }

    /// Runs and returns the whole outcome as JSON (the same bytes as `leaselab run --json`).
    #[wasm_bindgen(js_name = runJson)]
    pub fn run_json(&self) -> Result<String, JsError> {
        let outcome = simulate(&self.scenario, &self.config).map_err(js)?;
        Ok(report::json(&outcome))
    }

    /// Runs without a trace and returns `[final, lost (0 nobody, 1 + client), rejected (0/1), stale (0/1)]`.
    pub fn quick(&mut self) -> Result<Vec<i32>, JsError> {
        let c = &self.config;
        let run = self
            .engine
            .run_with(
                &self.scenario,
                c.policy,
                &c.params,
                c.retries,
                false,
                c.seed,
                c.naive,
            )
            .map_err(js)?;
        let s = summarize(run);
        Ok(vec![
            s.final_balance as i32,
            match s.lost {
                Lost::Nobody => 0,
                Lost::Client(i) => 1 + i32::from(i),
            },
            i32::from(s.rejected),
            i32::from(s.stale_write_accepted),
        ])
    }

    /// A grid of runs over two parameters, row-major (y outer). One byte per cell: 0 safe, 1 safe with a
    /// write rejected, 2 + i the update of client i lost. Only the cells where the run's path changes
    /// are run (see [`crate::sweep::sweep`]); `every_cell: true` runs each cell event by event instead
    /// (the same grid, slower: for the benchmark's runs per second, and checks). Only in the wasm built
    /// with `estimate` (explore.html's), so the lab page's wasm stays within its size budget.
    #[cfg(feature = "estimate")]
    #[allow(clippy::too_many_arguments)]
    pub fn sweep(
        &self,
        x_name: &str,
        x_from_ms: f64,
        x_to_ms: f64,
        x_steps: u32,
        y_name: &str,
        y_from_ms: f64,
        y_to_ms: f64,
        y_steps: u32,
        every_cell: Option<bool>,
    ) -> Result<Vec<u8>, JsError> {
        let sc: &Scenario = &self.scenario;
        let x = Axis::new(
            sc,
            x_name,
            ms_to_us(x_name, x_from_ms)?,
            ms_to_us(x_name, x_to_ms)?,
            x_steps as usize,
        )
        .map_err(js)?;
        let y = Axis::new(
            sc,
            y_name,
            ms_to_us(y_name, y_from_ms)?,
            ms_to_us(y_name, y_to_ms)?,
            y_steps as usize,
        )
        .map_err(js)?;
        let mut codes = Vec::new();
        if every_cell == Some(true) {
            let mut cells = Vec::new();
            sweep_every_cell(sc, &self.config, &x, &y, &mut cells).map_err(js)?;
            codes.extend(cells.iter().map(|s| s.code()));
        } else {
            sweep_map(sc, &self.config, &x, &y, |s| s.code(), &mut codes).map_err(js)?;
        }
        Ok(codes)
    }

    /// Searches a grid for the smallest point that loses an update (see [`crate::search`]), at the
    /// handle's policy, retries, naive switch and other parameters. Dimension `k` varies
    /// `names.split(',')[k]` from `from_ms[k]` to `to_ms[k]` by `step_ms[k]`, in the order given (the
    /// tie order). Returns [`crate::search::Found::numbers`]: `[combinations, runs, cost, index…, b,
    /// key…]` (the counterexample, then the grid's behaviours as pairs of u32, `b` −1 when not every
    /// point was decided). With
    /// `cost_max`, only a counterexample of that cost or less is looked for
    /// ([`crate::search::search_within`]). Numbers, not JSON: a Web Worker searches one slice of a
    /// grid and the page combines the slices. Only in the wasm built with `estimate` (explore's,
    /// loaded by the lab's search worker).
    #[cfg(feature = "estimate")]
    pub fn search(
        &self,
        names: &str,
        from_ms: &[f64],
        to_ms: &[f64],
        step_ms: &[f64],
        cost_max: Option<u32>,
    ) -> Result<Vec<f64>, JsError> {
        let dims = self.search_dims(names, from_ms, to_ms, step_ms)?;
        let (sc, config) = (&*self.scenario, &self.config);
        let found = match cost_max {
            None => crate::search::search(sc, config, &dims),
            Some(c) => crate::search::search_within(sc, config, &dims, u64::from(c)),
        }
        .map_err(js)?;
        Ok(found.numbers())
    }

    /// The number of points in the grid [`Simulation::search`] would search, or why the grid is
    /// refused (unknown parameter, empty range, step 0, over the limit): checked before a search is
    /// split among workers, so a bad grid gets one clear message.
    #[cfg(feature = "estimate")]
    #[wasm_bindgen(js_name = searchCombinations)]
    pub fn search_combinations(
        &self,
        names: &str,
        from_ms: &[f64],
        to_ms: &[f64],
        step_ms: &[f64],
    ) -> Result<f64, JsError> {
        let dims = self.search_dims(names, from_ms, to_ms, step_ms)?;
        let n = crate::search::combinations(&self.scenario, &dims).map_err(js)?;
        Ok(n as f64)
    }
}

#[cfg(feature = "estimate")]
impl Simulation {
    /// The dimensions of a search grid from the page's parallel lists, each checked by [`crate::search::Dim::new`].
    fn search_dims(
        &self,
        names: &str,
        from_ms: &[f64],
        to_ms: &[f64],
        step_ms: &[f64],
    ) -> Result<Vec<crate::search::Dim>, JsError> {
        let names: Vec<&str> = names.split(',').filter(|n| !n.is_empty()).collect();
        let n = names.len();
        if from_ms.len() != n || to_ms.len() != n || step_ms.len() != n {
            return Err(JsError::new(
                "search: expected one FROM, TO and STEP for each parameter",
            ));
        }
        let mut dims = Vec::with_capacity(n);
        for (k, name) in names.iter().enumerate() {
            let from = ms_to_us(name, from_ms[k])?;
            let to = ms_to_us(name, to_ms[k])?;
            let step = ms_to_us(name, step_ms[k])?;
            dims.push(crate::search::Dim::new(&self.scenario, name, from, to, step).map_err(js)?);
        }
        Ok(dims)
    }
}

/// A Monte Carlo estimate of P(lost update) for the seed's run (see [`crate::estimate`]), advanced in
/// chunks so a Web Worker can report progress and stop when cancelled. The numbers depend only on the
/// settings and the number of operations, not on the chunking, and equal the CLI's `leaselab estimate`.
#[cfg(feature = "estimate")]
#[wasm_bindgen]
pub struct Estimator {
    inner: crate::estimate::Estimator,
}

#[cfg(feature = "estimate")]
#[wasm_bindgen]
impl Estimator {
    /// `dist` is `pareto` (a = scale in ms, b = shape) or `lognormal` (a = median in ms, b = sigma);
    /// `rate` is contenders per second, 0 for one always waiting; `seed` a whole number below 2^53.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        policy: &str,
        ttl_ms: f64,
        retry_ms: f64,
        work_ms: f64,
        dist: &str,
        a: f64,
        b: f64,
        rate: f64,
        seed: f64,
    ) -> Result<Estimator, JsError> {
        use crate::estimate::{PauseDist, Spec};
        let policy = Policy::parse(policy).map_err(js)?;
        if !(a.is_finite() && b.is_finite()) {
            return Err(JsError::new("pause distribution: expected finite numbers"));
        }
        let dist = PauseDist::from_name_a_b(dist, a, b)
            .ok_or_else(|| JsError::new("dist: expected pareto or lognormal"))?;
        if !(seed.is_finite()
            && seed >= 0.0
            && seed <= crate::estimate::SEED_MAX_JS as f64
            && seed.fract() == 0.0)
        {
            return Err(JsError::new(
                "seed: expected a whole number from 0 to 2^53 - 1",
            ));
        }
        let spec = Spec {
            policy,
            dist,
            ttl_us: ms_to_us("ttl", ttl_ms)?,
            retry_us: ms_to_us("retry", retry_ms)?,
            work_us: ms_to_us("work", work_ms)?,
            rate_per_s: rate,
            seed: seed as u64,
        };
        Ok(Estimator {
            inner: crate::estimate::Estimator::new(spec).map_err(js)?,
        })
    }

    /// Runs `n` more operations.
    pub fn step(&mut self, n: u32) -> Result<(), JsError> {
        self.inner.step(u64::from(n)).map_err(js)
    }

    /// `[ops, lost, simulated, over_range, p, low, high, analytic]` (numbers, not text: float formatting
    /// would cost kilobytes of wasm).
    pub fn result(&self) -> Vec<f64> {
        let r = self.inner.result();
        vec![
            r.ops as f64,
            r.lost as f64,
            r.simulated as f64,
            r.over_range as f64,
            r.p,
            r.low,
            r.high,
            r.analytic,
        ]
    }
}
