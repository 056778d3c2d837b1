import { Fragment, lazy, memo, Suspense, useId, useState, type ChangeEvent, type ComponentType, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Button } from '@cmsgov/design-system';
import type { DrugHit, PlanCoverage, PlanView, ProviderHit } from '../types';
import { formatPremium } from '@/lib/money';
import { planDetails } from '../utils/plan-kinds';
import type { PlanCoverageSummaryProps } from './plan-coverage';
import { PlanName } from './plan-name';
import { YearlyEstimate } from './yearly-cost';

interface Props {
  plan: PlanView;
  householdSize: number;
  /** The application's chosen plan of this type. */
  selected: boolean;
  compared: boolean;
  compareDisabled: boolean;
  onCompareChange: (plan: PlanView, on: boolean) => void;
  /** The HSA choice of an HSA-eligible medical plan (null: not offered). */
  addHsa: boolean | null;
  onAddHsaChange: (plan: PlanView, on: boolean) => void;
  /** A save is under way (every button waits). */
  busy: boolean;
  /** This card's save is under way. */
  saving: boolean;
  /** Select, or Continue with the selected plan: both save the plan as the application's choice. */
  onChoose: (plan: PlanView) => void;
  /** Which of the household's doctors and drugs this (medical) plan covers (GET /api/plans/1/coverage). */
  coverage?: PlanCoverage;
  /** The household's doctors and drugs the coverage is shown for, with their names (stable lists: the card is memoized). */
  doctors?: readonly ProviderHit[];
  drugs?: readonly DrugHit[];
}

/**
 * "Your doctors and drugs" loads with the plans' coverage (`loadCoverageSummary`, which the page
 * calls beside GET /api/plans/1/coverage): a household that lists none never loads it. Should the
 * file fail to arrive, the cards go without it.
 */
export const loadCoverageSummary = () => import('./plan-coverage');
const PlanCoverageSummary = lazy(
  (): Promise<{ default: ComponentType<PlanCoverageSummaryProps> }> =>
    loadCoverageSummary().then(
      (m) => ({ default: m.PlanCoverageSummary }),
      () => ({ default: () => null }),
    ),
);

const NO_DOCTORS: readonly ProviderHit[] = [];
const NO_DRUGS: readonly DrugHit[] = [];

function ExternalLink({ href, newTab, children }: { href: string; newTab: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="ds-u-visibility--screen-reader"> {newTab}</span>
    </a>
  );
}

/**
 * A small checkbox in the design system's markup and classes (its `Choice` without the hint and
 * the empty live region for an error message a card's boxes never have: a page of 60 cards would
 * hold 120 of them).
 */
function SmallCheckbox(props: {
  id: string;
  label: string;
  value: string | number;
  checked: boolean;
  disabled: boolean;
  describedBy?: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="ds-c-choice-wrapper">
      <input
        id={props.id}
        name={props.id}
        type="checkbox"
        className="ds-c-choice ds-c-choice--small"
        value={props.value}
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={props.onChange}
      />
      <label htmlFor={props.id} className="ds-c-label">
        {props.label}
      </label>
    </div>
  );
}

/**
 * The premium of each member, drawn when the person opens it: closed, the table is half a card's
 * elements, and a page shows up to 60 cards.
 */
