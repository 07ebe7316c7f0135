//! The catalogue as JSON (the page's scenario list, and its prose per language) and a Monte Carlo
//! estimate as JSON.

use super::json::Json;
use super::service_name;
use crate::catalogue;
use crate::matrix::TABLE_GROUP;
use crate::scenario::Scenario;

/// A text in English and Bengali, each where this build carries it (the wasm carries English titles
/// only: see [`catalogue_texts_json`]). Nothing when neither is there.
fn texts(j: &mut Json, key: &str, en: &str, bn: &str) {
    if en.is_empty() && bn.is_empty() {
        return;
    }
    j.key(key).begin_obj();
    for (lang, text) in [("en", en), ("bn", bn)] {
        if !text.is_empty() {
            j.key(lang).str(text);
        }
    }
    j.end_obj();
}

/// The catalogue's prose in one language, keyed by scenario id:
/// `{"id": {"title", "summary", "source", "derived", "params": {"name": "label"}}}` (sources and notes are
/// in English only). The page loads this file beside the wasm, which leaves the prose out.
/// `None` for a language the catalogue does not have.
pub fn catalogue_texts_json(lang: &str) -> Option<String> {
    let en = match lang {
        "en" => true,
        "bn" => false,
        _ => return None,
    };
    let mut j = Json::new();
    j.begin_obj();
    for sc in catalogue::catalogue() {
        j.key(&sc.id).begin_obj();
        j.key("title")
            .str(if en { &sc.title_en } else { &sc.title_bn });
        j.key("summary")
            .str(if en { &sc.summary_en } else { &sc.summary_bn });
        if en {
            j.key("source").str(&sc.source);
            j.key("derived").str(&sc.derived);
        }
        j.key("params").begin_obj();
        for p in sc.params.iter() {
            j.key(&p.name)
                .str(if en { &p.label_en } else { &p.label_bn });
        }
        j.end_obj();
        j.end_obj();
    }
    j.end_obj();
    Some(j.finish())
}

/// The catalogue as JSON: ids, groups, texts (English, plus Bengali in native builds), parameters with
/// ranges, sources. A wasm's lists no base scenario of the safety table: a table cell's link opens
/// one by id (explore's wasm has them: the cargo feature `table`), but no menu offers them.
pub fn catalogue_json() -> String {
    let mut j = Json::new();
    j.begin_arr();
    let listed = |sc: &&Scenario| !cfg!(target_arch = "wasm32") || sc.group != TABLE_GROUP;
    for sc in catalogue::catalogue().iter().filter(listed) {
        scenario_entry(&mut j, sc);
    }
    j.end_arr();
    j.finish()
}

/// One scenario as the catalogue lists it (an object): the page's shape for a catalogue scenario and,
/// through [`super::user_json`], for a user's.
pub fn scenario_entry(j: &mut Json, sc: &Scenario) {
    j.begin_obj();
    j.key("id").str(&sc.id);
    j.key("group").str(&sc.group);
    texts(j, "title", &sc.title_en, &sc.title_bn);
    texts(j, "summary", &sc.summary_en, &sc.summary_bn);
    for (key, text) in [("source", &sc.source), ("derived", &sc.derived)] {
        if !text.is_empty() {
            j.key(key).str(text);
        }
    }
    j.key("tokens").bool(sc.service.tokens);
    j.key("service").str(service_name(sc));
    // Which of the page's wasm builds runs it: the core one, the full one (src/services), or, for a
    // client that calls a lock library, the clients one (every service and the cargo feature
    // `libraries`: www/engine.js, tools/build-web.sh).
    let engine = if sc.clients.iter().any(|c| c.library.is_some()) {
        "clients"
    } else if crate::services::in_core(sc.service.kind) {
        "core"
    } else {
        "full"
    };
    j.key("engine").str(engine);
    j.key("nodes").int(i64::from(sc.service.nodes));
    // The naive switch: whether it means something here, and its setting by default.
    j.key("has_naive").bool(sc.service.kind.has_naive());
    j.key("naive").bool(sc.service.naive_default);
    j.key("clients").begin_arr();
    for c in sc.clients.iter() {
        j.str(&c.name.to_string());
    }
    j.end_arr();
    j.key("params").begin_arr();
    for p in sc.params.iter() {
        j.begin_obj();
        j.key("name").str(&p.name);
        j.key("default_ms").ms(p.default_us);
        j.key("min_ms").ms(p.min_us);
        j.key("max_ms").ms(p.max_us);
        texts(j, "label", &p.label_en, &p.label_bn);
        j.end_obj();
    }
    j.end_arr();
    j.end_obj();
}

/// A Monte Carlo estimate as JSON (the CLI's `estimate --json`).
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
pub fn estimate_json(
    spec: &crate::estimate::Spec,
    r: &crate::estimate::Estimate,
    per_day: f64,
) -> String {
    use crate::estimate::PauseDist;
    let mut j = Json::new();
    j.begin_obj();
    j.key("fencing").str(spec.policy.name());
    j.key("ttl_ms").ms(spec.ttl_us);
    j.key("retry_ms").ms(spec.retry_us);
    j.key("work_ms").ms(spec.work_us);
    match spec.dist {
        PauseDist::Pareto { scale_us, shape } => {
            j.key("dist").str("pareto");
            j.key("scale_ms").raw(&fnum(scale_us / 1000.0));
            j.key("shape").raw(&fnum(shape));
        }
        PauseDist::LogNormal { median_us, sigma } => {
            j.key("dist").str("lognormal");
            j.key("median_ms").raw(&fnum(median_us / 1000.0));
            j.key("sigma").raw(&fnum(sigma));
        }
    }
    j.key("rate_per_s").raw(&fnum(spec.rate_per_s));
    j.key("seed").raw(&spec.seed.to_string());
    j.key("ops").raw(&r.ops.to_string());
    j.key("lost").raw(&r.lost.to_string());
    j.key("simulated").raw(&r.simulated.to_string());
    j.key("over_range").raw(&r.over_range.to_string());
    j.key("p").raw(&fnum(r.p));
    j.key("low").raw(&fnum(r.low));
    j.key("high").raw(&fnum(r.high));
    j.key("analytic").raw(&fnum(r.analytic));
    j.key("per_day").raw(&fnum(per_day));
    j.end_obj();
    j.finish()
}

