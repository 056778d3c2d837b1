//! The plan pages and the hand-built pages: the plans quoted for the flow's household, where a
//! plan renews for it, a plan page's selection through its `select` rule, and going on from a
//! page that saves nothing.

use rhai::Dynamic;
use serde_json::{Value, json};

use super::truthy;
use crate::{
    Context, Diagnostic, Engine, EvalError, QuoteFailure, Selection, StepInfo, catalog, dates,
    rating, script, yearly_cost,
};

impl Engine {
    /// The plans of a kind quoted for the application now, cheapest first: the flow's household,
    /// the carriers the agent offers (what the plan pages list before a chosen plan is put first).
    pub fn quote(
        &self,
        kind: catalog::PlanKind,
        app: &Value,
        ctx: &Context,
    ) -> Result<Vec<(&catalog::Plan, rating::Rates)>, QuoteFailure> {
        let h = self.household(app, ctx)?.ok_or(QuoteFailure::NoHousehold)?;
        let carriers = self.catalog.offered_carriers(&ctx.agent.offers);
        let plans = rating::quote(&self.catalog, kind, &h, &carriers)?;
        if let Some(p) = &self.probe {
            for (plan, _) in &plans {
                p.quoted(plan.plan_year, plan.carrier, plan.kind);
            }
        }
        Ok(plans)
    }

