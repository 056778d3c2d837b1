//! A step's submission: the answers cleaned (read-only facts from the rules, unknown fields
//! dropped), validated (schema, required-when, options, the form's checks), the flags the form
//! derives, and the transition (the next step or a dialog, and the last step reached).
//!
//! In order: `clean` (read-only facts, unknown fields dropped, `keep_when`), `validate` (the
//! schema, `required_when`, options, the form's checks), `derive`, then `transition` (the `next`
//! rule or a dialog; a skipped target is passed by).

use std::sync::Arc;

use rhai::Dynamic;
use serde_json::{Map, Value, json};

use crate::engine::truthy;
use crate::form::{self, FieldPath, Form};
use crate::{
    Context, Diagnostic, Engine, Errors, EvalError, Step, Submission, Transition, Vars, script,
};

/// A submission's answers as they may be stored ([`Engine::clean`]).
struct Cleaned {
    answers: Value,
    /// The answers as the rules' `input`.
    input: Dynamic,
    /// The form's schema as resolved for this application and these answers.
    schema: Arc<Value>,
    /// The choices the resolved schema dropped.
    dropped: Vec<FieldPath>,
}

impl Engine {
    /// Validates a step's answers and works out where the application goes next.
    pub fn submit(
        &self,
        id: &str,
        input: &Value,
        app: &Value,
        ctx: &Context,
    ) -> Result<Submission, EvalError> {
        let step = self.step(id)?;
        let form = step
            .form
            .as_ref()
            .and_then(|f| self.forms.get(f))
            .ok_or_else(|| EvalError::NotAForm(id.into()))?;
        let v = self.vars(app, ctx);
        let Cleaned {
            answers,
            input,
            schema,
            dropped,
        } = self.clean(form, input, &v)?;
        let errors = self.validate(form, &schema, &answers, &dropped, &v, &input)?;
        if !errors.is_empty() {
            return Ok(Submission::Invalid { errors });
        }
        let mut updates = self.derive(form, &v, &input)?;
        let (target, modal) = self.transition(step, &v, &updates, &input)?;
        if let Some(p) = &self.probe {
            p.transition(&step.info.id, &target.info.id, modal.as_deref());
        }
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        let reached = u64::from(target.info.number)
            .max(last)
            .max(u64::from(step.info.number));
        updates.insert("last_step".into(), json!(reached));
        Ok(Submission::Accepted(Transition {
            answers,
            updates,
            next: target.info.clone(),
            modal,
        }))
    }

    /// The answers as they may be stored: normalized, read-only fields from the rules' initial
    /// data, fields the resolved schema does not have dropped, and `keep_when` applied. Also the
    /// resolved schema and the choices it dropped.
    fn clean(&self, form: &Form, input: &Value, v: &Vars) -> Result<Cleaned, EvalError> {
        let mut answers = form::normalize(input).unwrap_or_else(|| json!({}));
        // Read-only fields come from the rules' initial data, never from the browser; the initial
        // data's lists (the people) also fix how many items there are.
        form::strip_read_only(&mut answers, &form.schema);
        if let Some(e) = &form.initial {
            let facts = form::read_only_part(&self.eval(e, v, None)?, &form.schema);
            answers = form::overlay(facts, answers);
        }
        let raw_input = script::to_dynamic(&answers);
        let (schema, dropped) = self.resolve(form, v, &raw_input)?;
        // The answers are cleaned in place (a copy of a household's answers is a good part of a
        // save), noting whether anything was taken out.
        let mut removed = form::prune(&mut answers, &schema);
        for (path, e) in &form.keep_when {
            if !truthy(&self.eval(e, v, Some(&raw_input))?) {
                removed |= form::remove_answer(&mut answers, path);
            }
        }
        // The rules' `input` from here on: most submissions keep every answer, and then the
        // conversion made for the conditions is the one (converting is a good part of a save).
        let input = if removed {
            script::to_dynamic(&answers)
        } else {
            raw_input
        };
        Ok(Cleaned {
            answers,
            input,
            schema,
            dropped,
        })
    }

