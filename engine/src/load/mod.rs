//! Loading a rule set: every file is read into the engine's types and checked (forms, flow,
//! scripts, tables, the catalog); either the whole set is fine or every problem is returned.
//!
//! `load(&[Source]) -> Engine | Vec<Diagnostic>`: besides each file, the flow's `summary:` names
//! (`crate::summary::NAMES`), its `upload_step` and its routes are checked. The `catalog::`
//! functions rules call (`counties_of`, `has_places`, `carrier_name`) are registered here.

mod flow;
mod forms;

use std::collections::BTreeMap;
use std::sync::Arc;

use rhai::Dynamic;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::script::Expr;
use crate::{
    Diagnostic, Engine, Source, Step, calendar, calls, catalog, coverage, form, i18n, model,
    renewal, script, summary, yaml, yearly_cost,
};
use flow::load_flow;
use forms::load_form;

/// How a rule set is loaded: for a coverage run (slower: every statement, transition, field and
/// quote its evaluations reach is noted for [`Engine::coverage`]), and the texts its host program
/// shows besides the set's, which every language must translate.
#[derive(Debug, Default, Clone, Copy)]
pub struct LoadOptions<'a> {
    pub coverage: bool,
    pub host_texts: &'a [i18n::HostTexts],
}

/// Loads and checks a whole rule set as [`LoadOptions`] say.
pub fn load_with(sources: &[Source], options: LoadOptions<'_>) -> Result<Engine, Vec<Diagnostic>> {
    load_as(sources, options.coverage, options.host_texts)
}

/// Loads and checks a whole rule set. Files the engine does not own (templates, catalog, READMEs)
/// are ignored. Either every file is fine, or every problem found is returned.
pub fn load(sources: &[Source]) -> Result<Engine, Vec<Diagnostic>> {
    load_as(sources, false, &[])
}

/// Loads a rule set for a coverage run: like [`load`], and every statement, transition, field
/// and quote its evaluations reach is noted for [`Engine::coverage`]. Slower: only for
/// `enrollflow coverage`.
pub fn load_with_coverage(sources: &[Source]) -> Result<Engine, Vec<Diagnostic>> {
    load_as(sources, true, &[])
}

