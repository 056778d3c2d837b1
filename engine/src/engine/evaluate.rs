//! Evaluating the rule set's expressions for an application: the variables every rule sees, an
//! expression's answer (remembered where it cannot change), a view's extras and the summary.

use rhai::Dynamic;
use serde_json::Value;

use crate::script::Expr;
use crate::{Applying, Context, Engine, EvalError, Vars, form, script, summary};

impl Engine {
    /// What the server reads of the application (the flow's `summary:`); empty when the flow
    /// declares none.
    pub fn summary(&self, app: &Value) -> Result<summary::Summary, EvalError> {
        if self.summary.is_empty() {
            return Ok(summary::Summary::default());
        }
        let v = Vars {
            app: script::to_dynamic(app),
            ctx: Dynamic::UNIT,
            context: 0,
            seen: Default::default(),
        };
        let mut values = Vec::with_capacity(self.summary.len());
        for (name, kind, e) in &self.summary {
            values.push((e, *kind, *name, self.eval(e, &v, None)?));
        }
        summary::Summary::from_values(values)
    }

    pub(crate) fn vars(&self, app: &Value, ctx: &Context) -> Vars {
        let context = digest(ctx);
        Vars {
            app: script::to_dynamic(app),
            ctx: self.context(ctx, context),
            context,
            seen: Default::default(),
        }
    }

    /// `ctx` as rules see it: the context with `is_agent` and the carriers the agent's flags make
    /// quoted (`agent.carriers`). Made once per context (`context`, its digest).
    fn context(&self, ctx: &Context, context: u64) -> Dynamic {
        if let Some(d) = self.contexts.get(context) {
            return d;
        }
        let mut c = serde_json::to_value(ctx).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut c {
            m.insert(
                "is_agent".into(),
                Value::Bool(ctx.applying == Applying::Agent),
            );
            if let Some(Value::Object(agent)) = m.get_mut("agent") {
                let ids = self.catalog.offered_carriers(&ctx.agent.offers);
                agent.insert("carriers".into(), Value::from(ids));
            }
        }
        let d = script::to_lasting_dynamic(&c);
        self.contexts.keep(context, &d);
        d
    }

    pub(crate) fn eval(
        &self,
        e: &Expr,
        v: &Vars,
        input: Option<&Dynamic>,
    ) -> Result<Value, EvalError> {
        let mut vars: Vec<(&str, &Dynamic)> =
            vec![("app", &v.app), ("ctx", &v.ctx), ("data", &self.tables)];
        if let Some(i) = input {
            vars.push(("input", i));
        }
        if self.probe.is_some() {
            // Coverage counts what runs: nothing is remembered.
            return e.eval(&self.rhai, &vars).map_err(EvalError::Rule);
        }
        if e.uses.input {
            // The answers change from call to call: nothing to remember.
            return e.eval(&self.rhai, &vars).map_err(EvalError::Rule);
        }
        if !e.uses.app {
            // Remembered for the rule set or the context by the expression itself.
            return e
                .eval_remembered(&self.rhai, &vars, v.context)
                .map_err(EvalError::Rule);
        }
        // It reads the application: the same text has the same answer for the rest of this call.
        if let Some(known) = v.seen.borrow().get(&e.text_id) {
            return Ok(known.clone());
        }
        let value = e.eval(&self.rhai, &vars).map_err(EvalError::Rule)?;
        v.seen.borrow_mut().insert(e.text_id, value.clone());
        Ok(value)
    }

    /// A view's extras: the whole map, or the map of each key's answer.
    pub(super) fn extras(
        &self,
        x: &form::Extras,
        v: &Vars,
        input: Option<&Dynamic>,
    ) -> Result<Value, EvalError> {
        match x {
            form::Extras::Whole(e) => self.eval(e, v, input),
            form::Extras::Each(each) => each
                .iter()
                .map(|(key, e)| Ok((key.clone(), self.eval(e, v, input)?)))
                .collect::<Result<serde_json::Map<_, _>, _>>()
                .map(Value::Object),
        }
    }
}

/// A digest of a JSON value (its text: `serde_json` writes an object's keys in one order).
fn digest(ctx: &Context) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    ctx.hash(&mut h);
    h.finish()
}

/// Rhai/JSON truthiness for conditions: booleans, non-zero numbers.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        _ => false,
    }
}