function MemberBreakdown({ plan }: { plan: PlanView }) {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <details className="ef-plan__breakdown" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{i18n._('Premium for each member')}</summary>
      {open && (
        <table className="ds-c-table ds-c-table--compact ds-c-table--borderless ef-plan__members">
          <thead>
            <tr>
              <th scope="col">{i18n._('Member')}</th>
              <th scope="col">{i18n._('Age')}</th>
              <th scope="col">{i18n._('Monthly')}</th>
            </tr>
          </thead>
          <tbody>
            {plan.rates.members.map((r, i) => (
              <tr key={i}>
                {/* The member's name ("Subscriber", "Dependent 2") is the server's. */}
                <th scope="row">{r.member}</th>
                <td>{r.age}</td>
                <td>{r.charged ? formatPremium(r.amount) : i18n._('Not charged')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

/**
 * A plan on a plan page (spec part 1, 2.7 and 4.4): details, premium, links, compare and select.
 * Memoized: the page passes stable handlers and the list's own plan objects, so a card is drawn
 * again only when something it shows changes (not when the filters' options or another card's
 * compare box arrive or change).
 */
export const PlanCard = memo(function PlanCard(props: Props) {
  const { plan, householdSize, selected, compared, compareDisabled, addHsa, busy, saving, coverage } = props;
  const doctors = props.doctors ?? NO_DOCTORS;
  const drugs = props.drugs ?? NO_DRUGS;
  const { i18n } = useLingui();
  const id = useId();
  const nameId = `${id}-name`;
  const newTab = i18n._('(opens in a new tab)');
  const details = planDetails(plan, householdSize, i18n);
  const links = [
    plan.sbc && { key: 'sbc', href: plan.sbc, label: i18n._('Summary of Benefits') },
    plan.baag && { key: 'baag', href: plan.baag, label: i18n._('Plan Details') },
    plan.drug_list && { key: 'drugs', href: plan.drug_list, label: i18n._('Drug List') },
  ].filter((l): l is { key: string; href: string; label: string } => Boolean(l));

  return (
    <article className={`ef-plan${selected ? ' ef-plan--selected' : ''}`} aria-labelledby={nameId}>
      <header className="ef-plan__header">
        <div>
          <h2 className="ef-plan__name" id={nameId}>
            <PlanName html={plan.name} />
          </h2>
          <p className="ef-plan__carrier">{plan.carrier_name}</p>
        </div>
        {selected && (
          <span className="ds-c-badge ds-c-badge--success ef-plan__badge">{i18n._('Your selection')}</span>
        )}
      </header>

      <div className="ef-plan__body">
        <dl className="ef-plan__details">
          {details.map((d) => (
            <Fragment key={d.label}>
              <dt>{d.label}</dt>
              <dd>{d.value}</dd>
            </Fragment>
          ))}
        </dl>
        <div className="ef-plan__premium">
          <p className="ef-plan__total">
            <Trans
              id="<0>{amount}</0> <1>per month</1>"
              values={{ amount: formatPremium(plan.rates.total) }}
              components={{ 0: <span className="ef-plan__amount" />, 1: <span className="ef-plan__per" /> }}
            />
          </p>
          {plan.rates.members.length > 0 && <MemberBreakdown plan={plan} />}
          {plan.yearly_cost && <YearlyEstimate cost={plan.yearly_cost} />}
        </div>
      </div>

      {coverage && doctors.length + drugs.length > 0 && (
        <Suspense fallback={null}>
          <PlanCoverageSummary coverage={coverage} doctors={doctors} drugs={drugs} />
        </Suspense>
      )}

      <footer className="ef-plan__footer">
        {links.length > 0 && (
          <ul className="ef-plan__links">
            {links.map((l) => (
              <li key={l.key}>
                <ExternalLink href={l.href} newTab={newTab}>
                  {l.label}
                </ExternalLink>
              </li>
            ))}
          </ul>
        )}
        <div className="ef-plan__actions">
          <SmallCheckbox
            id={`${id}-compare`}
            value={plan.id}
            label={i18n._('Compare Plan')}
            checked={compared}
            disabled={compareDisabled}
            describedBy={nameId}
            onChange={(e) => props.onCompareChange(plan, e.target.checked)}
          />
          {addHsa !== null && (
            <SmallCheckbox
              id={`${id}-hsa`}
              value="add_hsa"
              label={i18n._('Add a Health Savings Account (HSA)')}
              checked={addHsa}
              disabled={busy}
              onChange={(e) => props.onAddHsaChange(plan, e.target.checked)}
            />
          )}
          <div className="ef-plan__buttons">
            {selected ? (
              <>
                <Button variation="solid" disabled aria-describedby={nameId}>
                  {i18n._('Selected')}
                </Button>
                <Button variation="solid" disabled={busy} onClick={() => props.onChoose(plan)} aria-describedby={nameId}>
                  {saving ? i18n._('Saving…') : i18n._('Continue')}
                </Button>
              </>
            ) : (
              <Button variation="solid" disabled={busy} onClick={() => props.onChoose(plan)} aria-describedby={nameId}>
                {saving ? i18n._('Saving…') : i18n._('Select')}
              </Button>
            )}
          </div>
        </div>
      </footer>
    </article>
  );
});
