//! Loading a rule set: every file is read into the engine's types and checked (forms, flow,
//! scripts, tables, the catalog); either the whole set is fine or every problem is returned.
//!
//! `load(&[Source]) -> Engine | Vec<Diagnostic>`: besides each file, the flow's `summary:` names
//! (`crate::summary::NAMES`), its `upload_step` and its routes are checked. The `catalog::`
//! functions rules call (`counties_of`, `has_places`, `carrier_name`) are registered here.

use super::*;

/// Loads and checks a whole rule set. Files the engine does not own (templates, catalog, READMEs)
/// are ignored. Either every file is fine, or every problem found is returned.
pub fn load(sources: &[Source]) -> Result<Engine, Vec<Diagnostic>> {
    load_as(sources, false)
}

/// Loads a rule set for a coverage run: like [`load`], and every statement, transition, field
/// and quote its evaluations reach is noted for [`Engine::coverage`]. Slower: only for
/// `enrollflow coverage`.
pub fn load_with_coverage(sources: &[Source]) -> Result<Engine, Vec<Diagnostic>> {
    load_as(sources, true)
}

fn load_as(sources: &[Source], coverage: bool) -> Result<Engine, Vec<Diagnostic>> {
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
    let languages = i18n::Languages::load(sources, &mut problems);
    problems.extend(i18n::gaps(&languages, sources));

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

fn load_form(rhai: &rhai::Engine, s: &Source) -> Result<Form, Vec<Diagnostic>> {
    let file: model::FormFile = yaml::parse(&s.path, &s.text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    let schema_line = yaml::line_of(&file.schema);
    let schema = file.schema.value;
    let validator = match form::compile_schema(&s.path, schema_line, &schema) {
        Ok(v) => Some(v),
        Err(d) => {
            problems.push(d);
            None
        }
    };
    let paths = |map: BTreeMap<String, serde_saphyr::Spanned<String>>,
                 what: &str,
                 problems: &mut Vec<Diagnostic>|
     -> Vec<(FieldPath, Expr)> {
        let mut out = Vec::new();
        for (key, e) in map {
            let path = form::parse_path(&key);
            if form::schema_at(&schema, &path).is_none() {
                problems.push(Diagnostic::new(
                    &s.path,
                    yaml::line_of(&e),
                    1,
                    format!("{what} names `{key}`, which is not a field of the schema"),
                ));
                continue;
            }
            if let Some(x) = expr(rhai, &s.path, &e, problems) {
                out.push((path, x));
            }
        }
        out
    };
    let only_when = paths(file.only_when, "only_when", &mut problems);
    let options = paths(file.options, "options", &mut problems);
    let keep_when = paths(file.keep_when, "keep_when", &mut problems);
    let required_when = paths(file.required_when, "required_when", &mut problems);
    for (path, e) in &required_when {
        if path.iter().any(|p| p == "*") {
            problems.push(Diagnostic::new(
                &s.path,
                e.line,
                1,
                format!(
                    "required_when names `{}`: a field inside a list cannot be required by a rule",
                    form::path_string(path)
                ),
            ));
        }
    }
    for f in &file.refresh_on {
        if form::schema_at(&schema, &form::parse_path(f)).is_none() {
            problems.push(Diagnostic::file(
                &s.path,
                format!("refresh_on names `{f}`, which is not a field of the schema"),
            ));
        }
    }
    let mut one = |e: Option<serde_saphyr::Spanned<String>>| {
        e.and_then(|e| expr(rhai, &s.path, &e, &mut problems))
    };
    let initial = one(file.initial);
    let checks = one(file.checks);
    let derive = one(file.derive);
    let extras = extras(rhai, &s.path, file.extras.as_ref(), &mut problems);
    match validator {
        Some(validator) if problems.is_empty() => Ok(Form {
            name: stem(&s.path, ".form.yaml"),
            title: file.title,
            schema: Arc::new(schema),
            validator,
            ui: Arc::new(if file.ui.is_null() {
                json!({})
            } else {
                file.ui
            }),
            only_when,
            options,
            keep_when,
            required_when,
            refresh_on: file.refresh_on,
            initial,
            extras,
            checks,
            derive,
            modals: Arc::new(if file.modals.is_null() {
                json!({})
            } else {
                file.modals
            }),
        }),
        _ => Err(problems),
    }
}

fn load_flow(
    rhai: &rhai::Engine,
    s: &Source,
    forms: &BTreeMap<String, Form>,
) -> Result<LoadedFlow, Vec<Diagnostic>> {
    let file: model::FlowFile = yaml::parse(&s.path, &s.text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    for st in file.steps {
        let line = yaml::line_of(&st.id);
        let id = st.id.value.clone();
        if steps.iter().any(|x| x.info.id == id) {
            problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}` is listed twice"),
            ));
        }
        if let Some(problem) = route_problem(&st.route, &steps) {
            problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}`: {problem}"),
            ));
        }
        if steps.last().is_some_and(|x| x.info.number >= st.number) {
            problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}` must have a higher number than the step before it"),
            ));
        }
        match (&st.form, &st.page) {
            (Some(f), None) if !forms.contains_key(&f.value) => problems.push(Diagnostic::new(
                &s.path,
                yaml::line_of(f),
                1,
                format!(
                    "step `{id}` uses form `{}`, but there is no forms/{}.form.yaml",
                    f.value, f.value
                ),
            )),
            (Some(_), Some(_)) | (None, None) => problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}` needs exactly one of `form` and `page`"),
            )),
            _ => {}
        }
        let skip_when = st
            .skip_when
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let next = st
            .next
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let previous = st
            .previous
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let select = st
            .select
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let extras = extras(rhai, &s.path, st.extras.as_ref(), &mut problems);
        let reopen = st
            .reopen
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let listed_when = st
            .listed_when
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        steps.push(Step {
            nav: st.nav.unwrap_or_else(|| st.title.clone()),
            section: st.section,
            listed_when,
            select,
            extras,
            info: StepInfo {
                id,
                number: st.number,
                route: st.route,
                title: st.title,
            },
            form: st.form.map(|f| f.value),
            page: st.page,
            params: st.params.unwrap_or(Value::Null),
            skip_when,
            next,
            previous,
            reopen,
            always_valid: st.always_valid,
        });
    }
    if !steps.iter().any(|x| x.info.id == file.submitted_step.value) {
        problems.push(Diagnostic::new(
            &s.path,
            yaml::line_of(&file.submitted_step),
            1,
            format!(
                "submitted_step `{}` is not a step",
                file.submitted_step.value
            ),
        ));
    }
    let household = file
        .household
        .as_ref()
        .and_then(|e| expr(rhai, &s.path, e, &mut problems));
    if let Some(u) = &file.upload_step
        && !steps.iter().any(|x| x.info.id == u.value)
    {
        problems.push(Diagnostic::new(
            &s.path,
            yaml::line_of(u),
            1,
            format!("upload_step `{}` is not a step", u.value),
        ));
    }
    let save_for_later_from = match &file.save_for_later_from {
        Some(from) => match steps.iter().find(|x| x.info.id == from.value) {
            Some(step) => Some(step.info.number),
            None => {
                problems.push(Diagnostic::new(
                    &s.path,
                    yaml::line_of(from),
                    1,
                    format!("save_for_later_from `{}` is not a step", from.value),
                ));
                None
            }
        },
        None => None,
    };
    let summary = load_summary(rhai, &s.path, &file.summary, &mut problems);
    if problems.is_empty() {
        Ok(LoadedFlow {
            steps,
            submitted_step: file.submitted_step.value,
            household,
            upload_step: file.upload_step.map(|u| u.value),
            save_for_later_from,
            summary,
        })
    } else {
        Err(problems)
    }
}