fn load_as(
    sources: &[Source],
    coverage: bool,
    host_texts: &[i18n::HostTexts],
) -> Result<Engine, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let mut rhai = script::sandbox();
    let scripts = sources
        .iter()
        .filter(|s| is_in(&s.path, "rules/scripts/", ".rhai"))
        .count();
    let probe = coverage.then(|| coverage::Probe::new(scripts));
    if let Some(p) = &probe {
        coverage::attach(&mut rhai, p.clone());
    }

    let mut sorted: Vec<&Source> = sources.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut hasher = Sha256::new();
    for s in &sorted {
        hasher.update(s.path.as_bytes());
        hasher.update([0]);
        hasher.update(s.text.as_bytes());
        hasher.update([0]);
    }
    let hash = hex::encode(hasher.finalize());

    // Scripts first: every module is registered before any expression runs.
    let mut modules = Vec::new();
    let mut scripts = Vec::new();
    for (i, s) in sorted
        .iter()
        .filter(|s| is_in(&s.path, "rules/scripts/", ".rhai"))
        .enumerate()
    {
        let module = stem(&s.path, ".rhai");
        let start = match &probe {
            Some(p) if p.fits(s.text.lines().count()) => p.start_of(i),
            Some(_) => {
                problems.push(Diagnostic::file(
                    &s.path,
                    "too many lines for a coverage run of this many scripts",
                ));
                continue;
            }
            None => 0,
        };
        match script::compile_module_at(&rhai, &s.path, &s.text, start) {
            Ok((m, ast)) => {
                if let Some(p) = &probe {
                    p.add_script(&s.path, &module, start, &s.text, &ast);
                }
                scripts.push(calls::Script {
                    path: &s.path,
                    module: module.clone(),
                    ast,
                    start: usize::from(start),
                });
                modules.push((module, m));
            }
            Err(d) => problems.push(d),
        }
    }
    // Unqualified calls Rhai could send to another script's function are refused (`calls`); the
    // forms' and flows' expressions, compiled below, are checked (and noted by a coverage
    // probe) while `_loading` lives.
    let (defined, mut wrong_calls) = calls::check_scripts(&scripts);
    problems.append(&mut wrong_calls);
    let watch = probe.clone().map(|p| p as Arc<dyn script::ExpressionWatch>);
    let _loading = script::Loading::start(defined, watch);
    // `import "subscriber" as s;` finds the set's own scripts and nothing else.
    let mut own = rhai::module_resolvers::StaticModuleResolver::new();
    for (name, m) in modules {
        own.insert(name.clone(), m.clone());
        rhai.register_static_module(name, m.into());
    }
    rhai.set_module_resolver(own);
    script::register_fields(
        &mut rhai,
        sorted
            .iter()
            .filter(|s| {
                s.path.ends_with(".rhai")
                    || s.path.starts_with("forms/")
                    || s.path.starts_with("rules/flows/")
            })
            .map(|s| s.text.as_str()),
    );

    // Data tables: every top-level `rules/*.yaml` is `data.<name>` in scripts.
    let mut tables = Map::new();
    for s in sorted
        .iter()
        .filter(|s| is_in(&s.path, "rules/", ".yaml") && s.path != COVERAGE_FLOOR)
    {
        match yaml::parse::<Value>(&s.path, &s.text) {
            Ok(v) => {
                tables.insert(stem(&s.path, ".yaml"), v);
            }
            Err(d) => problems.push(d),
        }
    }
    let tables_json = Value::Object(tables);
    // The calendar, typed (optional: a rule set without plan years has no countdowns).
    let calendar = match sorted.iter().find(|s| s.path == "rules/calendar.yaml") {
        Some(s) => yaml::parse::<calendar::Calendar>(&s.path, &s.text).unwrap_or_else(|d| {
            problems.push(d);
            calendar::Calendar::default()
        }),
        None => calendar::Calendar::default(),
    };
    // The renewals' rules, typed (optional: none ages off, two alternatives).
    let renewals = match sorted.iter().find(|s| s.path == "rules/renewals.yaml") {
        Some(s) => yaml::parse::<renewal::RenewalRules>(&s.path, &s.text).unwrap_or_else(|d| {
            problems.push(d);
            renewal::RenewalRules::default()
        }),
        None => renewal::RenewalRules::default(),
    };

    // The expected use per service, for the plans' yearly estimates (optional: none without it).
    let utilization = match sorted
        .iter()
        .find(|s| s.path == yearly_cost::UTILIZATION_FILE)
    {
        Some(s) => yearly_cost::Utilization::read(&s.path, &s.text).unwrap_or_else(|d| {
            problems.push(d);
            yearly_cost::Utilization::default()
        }),
        None => yearly_cost::Utilization::default(),
    };

    let drug_tiers = match sorted
        .iter()
        .find(|s| s.path == yearly_cost::DRUG_TIERS_FILE)
    {
        Some(s) => yearly_cost::DrugTiers::read(&s.path, &s.text).unwrap_or_else(|d| {
            problems.push(d);
            yearly_cost::DrugTiers::default()
        }),
        None => yearly_cost::DrugTiers::default(),
    };

    let mut forms = BTreeMap::new();
    for s in sorted
        .iter()
        .filter(|s| is_in(&s.path, "forms/", ".form.yaml"))
    {
        match load_form(&rhai, s) {
            Ok(f) => {
                forms.insert(f.name.clone(), f);
            }
            Err(mut ds) => problems.append(&mut ds),
        }
    }

    let catalog = match catalog::load(&sorted) {
        Ok(c) => c,
        Err(mut ds) => {
            problems.append(&mut ds);
            catalog::Catalog::default()
        }
    };

    // Rules may ask the catalog about places: `catalog::counties_of("48104")` -> [161].
    rhai.register_static_module("catalog", catalog_module(&catalog).into());

    let flows: Vec<&&Source> = sorted
        .iter()
        .filter(|s| is_in(&s.path, "rules/flows/", ".flow.yaml"))
        .collect();
    let mut steps = Vec::new();
    let mut submitted_step = String::new();
    let mut household = None;
    let mut upload_step = None;
    let mut save_for_later_from = None;
    let mut summary = Vec::new();
    match flows.as_slice() {
        [flow] => match load_flow(&rhai, flow, &forms) {
            Ok(f) => {
                steps = f.steps;
                submitted_step = f.submitted_step;
                household = f.household;
                upload_step = f.upload_step;
                save_for_later_from = f.save_for_later_from;
                summary = f.summary;
            }
            Err(mut ds) => problems.append(&mut ds),
        },
        [] => problems.push(Diagnostic::file(
            "rules/flows",
            "no flow file (`*.flow.yaml`) found",
        )),
        [_, extra, ..] => problems.push(Diagnostic::file(
            &extra.path,
            "only one flow file is allowed; the wizard has one order of steps",
        )),
    }

    // The languages: a text without a translation is a problem, as a broken rule is.
    let languages = i18n::Languages::load(sources, host_texts, &mut problems);
    problems.extend(i18n::gaps(&languages, sources, host_texts));

    if !problems.is_empty() {
        problems.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        problems.dedup();
        return Err(problems);
    }
    // Complete now: what Rhai resolves may be kept from one evaluation to the next
    // (`script::Expr::eval_dynamic`). Not in a coverage run, whose debugger sees each evaluation
    // as Rhai runs it by itself.
    if !coverage {
        script::keep_resolutions(&mut rhai);
    }
    Ok(Engine {
        tables: script::to_lasting_dynamic(&tables_json),
        tables_json,
        rhai,
        steps,
        submitted_step,
        forms,
        household,
        upload_step,
        save_for_later_from,
        summary,
        catalog,
        calendar,
        renewals,
        utilization,
        drug_tiers,
        languages,
        hash,
        sources: if coverage {
            sorted
                .iter()
                .map(|s| (s.path.clone(), s.text.clone()))
                .collect()
        } else {
            Vec::new()
        },
        probe,
        contexts: Default::default(),
    })
}

