import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
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

export const REVIEW_TITLE = 'Review Your Selections';

/** Where each chosen plan comes from: the plan info's field and the plan type of the flow's plan page that chooses it. */
const SLOTS: readonly { field: 'medicalPlan' | 'dentalPlan' | 'visionPlan'; label: string; planType: number }[] = [
  { field: 'medicalPlan', label: 'Medical', planType: 1 },
  { field: 'dentalPlan', label: 'Dental', planType: 2 },
  { field: 'visionPlan', label: 'Vision', planType: 3 },
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

function SelectionCard({ plan, label, planType }: { plan: PlanSnapshot; label: string; planType: number }) {
  const headingId = `ef-review-${planType}`;
  const change = useFlowStore((s) => (s.flow ? planStep(s.flow, planType)?.route : undefined));
  return (
    <article className="ef-plan ef-review__card" aria-labelledby={headingId}>
      <header className="ef-plan__header">
        <div>
          <p className="ef-review__kind">{label}</p>
          <h2 className="ef-plan__name" id={headingId}>
            <PlanName html={plan.name} />
          </h2>
        </div>
        {change && (
          <Link to={change} aria-describedby={headingId}>
            Change Plan
          </Link>
        )}
      </header>
      <dl className="ef-plan__details">
        {plan.carrier_name && (
          <div>
            <dt>Carrier</dt>
            <dd>{plan.carrier_name}</dd>
          </div>
        )}
        {(plan.metal_name || plan.network_name) && (
          <div>
            <dt>Plan type</dt>
            <dd>{[plan.metal_name, plan.network_name].filter(Boolean).join(' ')}</dd>
          </div>
        )}
        <div>
          <dt>Monthly premium</dt>
          <dd>{formatPremium(plan.rate)}</dd>
        </div>
        <div>
          <dt>Plan year</dt>
          <dd>{plan.plan_year}</dd>
        </div>
        {plan.hsa && (
          <div>
            <dt>HSA eligible</dt>
            <dd>Yes</dd>
          </div>
        )}
        {plan.includes_vision && (
          <div>
            <dt>Includes vision</dt>
            <dd>Yes</dd>
          </div>
        )}
      </dl>
      {plan.sbc && (
        <p className="ef-plan__links">
          <a href={plan.sbc} target="_blank" rel="noopener noreferrer">
            Summary of Benefits<span className="ds-u-visibility--screen-reader"> (opens in a new tab)</span>
          </a>
        </p>
      )}
    </article>
  );
}

/** Review Selections (spec part 1, 2.11 and 4.4): the chosen plans, the monthly total, Apply Now. */
export function ReviewSelectionsPage({ stepId, view: given, authenticated = false, onApplicationChange }: ReviewSelectionsPageProps) {
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
      <h1 className="ds-text-heading--2xl">{REVIEW_TITLE}</h1>
      {(failed || error) && (
        <Alert variation="error" role="alert" heading={SAVE_FAILED_HEADING}>
          {error && !failed ? error : TRY_AGAIN}
        </Alert>
      )}
      {!info.data && !info.error && <Spinner aria-valuetext="Loading" role="status" />}
      {info.data && (
        <>
          {chosen.length === 0 && <p>You have not chosen any plans.</p>}
          <div className="ef-review__cards">
            {chosen.map((s) => {
              const plan = info.data?.[s.field];
              return plan ? <SelectionCard key={s.field} plan={plan} label={s.label} planType={s.planType} /> : null;
            })}
          </div>
          <div className="ef-review__summary">
            <section className="ef-review__total" aria-labelledby="ef-review-total">
              <h2 id="ef-review-total" className="ef-review__total-heading">
                Your total cost
              </h2>
              <p className="ef-review__total-amount">
                {formatPremium(info.data.total)}
                <span className="ef-plan__per"> per month</span>
              </p>
            </section>
            <Button onClick={() => void print()} disabled={printing}>
              {printing ? 'Printing…' : 'Print Benefit Selection'}
            </Button>
          </div>
        </>
      )}
      <div className="ef-plans__nav">
        {previous && (
          <Button disabled={saving} onClick={() => navigate(previous.route)}>
            Previous
          </Button>
        )}
        <span className="ef-plans__nav-end">
          {authenticated && (
            <Button disabled={saving} onClick={() => navigate('/dashboard/home')}>
              Return to dashboard
            </Button>
          )}
          <Button variation="solid" disabled={saving || !info.data} onClick={() => void applyNow()}>
            {saving ? 'Saving…' : 'Apply Now'}
          </Button>
        </span>
      </div>
    </div>
  );
}
