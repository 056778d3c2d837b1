import { useId, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Button, Choice } from '@cmsgov/design-system';
import type { PlanView } from '../types';
import { formatPremium } from '@/lib/money';
import { planDetails } from '../utils/plan-kinds';
import { PlanName } from './plan-name';

interface Props {
  plan: PlanView;
  householdSize: number;
  /** The application's chosen plan of this type. */
  selected: boolean;
  compared: boolean;
  compareDisabled: boolean;
  onCompareChange: (on: boolean) => void;
  /** The HSA choice of an HSA-eligible medical plan (null: not offered). */
  addHsa: boolean | null;
  onAddHsaChange: (on: boolean) => void;
  /** A save is under way (every button waits). */
  busy: boolean;
  /** This card's save is under way. */
  saving: boolean;
  onSelect: () => void;
  onContinue: () => void;
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="ds-u-visibility--screen-reader">
        {' '}
        <Trans id="(opens in a new tab)" />
      </span>
    </a>
  );
}

/** A plan on a plan page (spec part 1, 2.7 and 4.4): details, premium, links, compare and select. */
export function PlanCard(props: Props) {
  const { plan, householdSize, selected, compared, compareDisabled, addHsa, busy, saving } = props;
  const { i18n } = useLingui();
  const id = useId();
  const nameId = `${id}-name`;
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
          <span className="ds-c-badge ds-c-badge--success ef-plan__badge">
            <Trans id="Your selection" />
          </span>
        )}
      </header>

      <div className="ef-plan__body">
        <dl className="ef-plan__details">
          {details.map((d) => (
            <div key={d.label}>
              <dt>{d.label}</dt>
              <dd>{d.value}</dd>
            </div>
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
          {plan.rates.members.length > 0 && (
            <details className="ef-plan__breakdown">
              <summary>
                <Trans id="Premium for each member" />
              </summary>
              <table className="ds-c-table ds-c-table--compact ds-c-table--borderless ef-plan__members">
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans id="Member" />
                    </th>
                    <th scope="col">
                      <Trans id="Age" />
                    </th>
                    <th scope="col">
                      <Trans id="Monthly" />
                    </th>
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
            </details>
          )}
        </div>
      </div>

      <footer className="ef-plan__footer">
        {links.length > 0 && (
          <ul className="ef-plan__links">
            {links.map((l) => (
              <li key={l.key}>
                <ExternalLink href={l.href}>{l.label}</ExternalLink>
              </li>
            ))}
          </ul>
        )}
        <div className="ef-plan__actions">
          <Choice
            name={`${id}-compare`}
            type="checkbox"
            size="small"
            value={plan.id}
            label={i18n._('Compare Plan')}
            checked={compared}
            disabled={compareDisabled}
            aria-describedby={nameId}
            onChange={(e) => props.onCompareChange(e.target.checked)}
          />
          {addHsa !== null && (
            <Choice
              name={`${id}-hsa`}
              type="checkbox"
              size="small"
              value="add_hsa"
              label={i18n._('Add a Health Savings Account (HSA)')}
              checked={addHsa}
              disabled={busy}
              onChange={(e) => props.onAddHsaChange(e.target.checked)}
            />
          )}
          <div className="ef-plan__buttons">
            {selected ? (
              <>
                <Button variation="solid" disabled aria-describedby={nameId}>
                  <Trans id="Selected" />
                </Button>
                <Button variation="solid" disabled={busy} onClick={props.onContinue} aria-describedby={nameId}>
                  {saving ? i18n._('Saving…') : i18n._('Continue')}
                </Button>
              </>
            ) : (
              <Button variation="solid" disabled={busy} onClick={props.onSelect} aria-describedby={nameId}>
                {saving ? i18n._('Saving…') : i18n._('Select')}
              </Button>
            )}
          </div>
        </div>
      </footer>
    </article>
  );
}
