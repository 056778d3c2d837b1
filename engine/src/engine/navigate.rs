//! Moving between steps: a step by id, skipped steps passed by, Previous and the next step, the
//! steps an application may open or reopen, and the wizard's shape for an application.

use serde_json::Value;

use super::truthy;
use crate::script::Expr;
use crate::{Context, Diagnostic, Engine, EvalError, FlowStep, FlowView, Step, StepInfo, Vars};

impl Engine {
    pub(crate) fn step(&self, id: &str) -> Result<&Step, EvalError> {
        self.steps
            .iter()
            .find(|s| s.info.id == id)
            .ok_or_else(|| EvalError::UnknownStep(id.into()))
    }

    pub(crate) fn is_skipped(&self, step: &Step, v: &Vars) -> Result<bool, EvalError> {
        match &step.skip_when {
            Some(e) => {
                let r = self.eval(e, v, None)?;
                Ok(truthy(&r))
            }
            None => Ok(false),
        }
    }

    /// The nearest step in `dir` (+1 or -1) from `index` that is not skipped.
    pub(crate) fn neighbour(
        &self,
        index: usize,
        forward: bool,
        v: &Vars,
    ) -> Result<Option<&Step>, EvalError> {
        let mut i = index;
        loop {
            i = match (forward, i) {
                (true, i) if i + 1 < self.steps.len() => i + 1,
                (false, i) if i > 0 => i - 1,
                _ => return Ok(None),
            };
            if !self.is_skipped(&self.steps[i], v)? {
                return Ok(Some(&self.steps[i]));
            }
        }
    }

    pub(crate) fn index_of(&self, id: &str) -> Result<usize, EvalError> {
        self.steps
            .iter()
            .position(|s| s.info.id == id)
            .ok_or_else(|| EvalError::UnknownStep(id.into()))
    }

