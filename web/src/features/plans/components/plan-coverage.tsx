import { Fragment } from 'react';
import { useLingui } from '@lingui/react';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { DrugCoverage, DrugHit, PlanCoverage, ProviderHit } from '../types';

/** A formulary tier in words (the issuers' files write them in capitals: `PREFERRED-BRAND`). */
const TIER_WORDS: Readonly<Record<string, MessageDescriptor>> = {
  GENERIC: /*i18n*/ { id: 'Generic' },
  'PREFERRED-GENERIC': /*i18n*/ { id: 'Preferred generic' },
  'NON-PREFERRED-GENERIC': /*i18n*/ { id: 'Non-preferred generic' },
  BRAND: /*i18n*/ { id: 'Brand' },
  'PREFERRED-BRAND': /*i18n*/ { id: 'Preferred brand' },
  'NON-PREFERRED-BRAND': /*i18n*/ { id: 'Non-preferred brand' },
  SPECIALTY: /*i18n*/ { id: 'Specialty' },
  'ZERO-COST-SHARE-PREVENTIVE': /*i18n*/ { id: 'No cost (preventive)' },
};

/** `PREFERRED-BRAND` → "Preferred brand"; a tier not known here is shown as given. */
export function tierWords(tier: string, i18n: I18n): string {
  const words = TIER_WORDS[tier.trim().toUpperCase().replace(/[\s_]+/g, '-')];
  return words ? i18n._(words) : tier;
}

/** A plan's answer for one doctor or drug: the words say it, the marker's shape repeats it (colour is extra). */
function Status({ yes, children }: { yes: boolean | null; children: string }) {
  const kind = yes === null ? 'unknown' : yes ? 'yes' : 'no';
  return <span className={`ef-cover__status ef-cover__status--${kind}`}>{children}</span>;
}

function DrugStatus({ drug }: { drug: DrugCoverage | undefined }) {
  const { i18n } = useLingui();
  if (!drug) return <Status yes={null}>{i18n._('Checking…')}</Status>;
  if (!drug.covered) return <Status yes={false}>{i18n._('Not covered')}</Status>;
  const flags = [
    drug.prior_authorization && i18n._('Prior authorization'),
    drug.step_therapy && i18n._('Step therapy'),
    drug.quantity_limit && i18n._('Quantity limit'),
  ].filter((f): f is string => Boolean(f));
  return (
    <>
      <Status yes>{drug.tier ? i18n._('Covered — {tier}', { tier: tierWords(drug.tier, i18n) }) : i18n._('Covered')}</Status>
      {flags.map((f) => (
        <Fragment key={f}>
          {' '}
          <span className="ef-cover__flag">{f}</span>
        </Fragment>
      ))}
    </>
  );
}

export interface PlanCoverageSummaryProps {
  coverage: PlanCoverage;
  /** The household's doctors and drugs, in their order (their names). */
  doctors: readonly ProviderHit[];
  drugs: readonly DrugHit[];
}

/**
 * "Your doctors and drugs" on a medical plan's card: each doctor in the plan's network or not, each
 * drug covered (its tier, prior authorization, step therapy, quantity limit) or not. A doctor or
 * drug just added, which the plan's coverage does not list yet, is being checked.
 */
export function PlanCoverageSummary({ coverage, doctors, drugs }: PlanCoverageSummaryProps) {
  const { i18n } = useLingui();
  return (
    <div className="ef-plan__cover">
      <h3 className="ef-plan__cover-heading">{i18n._('Your doctors and drugs')}</h3>
      <ul className="ef-plan__cover-list">
        {doctors.map((d) => {
          const covered = coverage.doctors.find((c) => c.npi === d.npi)?.covered;
          return (
            <li key={`npi:${d.npi}`} className="ef-cover">
              <span className="ef-cover__name">{d.name}</span>{' '}
              {covered === undefined ? (
                <Status yes={null}>{i18n._('Checking…')}</Status>
              ) : (
                <Status yes={covered}>{covered ? i18n._('In network') : i18n._('Not in network')}</Status>
              )}
            </li>
          );
        })}
        {drugs.map((d) => (
          <li key={`rx:${d.rxnorm_id}`} className="ef-cover">
            <span className="ef-cover__name">{d.name}</span>{' '}
            <DrugStatus drug={coverage.drugs.find((c) => c.rxnorm_id === d.rxnorm_id)} />
          </li>
        ))}
      </ul>
    </div>
  );
}