    /// Every error of the answers, keyed by the spec's field keys.
    fn validate(
        &self,
        form: &Form,
        schema: &Value,
        answers: &Value,
        dropped: &[FieldPath],
        v: &Vars,
        input: &Dynamic,
    ) -> Result<Errors, EvalError> {
        let mut errors = form::schema_errors(form, schema, answers, dropped);
        for (path, _) in &form.required_when {
            let marked = form::schema_at(schema, path.split_last().map_or(&[][..], |(_, p)| p))
                .and_then(|s| s.get("required"))
                .and_then(Value::as_array)
                .is_some_and(|r| {
                    r.iter()
                        .any(|x| x.as_str() == path.last().map(String::as_str))
                });
            let empty = match answers_at(answers, path) {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                Some(_) => false,
            };
            if marked
                && empty
                && let Some((last, parent)) = path.split_last()
            {
                errors
                    .entry(form::error_key(schema, answers, parent, Some(last)))
                    .or_default()
                    .push(form::required_message(schema, path));
            }
        }
        for (path, _) in &form.options {
            if let Some(field) = answers_at(answers, path) {
                let choices = form::schema_at(schema, path)
                    .and_then(|s| s.get("oneOf"))
                    .and_then(Value::as_array);
                if let Some(choices) = choices
                    && !choices.iter().any(|c| c.get("const") == Some(field))
                {
                    let title = form::schema_at(schema, path)
                        .and_then(|s| s.get("title"))
                        .and_then(Value::as_str)
                        .unwrap_or("choice");
                    errors
                        .entry(form::error_key(schema, answers, path, None))
                        .or_default()
                        .push(format!("The selected {title} is invalid."));
                }
            }
        }
        if let Some(e) = &form.checks {
            if errors.is_empty() {
                let r = self.eval(e, v, Some(input))?;
                form::merge_checks(&mut errors, &r).map_err(|m| {
                    EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!("`{}` {m}", e.source),
                    ))
                })?;
            } else if let Ok(r) = self.eval(e, v, Some(input)) {
                // With schema errors the cross-field rules see imperfect answers: their findings
                // are added where the schema found nothing, and a rule that trips is ignored.
                let mut more = Errors::new();
                if form::merge_checks(&mut more, &r).is_ok() {
                    for (k, msgs) in more {
                        errors.entry(k).or_insert(msgs);
                    }
                }
            }
        }
        Ok(errors)
    }

    /// The flags the form derives from valid answers (`derive`: a map, or nothing).
    fn derive(
        &self,
        form: &Form,
        v: &Vars,
        input: &Dynamic,
    ) -> Result<Map<String, Value>, EvalError> {
        let mut updates = Map::new();
        if let Some(e) = &form.derive {
            match self.eval(e, v, Some(input))? {
                Value::Object(m) => updates = m,
                Value::Null => {}
                other => {
                    return Err(EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!("`{}` must return a map of flags, not {other}", e.source),
                    )));
                }
            }
        }
        Ok(updates)
    }

    /// Where the accepted answers lead, judged on the application as it will be: the step's
    /// `next` rule (a step, or a dialog to ask first), or the next step not skipped.
    fn transition<'s>(
        &'s self,
        step: &'s Step,
        v: &Vars,
        updates: &Map<String, Value>,
        input: &Dynamic,
    ) -> Result<(&'s Step, Option<String>), EvalError> {
        // The application as it will be: the answers (already converted for the rules, `input`)
        // and the derived flags laid over the one the rules have, sharing the rest of it.
        let nv = Vars {
            app: script::with_fields(
                &v.app,
                std::iter::once((step.info.id.as_str(), input.clone())).chain(
                    updates
                        .iter()
                        .map(|(k, val)| (k.as_str(), script::to_dynamic(val))),
                ),
            ),
            ctx: v.ctx.clone(),
            context: v.context,
            seen: Default::default(),
        };

        let index = self.index_of(&step.info.id)?;
        Ok(match &step.next {
            Some(e) => {
                let r = self.eval(e, &nv, Some(input))?;
                match &r {
                    Value::Object(m) if m.contains_key("modal") => (
                        step,
                        m.get("modal").and_then(Value::as_str).map(str::to_string),
                    ),
                    _ => {
                        let named = self.named_step(&r, e)?;
                        if self.is_skipped(named, &nv)? {
                            let i = self.index_of(&named.info.id)?;
                            (self.neighbour(i, true, &nv)?.unwrap_or(named), None)
                        } else {
                            (named, None)
                        }
                    }
                }
            }
            None => (self.neighbour(index, true, &nv)?.unwrap_or(step), None),
        })
    }
}

fn answers_at<'a>(answers: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut v = answers;
    for seg in path {
        if seg == "*" {
            return None;
        }
        v = v.get(seg)?;
    }
    Some(v)
}
