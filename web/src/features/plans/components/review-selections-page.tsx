import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Button, Spinner } from '@cmsgov/design-system';
import { planStep, useFlowStore } from '@/lib/flow';
import type { Application, StepView } from '@/types/api';
import { getPlanInfo } from '../api/get-plan-info';
import { printBenefitSelection } from '../api/print-pdf';
import { saveReview } from '../api/save-review';
import { useRemote } from '../hooks/use-remote';
import { useStepView } from '../hooks/use-step-view';
import type { PlanInfo, PlanSnapshot } from '../types';
import { formatPremium } from '@/lib/money';
import { saveFile } from '@/lib/save-file';
import { PlanName } from './plan-name';
import { SAVE_FAILED_HEADING, TRY_AGAIN } from './plans-page';
import './plans.css';

export const REVIEW_TITLE = /*i18n*/ { id: 'Review Your Selections' };

/** Where each chosen plan comes from: the plan info's field and the plan type of the flow's plan page that chooses it. */
const SLOTS: readonly { field: 'medicalPlan' | 'dentalPlan' | 'visionPlan'; label: MessageDescriptor; planType: number }[] = [
  { field: 'medicalPlan', label: /*i18n*/ { id: 'Medical' }, planType: 1 },
  { field: 'dentalPlan', label: /*i18n*/ { id: 'Dental' }, planType: 2 },
  { field: 'visionPlan', label: /*i18n*/ { id: 'Vision' }, planType: 3 },
];

export interface ReviewSelectionsPageProps {
  /** The step id (`review`). */
  stepId: string;
  /** The step's view when the caller has it; fetched otherwise. */
  view?: StepView | null;
  /** A logged-in agent: Return to dashboard shows. */
  authenticated?: boolean;
  /** The application after Apply Now saved (store it). */
  onApplicationChange?: (application: Application) => void;
}

function SelectionCard({ plan, label, planType }: { plan: PlanSnapshot; label: MessageDescriptor; planType: number }) {
  const { i18n } = useLingui();
  const headingId = `ef-review-${planType}`;
  const change = useFlowStore((s) => (s.flow ? planStep(s.flow, planType)?.route : undefined));
  return (
    <article className="ef-plan ef-review__card" aria-labelledby={headingId}>
      <header className="ef-plan__header">
        <div>
          <p className="ef-review__kind">{i18n._(label)}</p>
          <h2 className="ef-plan__name" id={headingId}>
            <PlanName html={plan.name} />
          </h2>
        </div>
        {change && (
          <Link to={change} aria-describedby={headingId}>
            <Trans id="Change Plan" />
          </Link>
        )}
      </header>
      <dl className="ef-plan__details">
        {plan.carrier_name && (
          <div>
            <dt>
              <Trans id="Carrier" />
            </dt>
            <dd>{plan.carrier_name}</dd>
          </div>
        )}
        {(plan.metal_name || plan.network_name) && (
          <div>
            <dt>
              <Trans id="Plan type" />
            </dt>
            <dd>{[plan.metal_name, plan.network_name].filter(Boolean).join(' ')}</dd>
          </div>
        )}
        <div>
          <dt>
            <Trans id="Monthly premium" />
          </dt>
          <dd>{formatPremium(plan.rate)}</dd>
        </div>
        <div>
          <dt>
            <Trans id="Plan year" />
          </dt>
          <dd>{plan.plan_year}</dd>
        </div>
        {plan.hsa && (
          <div>
            <dt>
              <Trans id="HSA eligible" />
            </dt>
            <dd>
              <Trans id="Yes" />
            </dd>
          </div>
        )}
        {plan.includes_vision && (
          <div>
            <dt>
              <Trans id="Includes vision" />
            </dt>
            <dd>
              <Trans id="Yes" />
            </dd>
          </div>
        )}
      </dl>
      {plan.sbc && (
        <p className="ef-plan__links">
          <a href={plan.sbc} target="_blank" rel="noopener noreferrer">
            <Trans id="Summary of Benefits" />
            <span className="ds-u-visibility--screen-reader">
              {' '}
              <Trans id="(opens in a new tab)" />
            </span>
          </a>
        </p>
      )}
    </article>
  );
}

/** Review Selections (spec part 1, 2.11 and 4.4): the chosen plans, the monthly total, Apply Now. */
export function ReviewSelectionsPage({ stepId, view: given, authenticated = false, onApplicationChange }: ReviewSelectionsPageProps) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const { data: view, error: viewError } = useStepView(stepId, given);
  const info = useRemote<PlanInfo>('plan-info', (signal) => getPlanInfo(signal));
  const [printing, setPrinting] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);

  const error = viewError ?? info.error;

  async function print() {
    setPrinting(true);
    setFailed(false);
    try {
      saveFile(await printBenefitSelection(), 'benefits.pdf');
    } catch {
      setFailed(true);
    } finally {
      setPrinting(false);
    }
  }

  async function applyNow() {
    setSaving(true);
    setFailed(false);
    try {
      const saved = await saveReview(stepId);
      onApplicationChange?.(saved.application);
      navigate(saved.next.route);
    } catch {
      setSaving(false);
      setFailed(true);
      window.scrollTo({ top: 0 });
    }
  }

  const previous = view && view.step.id === stepId ? view.previous : null;
  const chosen = info.data ? SLOTS.filter((s) => info.data?.[s.field]) : [];

  return (
    <div className="ef-plans ef-review">
      <h1 className="ds-text-heading--2xl">{i18n._(REVIEW_TITLE)}</h1>
      {(failed || error) && (
        <Alert variation="error" role="alert" heading={i18n._(SAVE_FAILED_HEADING)}>
          {error && !failed ? error : i18n._(TRY_AGAIN)}
        </Alert>
      )}
      {!info.data && !info.error && <Spinner aria-valuetext={i18n._('Loading')} role="status" />}
      {info.data && (
        <>
          {chosen.length === 0 && (
            <p>
              <Trans id="You have not chosen any plans." />
            </p>
          )}
          <div className="ef-review__cards">
            {chosen.map((s) => {
              const plan = info.data?.[s.field];
              return plan ? <SelectionCard key={s.field} plan={plan} label={s.label} planType={s.planType} /> : null;
            })}
          </div>
          <div className="ef-review__summary">
            <section className="ef-review__total" aria-labelledby="ef-review-total">
              <h2 id="ef-review-total" className="ef-review__total-heading">
                <Trans id="Your total cost" />
              </h2>
              <p className="ef-review__total-amount">
                <Trans
                  id="{amount} <0>per month</0>"
                  values={{ amount: formatPremium(info.data.total) }}
                  components={{ 0: <span className="ef-plan__per" /> }}
                />
              </p>
            </section>
            <Button onClick={() => void print()} disabled={printing}>
              {printing ? i18n._('Printing…') : i18n._('Print Benefit Selection')}
            </Button>
          </div>
        </>
      )}
      <div className="ef-plans__nav">
        {previous && (
          <Button disabled={saving} onClick={() => navigate(previous.route)}>
            <Trans id="Previous" />
          </Button>
        )}
        <span className="ef-plans__nav-end">
          {authenticated && (
            <Button disabled={saving} onClick={() => navigate('/dashboard/home')}>
              <Trans id="Return to dashboard" />
            </Button>
          )}
          <Button variation="solid" disabled={saving || !info.data} onClick={() => void applyNow()}>
            {saving ? i18n._('Saving…') : i18n._('Apply Now')}
          </Button>
        </span>
      </div>
    </div>
  );
}
