import { useLingui } from '@lingui/react';
import { formatPremium } from '@/lib/money';
import type { PlanView, YearlyCost } from '../types';

export const YEARLY_HOW = /*i18n*/ {
  id: 'Estimated with the method HealthCare.gov uses: the care people of each member’s age and sex typically use at that level, priced through this plan’s deductible, copays, coinsurance and out-of-pocket maximum.',
};

/** How the plan list is ordered. */
export type PlanOrder = 'premium' | 'yearly';

/** The plans in `order`: the server's (monthly premium, the chosen plan first) or by the yearly estimate, lowest first. */
export function orderPlans(plans: readonly PlanView[], order: PlanOrder): readonly PlanView[] {
  if (order === 'premium') return plans;
  const total = (p: PlanView) => p.yearly_cost?.total ?? Number.POSITIVE_INFINITY;
  return [...plans].sort((a, b) => total(a) - total(b) || a.rates.total - b.rates.total);
}

/** A plan card's yearly estimate: the total beside the monthly premium, its parts one tap away. */
export function YearlyEstimate({ cost }: { cost: YearlyCost }) {
  const { i18n } = useLingui();
  return (
    <div className="ef-plan__yearly">
      <p className="ef-plan__yearly-total">
        <span className="ef-plan__yearly-amount">{formatPremium(cost.total)}</span>{' '}
        <span className="ef-plan__per">{i18n._('estimated for the year')}</span>
      </p>
      <details className="ef-plan__breakdown">
        <summary>{i18n._('What makes up the yearly estimate')}</summary>
        <table className="ds-c-table ds-c-table--compact ds-c-table--borderless ef-plan__members">
          <tbody>
            <tr>
              <th scope="row">{i18n._('Premiums for 12 months')}</th>
              <td>{formatPremium(cost.premium)}</td>
            </tr>
            <tr>
              <th scope="row">{i18n._('Paid toward the deductible')}</th>
              <td>{formatPremium(cost.deductible)}</td>
            </tr>
            <tr>
              <th scope="row">{i18n._('Copays and coinsurance')}</th>
              <td>{formatPremium(cost.cost_sharing)}</td>
            </tr>
            <tr>
              <th scope="row">{i18n._('Estimated total')}</th>
              <td>{formatPremium(cost.total)}</td>
            </tr>
            <tr>
              <th scope="row">{i18n._('Worst case: premiums and the out-of-pocket maximum')}</th>
              <td>{formatPremium(cost.worst_case)}</td>
            </tr>
          </tbody>
        </table>
        <p className="ef-plan__yearly-how">{i18n._(YEARLY_HOW)}</p>
      </details>
    </div>
  );
}
