import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Button, Spinner } from '@cmsgov/design-system';
import { planStep, useFlowStore } from '@/lib/flow';
import type { Application, StepView } from '@/types/api';
import { addCoverage } from '../api/add-coverage';
import { getPlanInfo } from '../api/get-plan-info';
import { printBenefitSelection } from '../api/print-pdf';
import { saveReview } from '../api/save-review';
import { useRemote } from '../hooks/use-remote';
import { useStepView } from '../hooks/use-step-view';
import type { PlanInfo, PlanSnapshot, PlanView } from '../types';
import { planDetails } from '../utils/plan-kinds';
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

/**
 * `2025-01-01` as `01/01/2025`, as every date is shown (lib/dates.ts; not imported here, which would
 * split that module into a chunk of its own that every form step then also loads).
 */
function shownDate(iso: string): string {
  return iso.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2/$3/$1');
}

/** A coverage the household goes without, and the button that adds it (each a whole message). */
const MISSING: Record<2 | 3, { heading: MessageDescriptor; add: MessageDescriptor }> = {
  2: { heading: /*i18n*/ { id: 'No dental coverage' }, add: /*i18n*/ { id: 'Add dental coverage' } },
  3: { heading: /*i18n*/ { id: 'No vision coverage' }, add: /*i18n*/ { id: 'Add vision coverage' } },
};

/**
 * The kinds of coverage the household goes without and may still add: dental without a dental
 * plan, vision without a vision plan or a dental plan that includes it. Medical is left out: it is
 * skipped for a reason (Medicare, a dental-only application) that About You answers.
 */
export function missingCoverage(info: PlanInfo): (2 | 3)[] {
  const out: (2 | 3)[] = [];
  if (!info.dentalPlan) out.push(2);
  if (!info.visionPlan && !info.dentalPlan?.includes_vision) out.push(3);
  return out;
}

/** "Subscriber, age 45": who the chosen plans cover, at their age on the start date. */
function CoveredMembers({ plan }: { plan: PlanView }) {
  const { i18n } = useLingui();
  return (
    <ul className="ef-review__members">
      {plan.rates.members.map((m) => (
        <li key={m.member}>{i18n._('{who}, age {age}', { who: m.member, age: m.age })}</li>
      ))}
    </ul>
  );
}

/** A coverage left out, with the button that opens its plan page again. */
function MissingCard({ planType, onAdded }: { planType: 2 | 3; onAdded: (application: Application) => void }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const step = useFlowStore((s) => (s.flow ? planStep(s.flow, planType) : undefined));
  const [state, setState] = useState<'idle' | 'opening' | 'failed'>('idle');
  const headingId = `ef-review-missing-${planType}`;
  const texts = MISSING[planType];
  async function add() {
    if (!step) return;
    setState('opening');
    try {
      const opened = await addCoverage(step.id);
      onAdded(opened.application);
      navigate(opened.step.route);
    } catch {
      setState('failed');
    }
  }
  return (
    <section className="ef-review__missing" aria-labelledby={headingId}>
      <h2 className="ef-review__missing-heading" id={headingId}>
        {i18n._(texts.heading)}
      </h2>
      {step && (
        <Button size="small" disabled={state === 'opening'} onClick={() => void add()} aria-describedby={headingId}>
          {i18n._(texts.add)}
        </Button>
      )}
      {state === 'failed' && (
        <p role="alert" className="ds-u-color--error ds-u-margin-y--0">
          {i18n._(TRY_AGAIN)}
        </p>
      )}
    </section>
  );
}

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

function SelectionCard({
  plan,
  label,
  planType,
  detail,
}: {
  plan: PlanSnapshot;
  label: MessageDescriptor;
  planType: number;
  /** The plan as quoted today: its deductibles and out-of-pocket maximum. */
  detail: PlanView | undefined;
}) {
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
        {detail ? (
          planDetails(detail, detail.rates.members.length, i18n).map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))
        ) : (
          <SnapshotRows plan={plan} />
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

/** What the stored choice says of a plan the catalog no longer quotes. */
function SnapshotRows({ plan }: { plan: PlanSnapshot }) {
  return (
    <>
      {(plan.metal_name || plan.network_name) && (
        <div>
          <dt>
            <Trans id="Plan type" />
          </dt>
          <dd>{[plan.metal_name, plan.network_name].filter(Boolean).join(' ')}</dd>
        </div>
      )}
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
    </>
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
  const details = info.data?.details ?? [];
  const household = details[0];
  const missing = info.data && chosen.length > 0 ? missingCoverage(info.data) : [];

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
          {(info.data.effectiveDate || household) && (
            <section className="ef-review__household" aria-labelledby="ef-review-household">
              <h2 id="ef-review-household" className="ef-review__total-heading">
                <Trans id="Your coverage" />
              </h2>
              <dl className="ef-plan__details">
                {info.data.effectiveDate && (
                  <div>
                    <dt>
                      <Trans id="Coverage starts" />
                    </dt>
                    <dd>{shownDate(info.data.effectiveDate)}</dd>
                  </div>
                )}
                {household && (
                  <div>
                    <dt>
                      <Trans id="Who is covered" />
                    </dt>
                    <dd>
                      <CoveredMembers plan={household} />
                    </dd>
                  </div>
                )}
              </dl>
            </section>
          )}
          <div className="ef-review__cards">
            {chosen.map((s) => {
              const plan = info.data?.[s.field];
              const detail = details.find((d) => d.plan_type === s.planType && d.id === plan?.id);
              return plan ? <SelectionCard key={s.field} plan={plan} label={s.label} planType={s.planType} detail={detail} /> : null;
            })}
            {missing.map((t) => (
              <MissingCard key={t} planType={t} onAdded={(a) => onApplicationChange?.(a)} />
            ))}
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