    pub(crate) fn named_step(&self, value: &Value, e: &Expr) -> Result<&Step, EvalError> {
        let id = value.as_str().unwrap_or_default();
        self.step(id).map_err(|_| {
            EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` named `{value}`, which is not a step", e.source),
            ))
        })
    }

    /// The step Previous goes to.
    pub fn previous(
        &self,
        id: &str,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<StepInfo>, EvalError> {
        let v = self.vars(app, ctx);
        self.previous_with(id, &v)
    }

    pub(super) fn previous_with(&self, id: &str, v: &Vars) -> Result<Option<StepInfo>, EvalError> {
        let step = self.step(id)?;
        if let Some(e) = &step.previous {
            let r = self.eval(e, v, None)?;
            if r.is_null() {
                return Ok(None);
            }
            let named = self.named_step(&r, e)?;
            if self.is_skipped(named, v)? {
                let i = self.index_of(&named.info.id)?;
                return Ok(self.neighbour(i, false, v)?.map(|s| s.info.clone()));
            }
            return Ok(Some(named.info.clone()));
        }
        Ok(self
            .neighbour(self.index_of(id)?, false, v)?
            .map(|s| s.info.clone()))
    }

    /// Whether the application may open a step (spec part 1, 2.2): the step exists, applies, has
    /// been reached, and a submitted application may open only the submitted step.
    pub fn valid_step(&self, id: &str, app: &Value, ctx: &Context) -> Result<bool, EvalError> {
        let Ok(step) = self.step(id) else {
            return Ok(false);
        };
        self.valid_with(step, app, || self.vars(app, ctx))
    }

    fn valid_with<V: std::borrow::Borrow<Vars>>(
        &self,
        step: &Step,
        app: &Value,
        vars: impl FnOnce() -> V,
    ) -> Result<bool, EvalError> {
        if app.get("submitted").is_some_and(truthy) {
            return Ok(step.info.id == self.submitted_step);
        }
        if step.always_valid {
            return Ok(true);
        }
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        if u64::from(step.info.number) > last {
            return Ok(false);
        }
        // The application is converted for the rules only when a rule is asked: most steps have
        // no skip rule, and a step is checked at every save.
        if step.skip_when.is_none() {
            return Ok(true);
        }
        Ok(!self.is_skipped(step, vars().borrow())?)
    }

    /// Opening a skipped step again (its `reopen` rule): the application flags to save, or None
    /// when the step cannot be reopened (it is not skipped, has no `reopen` rule, lies past the
    /// last step reached, or the application is submitted). The flags must make the step apply.
    pub fn reopen(&self, id: &str, app: &Value, ctx: &Context) -> Result<Option<Value>, EvalError> {
        let Ok(step) = self.step(id) else {
            return Ok(None);
        };
        let Some(e) = &step.reopen else {
            return Ok(None);
        };
        if app.get("submitted").is_some_and(truthy) {
            return Ok(None);
        }
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        let v = self.vars(app, ctx);
        if u64::from(step.info.number) > last || !self.is_skipped(step, &v)? {
            return Ok(None);
        }
        let flags = self.eval(e, &v, None)?;
        let Value::Object(map) = &flags else {
            return Err(EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` must give a map of application flags", e.source),
            )));
        };
        let mut reopened = app.clone();
        if let Value::Object(a) = &mut reopened {
            for (k, x) in map {
                a.insert(k.clone(), x.clone());
            }
        }
        if self.is_skipped(step, &self.vars(&reopened, ctx))? {
            return Err(EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` leaves step `{id}` skipped", e.source),
            )));
        }
        Ok(Some(flags))
    }

    /// The wizard's shape for an application (`{}` before it exists): each step's route, labels,
    /// whether it is listed, skipped and reached, and where Previous goes. The browser builds its
    /// routes, progress list and guards from it; `valid_step` stays the server's word.
    pub fn flow_view(&self, app: &Value, ctx: &Context) -> Result<FlowView, EvalError> {
        let v = self.vars(app, ctx);
        let submitted = app.get("submitted").is_some_and(truthy);
        let last = app
            .get("last_step")
            .and_then(Value::as_u64)
            .map_or(1, |n| u8::try_from(n).unwrap_or(u8::MAX))
            .max(1);
        let mut steps = Vec::with_capacity(self.steps.len());
        for s in &self.steps {
            let listed = match &s.listed_when {
                Some(e) => truthy(&self.eval(e, &v, None)?),
                None => true,
            };
            steps.push(FlowStep {
                valid: self.valid_with(s, app, || &v)?,
                id: s.info.id.clone(),
                number: s.info.number,
                route: s.info.route.clone(),
                title: s.info.title.clone(),
                nav: s.nav.clone(),
                section: s.section.clone(),
                kind: s.page.clone().unwrap_or_else(|| "form".into()),
                params: s.params.clone(),
                always_valid: s.always_valid,
                listed,
                skipped: self.is_skipped(s, &v)?,
                reached: s.always_valid || s.info.number <= last,
                previous: self.previous_with(&s.info.id, &v)?.map(|p| p.id),
            });
        }
        Ok(FlowView {
            steps,
            submitted_step: self.submitted_step.clone(),
            submitted,
            last_step: last,
            save_for_later_from: self.save_for_later_from,
        })
    }

    /// The lowest and highest step numbers (the range of an application's last step).
    pub fn step_numbers(&self) -> (u8, u8) {
        let n = |s: Option<&Step>| s.map_or(1, |s| s.info.number);
        (n(self.steps.first()), n(self.steps.last()))
    }

    /// Where the application goes after a hand-built page step saved its part (a plan selection):
    /// the step's `next` rule or the next step not skipped, over the updated application.
    pub fn next_after(&self, id: &str, app: &Value, ctx: &Context) -> Result<StepInfo, EvalError> {
        let step = self.step(id)?;
        let v = self.vars(app, ctx);
        let target = match &step.next {
            Some(e) => {
                let r = self.eval(e, &v, None)?;
                let named = self.named_step(&r, e)?;
                if self.is_skipped(named, &v)? {
                    let i = self.index_of(&named.info.id)?;
                    self.neighbour(i, true, &v)?.unwrap_or(named)
                } else {
                    named
                }
            }
            None => self
                .neighbour(self.index_of(id)?, true, &v)?
                .unwrap_or(step),
        };
        if let Some(p) = &self.probe {
            p.transition(id, &target.info.id, None);
        }
        Ok(target.info.clone())
    }
}
