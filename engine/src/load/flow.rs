//! Loading the flow file: its steps (ids, numbers, routes, a form or a page, their rules), the
//! submitted, upload and save-for-later steps, the household rule and the `summary:`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{LoadedFlow, expr, extras};
use crate::form::Form;
use crate::script::Expr;
use crate::{Diagnostic, Source, Step, StepInfo, model, summary, yaml};

pub(super) fn load_flow(
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