/// The web app's own pages: a step may not take their address.
const RESERVED_ROUTES: &[&str] = &[
    "login",
    "register",
    "reset-password",
    "resume",
    "dashboard",
    "manageMessages",
    "admin",
    "playground",
    "404",
    "api",
    "assets",
];

/// What is wrong with a step's route: one path segment (`/payment`) of letters, digits, `-` and
/// `_`, starting with a letter, used by no other step and by no page of the app.
fn route_problem(route: &str, earlier: &[Step]) -> Option<String> {
    let Some(name) = route.strip_prefix('/') else {
        return Some(format!("route `{route}` must start with `/`"));
    };
    let well_formed = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !well_formed {
        return Some(format!(
            "route `{route}` must be `/` and one word of letters, digits, `-` or `_`"
        ));
    }
    if RESERVED_ROUTES.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        return Some(format!("route `{route}` is a page of the app"));
    }
    if earlier
        .iter()
        .any(|x| x.info.route.eq_ignore_ascii_case(route))
    {
        return Some(format!("route `{route}` is another step's"));
    }
    None
}

struct LoadedFlow {
    steps: Vec<Step>,
    submitted_step: String,
    household: Option<Expr>,
    upload_step: Option<String>,
    save_for_later_from: Option<u8>,
    summary: Vec<(&'static str, summary::Kind, Expr)>,
}

/// The flow's `summary:`: every name of [`summary::NAMES`] with its compiled expression, in that
/// order; none at all is allowed (a flow without a server, as in the engine's own tests).
fn load_summary(
    rhai: &rhai::Engine,
    path: &str,
    given: &BTreeMap<String, serde_saphyr::Spanned<String>>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<(&'static str, summary::Kind, Expr)> {
    if given.is_empty() {
        return Vec::new();
    }
    for (name, e) in given {
        if !summary::NAMES.iter().any(|(n, _)| n == name) {
            problems.push(Diagnostic::new(
                path,
                yaml::line_of(e),
                1,
                format!(
                    "summary `{name}` is not a name the server reads (it reads {})",
                    summary::NAMES.map(|(n, _)| n).join(", ")
                ),
            ));
        }
    }
    let mut out = Vec::new();
    for (name, kind) in summary::NAMES {
        match given.get(name) {
            Some(e) => {
                if let Some(x) = expr(rhai, path, e, problems) {
                    out.push((name, kind, x));
                }
            }
            None => problems.push(Diagnostic::file(
                path,
                format!("summary has no `{name}` (the server reads it)"),
            )),
        }
    }
    out
}
