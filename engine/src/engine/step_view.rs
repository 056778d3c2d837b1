//! A step's view for an application: its form's schema resolved for the context and the answers
//! (fields dropped or required, choices filled in), its data, extras and neighbours.

use std::sync::Arc;

use rhai::Dynamic;
use serde_json::{Value, json};

use super::truthy;
use crate::form::{self, FieldPath, Form};
use crate::{Context, Diagnostic, Engine, EvalError, StepView, Vars, script};

impl Engine {
    /// The view of a step for an application.
    pub fn step_view(&self, id: &str, app: &Value, ctx: &Context) -> Result<StepView, EvalError> {
        self.view_with(id, app, ctx, None)
    }

    /// The view of a step as it would be with these (unsaved) answers: choices and extras that
    /// depend on answers, recomputed while the user fills the form in.
    pub fn preview(
        &self,
        id: &str,
        input: &Value,
        app: &Value,
        ctx: &Context,
    ) -> Result<StepView, EvalError> {
        let answers = form::normalize(input).unwrap_or_else(|| json!({}));
        self.view_with(id, app, ctx, Some(answers))
    }

    fn view_with(
        &self,
        id: &str,
        app: &Value,
        ctx: &Context,
        draft: Option<Value>,
    ) -> Result<StepView, EvalError> {
        let step = self.step(id)?;
        let v = self.vars(app, ctx);
        let index = self.index_of(id)?;
        let skipped = self.is_skipped(step, &v)?;
        let previous = self.previous_with(id, &v)?;
        let next = self.neighbour(index, true, &v)?.map(|s| s.info.clone());
        let form = step.form.as_ref().and_then(|f| self.forms.get(f));
        let mut view = StepView {
            step: step.info.clone(),
            kind: step.page.clone().unwrap_or_else(|| "form".into()),
            params: step.params.clone(),
            skipped,
            previous,
            next,
            schema: Arc::new(Value::Null),
            ui: Arc::new(json!({})),
            // A form's data is its pruned answers (below).
            data: match form {
                Some(_) => Value::Null,
                None => app.get(id).cloned().unwrap_or(Value::Null),
            },
            extras: json!({}),
            modals: Arc::new(json!({})),
            refresh_on: Vec::new(),
        };
        let Some(form) = form else {
            if let Some(e) = &step.extras {
                view.extras = self.extras(e, &v, None)?;
            }
            return Ok(view);
        };
        // The initial data (the people and facts of the application, as they are now) under the
        // saved answers or the draft being previewed.
        let saved = match &draft {
            Some(d) => Some(d),
            None => app.get(id).filter(|d| !d.is_null()),
        };
        let initial = match &form.initial {
            Some(e) => Some(self.eval(e, &v, None)?),
            None => None,
        };
        let mut data = match (saved, initial) {
            (Some(d), Some(i)) => form::overlay(i, d.clone()),
            (Some(d), None) => d.clone(),
            (None, Some(i)) => i,
            (None, None) => json!({}),
        };
        // The answers as the rules' `input`, converted only when an expression reads them.
        let input = if form.reads_input() {
            script::to_dynamic(&data)
        } else {
            Dynamic::UNIT
        };
        let (schema, _) = self.resolve(form, &v, &input)?;
        form::prune(&mut data, &schema);
        view.data = data;
        view.schema = schema;
        view.ui = Arc::clone(&form.ui);
        view.modals = Arc::clone(&form.modals);
        view.refresh_on = form.refresh_on.clone();
        if let Some(title) = &form.title {
            view.step.title = title.clone();
        }
        if let Some(e) = &form.extras {
            view.extras = self.extras(e, &v, Some(&input))?;
        }
        Ok(view)
    }

    /// The form's schema for this context: fields whose `only_when` is false dropped, dynamic
    /// choices filled in. Returns the schema and the dropped paths.
    pub(crate) fn resolve(
        &self,
        form: &Form,
        v: &Vars,
        input: &Dynamic,
    ) -> Result<(Arc<Value>, Vec<FieldPath>), EvalError> {
        // Copied on the first change: a form whose conditions and choices change nothing shares
        // the loaded schema.
        let mut schema = Arc::clone(&form.schema);
        let mut dropped = Vec::new();
        for (path, e) in &form.only_when {
            if !truthy(&self.eval(e, v, Some(input))?) {
                form::drop_field(Arc::make_mut(&mut schema), path);
                dropped.push(path.clone());
            }
        }
        for (path, e) in &form.required_when {
            if !dropped.contains(path) && truthy(&self.eval(e, v, Some(input))?) {
                form::mark_required(Arc::make_mut(&mut schema), path);
            }
        }
        for (path, e) in &form.options {
            if dropped.contains(path) {
                continue;
            }
            match self.eval(e, v, Some(input))? {
                Value::Array(choices) => {
                    form::set_choices(Arc::make_mut(&mut schema), path, &choices);
                }
                other => {
                    return Err(EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!(
                            "options for `{}` must be a list, not {other}",
                            form::path_string(path)
                        ),
                    )));
                }
            }
        }
        if let Some(p) = &self.probe {
            p.form_resolved(&form.name, &form.schema, &dropped);
        }
        Ok((schema, dropped))
    }
}
