//! What every quote starts from: the household (refused before About You is complete), the
//! carriers the site's agent offers, and the quoted plans of a kind (the selected one first).

use enrollflow_engine::catalog::{Plan, PlanKind};
use enrollflow_engine::rating::{self, Household, Rates};

use super::open::{OpenStep, eval_error};
use crate::platform::error::{ApiError, ApiResult};
use crate::rules::quoting::selected_id;

/// The household of the application, or 409 when About You is not complete.
pub fn household(s: &OpenStep) -> ApiResult<Household> {
    s.bundle
        .engine
        .household(&s.data, &s.ctx)
        .map_err(eval_error)?
        .ok_or_else(|| ApiError::Conflict("Please complete About You first.".into()))
}

/// The quoted plans of a kind for the application, cheapest first, the selected plan first.
pub fn quoted<'a>(
    s: &'a OpenStep,
    kind: PlanKind,
    h: &Household,
) -> ApiResult<Vec<(&'a Plan, Rates)>> {
    let cat = s.bundle.engine.catalog();
    let carriers = cat.offered_carriers(&s.agent.offers);
    let mut list = match rating::quote(cat, kind, h, &carriers) {
        Ok(q) => q,
        Err(rating::QuoteError::NoSubscriber) => {
            return Err(ApiError::Conflict(
                "Please complete About You first.".into(),
            ));
        }
        Err(_) => Vec::new(),
    };
    if let Some(sel) = selected_id(&s.data, kind)
        && let Some(i) = list.iter().position(|(p, _)| p.id == sel)
    {
        let chosen = list.remove(i);
        list.insert(0, chosen);
    }
    Ok(list)
}