/// The estimate's presets as JSON, for explore.html's form (its one definition is
/// [`crate::estimate::PRESETS`]): `[{"id", "dist", "a", "b"}]`, `a` the scale or median in ms and `b`
/// the shape or sigma, as `leaselab estimate --preset ID` uses them. The sources stay out: the page has
/// them in its languages.
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
pub fn presets_json() -> String {
    let mut j = Json::new();
    j.begin_arr();
    for p in crate::estimate::PRESETS {
        let (dist, a, b) = p.dist.name_a_b();
        j.begin_obj();
        j.key("id").str(p.id);
        j.key("dist").str(dist);
        j.key("a").raw(&fnum(a));
        j.key("b").raw(&fnum(b));
        j.end_obj();
    }
    j.end_arr();
    j.finish()
}

/// What explore.html's estimate form starts at and allows, from the estimator's own definitions:
/// `default` is [`crate::estimate::Spec::new`] (what `leaselab estimate` runs without flags: `preset`
/// names its pauses' preset, `rate_per_s` 0 is a contender always waiting) and `limits` are the
/// ranges [`crate::estimate::Spec::check`] allows, as `[min, max]` — TTL, retry and work those of
/// the estimate's scenario's parameters.
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
pub fn estimate_form_json() -> Result<String, crate::Error> {
    use crate::estimate::{
        preset_of, Spec, LOGNORMAL_SIGMA, PARETO_SHAPE, PAUSE_SCALE_US, RATE_PER_S, SCENARIO,
        SEED_MAX_JS,
    };
    let sc = catalogue::find(SCENARIO)?;
    let spec = Spec::new(crate::store::Policy::None);
    let (dist, a, b) = spec.dist.name_a_b();
    let mut j = Json::new();
    j.begin_obj();
    j.key("scenario").str(SCENARIO);
    j.key("default").begin_obj();
    match preset_of(&spec.dist) {
        Some(p) => j.key("preset").str(p.id),
        None => j.key("preset").null(),
    };
    j.key("dist").str(dist);
    j.key("a").raw(&fnum(a));
    j.key("b").raw(&fnum(b));
    j.key("ttl_ms").ms(spec.ttl_us);
    j.key("retry_ms").ms(spec.retry_us);
    j.key("work_ms").ms(spec.work_us);
    j.key("rate_per_s").raw(&fnum(spec.rate_per_s));
    j.key("seed").raw(&spec.seed.to_string());
    j.end_obj();
    j.key("limits").begin_obj();
    let pair = |j: &mut Json, key: &str, (lo, hi): (f64, f64)| {
        j.key(key)
            .begin_arr()
            .raw(&fnum(lo))
            .raw(&fnum(hi))
            .end_arr();
    };
    pair(
        &mut j,
        "pause_ms",
        (PAUSE_SCALE_US.0 / 1000.0, PAUSE_SCALE_US.1 / 1000.0),
    );
    pair(&mut j, "pareto", PARETO_SHAPE);
    pair(&mut j, "lognormal", LOGNORMAL_SIGMA);
    pair(&mut j, "rate_per_s", RATE_PER_S);
    j.key("seed")
        .begin_arr()
        .raw("0")
        .raw(&SEED_MAX_JS.to_string())
        .end_arr();
    for name in ["ttl", "retry", "work"] {
        let i = sc.param_index_or_err(name)?;
        let p = &sc.params[i];
        j.key(&format!("{name}_ms"))
            .begin_arr()
            .ms(p.min_us)
            .ms(p.max_us)
            .end_arr();
    }
    j.end_obj();
    j.end_obj();
    Ok(j.finish())
}

/// A float as JSON: shortest round-trip form (the same text natively and in wasm), finite only.
#[cfg(any(not(target_arch = "wasm32"), feature = "estimate"))]
fn fnum(x: f64) -> String {
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "null".to_string()
    }
}

// Native only: serde_json is a dev-dependency of the native tests (wasm-pack test builds this crate's tests for wasm32).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::catalogue_json;
    use crate::catalogue;

    /// The page picks a wasm per scenario by its `engine` (www/engine.js): a scenario with a library
    /// client must name the clients build, the only one with the libraries' engine half; every other
    /// one the core or full build, as before.
    #[test]
    fn a_library_client_runs_on_the_clients_build_and_nothing_else_does() {
        let list: serde_json::Value = serde_json::from_str(&catalogue_json()).unwrap();
        let engine_of = |id: &str| {
            list.as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == id)
                .unwrap_or_else(|| panic!("{id} not in the catalogue"))["engine"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(engine_of("kazoo-is-acquired"), "clients");
        assert_eq!(engine_of("seed-gc-pause"), "core");
        assert_eq!(engine_of("zk-session-expiry"), "full");
        let mut clients = 0;
        for sc in catalogue::catalogue() {
            let library = sc.clients.iter().any(|c| c.library.is_some());
            assert_eq!(engine_of(&sc.id) == "clients", library, "{}", sc.id);
            clients += usize::from(library);
        }
        assert!(clients >= 3, "{clients} library scenarios");
    }
}