/// The least coverage `make test` accepts (read by `enrollflow coverage`, not a data table).
pub const COVERAGE_FLOOR: &str = "rules/coverage.yaml";

fn catalog_module(cat: &catalog::Catalog) -> rhai::Module {
    let zips = std::sync::Arc::new(cat.zips.clone());
    let mut m = rhai::Module::new();
    m.set_native_fn("counties_of", move |zip: &str| {
        Ok(zip
            .parse::<crate::zip::Zip>()
            .ok()
            .and_then(|z| zips.get(&z))
            .map(|ids| {
                ids.iter()
                    .map(|id| Dynamic::from(i64::from(*id)))
                    .collect::<rhai::Array>()
            })
            .unwrap_or_default())
    });
    let known = !cat.zips.is_empty();
    m.set_native_fn("has_places", move || Ok(known));
    // `catalog::carrier_name(id)`: the carrier's name in carriers.yaml, or () for no such carrier.
    let names: std::collections::BTreeMap<i64, String> = cat
        .carriers
        .iter()
        .map(|c| (i64::from(c.id), c.name.clone()))
        .collect();
    m.set_native_fn("carrier_name", move |id: Dynamic| {
        Ok(id
            .as_int()
            .ok()
            .and_then(|id| names.get(&id))
            .map_or(Dynamic::UNIT, |n| Dynamic::from(n.clone())))
    });
    m
}

fn is_in(path: &str, dir: &str, ext: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| !rest.contains('/') && rest.ends_with(ext))
}

fn stem(path: &str, ext: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(ext).unwrap_or(name).to_string()
}

fn expr(
    rhai: &rhai::Engine,
    file: &str,
    s: &serde_saphyr::Spanned<String>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Expr> {
    match script::compile_expression(rhai, file, yaml::line_of(s), &s.value) {
        Ok(e) => Some(e),
        Err(d) => {
            problems.push(d);
            None
        }
    }
}

/// A view's `extras`, compiled: the whole expression, or each key's.
fn extras(
    rhai: &rhai::Engine,
    file: &str,
    source: Option<&model::ExtrasSource>,
    problems: &mut Vec<Diagnostic>,
) -> Option<form::Extras> {
    match source? {
        model::ExtrasSource::Whole(e) => expr(rhai, file, e, problems).map(form::Extras::Whole),
        model::ExtrasSource::Each(each) => {
            let compiled: Vec<_> = each
                .iter()
                .filter_map(|(key, e)| Some((key.clone(), expr(rhai, file, e, problems)?)))
                .collect();
            (compiled.len() == each.len()).then_some(form::Extras::Each(compiled))
        }
    }
}

struct LoadedFlow {
    steps: Vec<Step>,
    submitted_step: String,
    household: Option<Expr>,
    upload_step: Option<String>,
    save_for_later_from: Option<u8>,
    summary: Vec<(&'static str, summary::Kind, Expr)>,
}
