//! What every quote starts from: the household (refused before About You is complete), the
//! carriers the site's agent offers, and the quoted plans of a kind (the selected one first).

use enrollflow_engine::EvalError;
use enrollflow_engine::catalog::{Plan, PlanKind};
use enrollflow_engine::rating::{self, Household, Rates};
use enrollflow_engine::yearly_cost::MemberCare;

use super::open::OpenStep;
use crate::rules::quoting::selected_id;

/// Why there is nothing to quote.
#[derive(Debug, thiserror::Error)]
pub enum QuoteError {
    /// About You is not complete: there is no household yet.
    #[error("Please complete About You first.")]
    AboutYouFirst,
    #[error(transparent)]
    Rules(EvalError),
}

/// The household of the application, once About You is complete.
pub fn household(s: &OpenStep) -> Result<Household, QuoteError> {
    s.bundle
        .engine
        .household(&s.data, &s.ctx)
        .map_err(QuoteError::Rules)?
        .ok_or(QuoteError::AboutYouFirst)
}

/// The household of the application and each member's sex and expected use of care (for the
/// yearly estimates), once About You is complete.
pub fn household_and_care(s: &OpenStep) -> Result<(Household, Vec<MemberCare>), QuoteError> {
    s.bundle
        .engine
        .household_and_care(&s.data, &s.ctx)
        .map_err(QuoteError::Rules)?
        .ok_or(QuoteError::AboutYouFirst)
}

/// The quoted plans of a kind for the application, cheapest first, the selected plan first.
pub fn quoted<'a>(
    s: &'a OpenStep,
    kind: PlanKind,
    h: &Household,
) -> Result<Vec<(&'a Plan, Rates)>, QuoteError> {
    let cat = s.bundle.engine.catalog();
    let carriers = cat.offered_carriers(&s.agent.offers);
    let mut list = match rating::quote(cat, kind, h, &carriers) {
        Ok(q) => q,
        Err(rating::QuoteError::NoSubscriber) => return Err(QuoteError::AboutYouFirst),
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