    /// Where the plan `plan_id` renews next plan year for the application's household (its
    /// county): the crosswalk's mapping; None when the plan is not in the catalog or the next
    /// year has no crosswalk.
    pub fn renewal(
        &self,
        plan_id: i64,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<&catalog::Renewal>, QuoteFailure> {
        let h = self.household(app, ctx)?.ok_or(QuoteFailure::NoHousehold)?;
        let Some(plan) = self.catalog.plan(plan_id) else {
            return Ok(None);
        };
        let renewal = self.catalog.renewal_of(plan, h.county);
        if let (Some(p), Some(r)) = (&self.probe, renewal) {
            p.renewed(plan.plan_year + 1, r.line);
        }
        Ok(renewal)
    }

    /// The household to quote, from the flow's `household` rule; None until it is known.
    pub fn household(
        &self,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<rating::Household>, EvalError> {
        Ok(self.household_and_care(app, ctx)?.map(|(h, _)| h))
    }

    /// The household to quote and each member's sex and expected use of care (the rule's
    /// `sex`, `F` or `M`, and `care_use`, `low`, `medium` or `high`; medium when not given),
    /// for the yearly estimates.
    pub fn household_and_care(
        &self,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<(rating::Household, Vec<yearly_cost::MemberCare>)>, EvalError> {
        let Some(e) = &self.household else {
            return Ok(None);
        };
        let v = self.vars(app, ctx);
        let r = self.eval(e, &v, None)?;
        if r.is_null() {
            return Ok(None);
        }
        let bad = |m: &str| {
            EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` {m}", e.source),
            ))
        };
        let date_of = |v: &Value| v.as_str().and_then(dates::parse);
        let county = r
            .get("county")
            .and_then(Value::as_u64)
            .and_then(|c| u16::try_from(c).ok());
        let effective = r.get("effective_date").and_then(date_of);
        let (Some(county), Some(effective_date)) = (county, effective) else {
            return Err(bad("must give a county id and an effective_date"));
        };
        let mut members = Vec::new();
        let mut care = Vec::new();
        for m in r
            .get("members")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let role = match m.get("role").and_then(Value::as_str) {
                Some("subscriber") => rating::Role::Subscriber,
                Some("spouse") => rating::Role::Spouse,
                Some("dependent") => rating::Role::Dependent,
                _ => {
                    return Err(bad(
                        "gave a member whose role is not subscriber, spouse or dependent",
                    ));
                }
            };
            let Some(birth_date) = m.get("birth_date").and_then(date_of) else {
                return Err(bad("gave a member without a birth_date"));
            };
            let tobacco = m.get("tobacco").is_some_and(truthy);
            members.push(rating::Member {
                role,
                birth_date,
                tobacco,
            });
            let care_use = match m.get("care_use") {
                None | Some(Value::Null) => yearly_cost::CareUse::default(),
                Some(v) => v
                    .as_str()
                    .and_then(yearly_cost::CareUse::parse)
                    .ok_or_else(|| bad("gave a care_use that is not low, medium or high"))?,
            };
            care.push(yearly_cost::MemberCare {
                sex: m
                    .get("sex")
                    .and_then(Value::as_str)
                    .and_then(yearly_cost::Sex::parse),
                care_use,
            });
        }
        Ok(Some((
            rating::Household {
                members,
                county,
                effective_date,
            },
            care,
        )))
    }

    /// A medical plan's estimated yearly cost for the household at its quoted premium, each
    /// member at their expected use; None for a plan without cost sharing, a rule set without
    /// the expected use, or a member whose sex is not known.
    pub fn yearly_cost(
        &self,
        plan: &catalog::Plan,
        rates: &rating::Rates,
        care: &[yearly_cost::MemberCare],
    ) -> Option<yearly_cost::YearlyCost> {
        self.yearly_cost_with(plan, rates, care, &[])
    }

    /// The estimate with the household's known prescriptions, by the plan's formulary tier of
    /// each (`rules/yearly_cost/drug_tiers.yaml` prices them).
    pub fn yearly_cost_with(
        &self,
        plan: &catalog::Plan,
        rates: &rating::Rates,
        care: &[yearly_cost::MemberCare],
        drug_tiers: &[&str],
    ) -> Option<yearly_cost::YearlyCost> {
        let cs = self.catalog.cost_sharing.get(&plan.id)?;
        if rates.members.len() != care.len() {
            return None;
        }
        let people = rates
            .members
            .iter()
            .zip(care)
            .map(|(r, c)| {
                Some(yearly_cost::Person {
                    age: r.age,
                    sex: c.sex?,
                    care_use: c.care_use,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let amounts = plan.amounts();
        let fills = self.drug_tiers.fills_a_year;
        let prescriptions: Vec<(yearly_cost::Service, f64)> = drug_tiers
            .iter()
            .filter_map(|t| self.drug_tiers.service(t))
            .map(|s| (s, fills))
            .collect();
        yearly_cost::estimate_with(
            &self.utilization,
            &amounts,
            cs,
            rates.total,
            &people,
            &prescriptions,
        )
    }

    /// The page step that shows plans of a type (its flow `params.plan_type`).
    /// The first step drawn by a hand-built page (`review`: Review Selections).
    pub fn page_step(&self, page: &str) -> Option<&StepInfo> {
        self.steps
            .iter()
            .find(|s| s.page.as_deref() == Some(page))
            .map(|s| &s.info)
    }

    pub fn plan_step(&self, plan_type: u8) -> Option<&StepInfo> {
        self.steps
            .iter()
            .find(|s| {
                s.params.get("plan_type").and_then(Value::as_u64) == Some(u64::from(plan_type))
            })
            .map(|s| &s.info)
    }

    /// Going on from a hand-built page that saves nothing (one without a `select` rule, such as
    /// Review Selections): where the application goes and the `last_step` it reaches. `None` for a
    /// form step or a page that saves through its `select` rule.
    pub fn continue_page(
        &self,
        id: &str,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<(StepInfo, u64)>, EvalError> {
        let step = self.step(id)?;
        if step.form.is_some() || step.select.is_some() {
            return Ok(None);
        }
        let next = self.next_after(id, app, ctx)?;
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        Ok(Some((next.clone(), last.max(u64::from(next.number)))))
    }

    /// A plan page's selection (or going on without a plan when `plan` is null): the flags its
    /// `select` rule sets, then where the application goes, or the rule's refusal.
    pub fn select(
        &self,
        id: &str,
        plan: &Value,
        input: &Value,
        app: &Value,
        ctx: &Context,
    ) -> Result<Selection, EvalError> {
        let step = self.step(id)?;
        let Some(e) = &step.select else {
            return Err(EvalError::NotAForm(id.into()));
        };
        let v = self.vars(app, ctx);
        let plan_d = script::to_dynamic(plan);
        let input_d = script::to_dynamic(input);
        let vars: Vec<(&str, &Dynamic)> = vec![
            ("app", &v.app),
            ("ctx", &v.ctx),
            ("data", &self.tables),
            ("plan", &plan_d),
            ("input", &input_d),
        ];
        let mut updates = match e.eval(&self.rhai, &vars).map_err(EvalError::Rule)? {
            Value::Object(m) => m,
            other => {
                return Err(EvalError::Rule(Diagnostic::new(
                    &e.file,
                    e.line,
                    1,
                    format!("`{}` must return a map of flags, not {other}", e.source),
                )));
            }
        };
        if let Some(message) = updates.get("error").and_then(Value::as_str) {
            return Ok(Selection::Refused(message.to_string()));
        }
        let mut next_app = app.as_object().cloned().unwrap_or_default();
        for (k, val) in &updates {
            next_app.insert(k.clone(), val.clone());
        }
        let next_app = Value::Object(next_app);
        let next = self.next_after(id, &next_app, ctx)?;
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        updates.insert("last_step".into(), json!(last.max(u64::from(next.number))));
        Ok(Selection::Done { updates, next })
    }
}
