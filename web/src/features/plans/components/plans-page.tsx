import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Button, Spinner } from '@cmsgov/design-system';
import { ApiError } from '@/lib/api-client';
import type { Application, StepView } from '@/types/api';
import { getFilterOptions } from '../api/get-filter-options';
import { getPlans } from '../api/get-plans';
import { getStoredSelection } from '../api/get-stored-selection';
import { printComparison } from '../api/print-pdf';
import { saveSelection } from '../api/save-selection';
import { getPlanCoverage } from '../api/get-plan-coverage';
import { dropEarly, startEarly, takeEarly } from '../api/early';
import { useCare } from '../hooks/use-care';
import { useRemote } from '../hooks/use-remote';
import { useStepView } from '../hooks/use-step-view';
import type { CareNeeds, CareSaved, MemberRate, PlanType, PlanView, PriceRange, SelectionBody } from '../types';
import { atCompareLimit, canCompare, COMPARE_LIMIT_WARNING, compareDisabled, MAX_COMPARE, toggleCompare } from '../utils/compare';
import { filterTokens, hasFilters, NO_FILTERS, planTokens, type FilterState } from '../utils/filter-tokens';
import { PLAN_KINDS, planTypeOf, type PlanKind } from '../utils/plan-kinds';
import { rangeKey } from '../utils/price-range';
import { careInput, coverageByPlan, hasDoctorsOrDrugs, plansCoveringAll } from '../utils/care';
import { prepareFormats } from '@/lib/money';
import { saveFile } from '@/lib/save-file';
import { NARROW_SCREEN, useMediaQuery } from '@/lib/media';
import { useFlowStore } from '@/lib/flow';
import { formatDate } from '@/lib/dates';
import { FiltersPanel } from './filters-panel';
import { loadCoverageSummary, PlanCard } from './plan-card';
import { CarePanel } from './care-panel';
import { orderPlans, type PlanOrder } from './yearly-cost';
import './plans.css';

export const NO_PLANS = /*i18n*/ { id: 'Sorry, there are no plans available in your area.' };
export const NO_MATCHES = /*i18n*/ { id: 'No plans match these filters.' };
export const SAVE_FAILED_HEADING = /*i18n*/ { id: 'Sorry, something went wrong' };
export const PLAN_COUNT = /*i18n*/ { id: '{count, plural, one {# plan} other {# plans}}' };
export const MORE_ABOUT_PLANS = /*i18n*/ { id: 'More about these plans' };
export const TRY_AGAIN = /*i18n*/ { id: 'An error occurred, please try again. If it continues, contact your agent.' };
export const NONE_COVER_ALL = /*i18n*/ { id: 'No plan here covers all your doctors and drugs.' };
export const ONLY_COVERING = /*i18n*/ { id: 'Only plans that cover all my doctors and drugs' };

// The comparison loads when it is first opened: a plan page draws its cards without it.
const CompareDialog = lazy(async () => ({ default: (await import('./compare-dialog')).CompareDialog }));

/** Filter and slider changes are sent once they settle. */
const FILTER_DEBOUNCE_MS = 250;

/**
 * A long list is drawn a slice at a time: the first cards at once (below the heading, the notes
 * and the filters, a screen shows one to three), then `MORE_CARDS` in each following frame. On a
 * phone 60 cards are a quarter of a second of work: in one piece the screen stays blank and deaf
 * to taps until all are drawn.
 */
const FIRST_CARDS = 3;
const MORE_CARDS = 8;
/** The list before one has arrived (one array: the list's slices start again with each new one). */
const NO_PLAN_LIST: readonly PlanView[] = [];

/**
 * The list of cards, drawn a slice at a time (its own component, so that drawing the next slice
 * draws nothing else of the page). `card` draws one plan's card.
 */
function CardList({ plans, loading, card }: { plans: readonly PlanView[]; loading: boolean; card: (plan: PlanView) => ReactNode }) {
  const [drawn, setDrawn] = useState(FIRST_CARDS);
  // A new list (other filters) is drawn a slice at a time too: the filter just ticked answers at once.
  const [list, setList] = useState(plans);
  if (list !== plans) {
    setList(plans);
    setDrawn(FIRST_CARDS);
  }
  const total = plans.length;
  // An effect runs once the cards so far are on the screen (Preact runs effects after the next
  // paint); the next slice is drawn in a task of its own right after, for the next frame.
  useEffect(() => {
    if (drawn >= total) return;
    const timer = window.setTimeout(() => setDrawn(drawn + MORE_CARDS), 0);
    return () => window.clearTimeout(timer);
  }, [drawn, total]);
  return (
    <div className={`ef-plans__list${loading ? ' ef-plans__list--updating' : ''}`} aria-busy={loading || drawn < total}>
      {plans.slice(0, drawn).map(card)}
    </div>
  );
}

export interface PlansPageProps {
  /** The step id (`medical`, `dental`, `vision`). */
  stepId: string;
  /** The step's view when the caller has it (GET /api/application/step/{id}); fetched otherwise. */
  view?: StepView | null;
  /** The application after a selection was saved (store it: skip flags, progress sidebar). */
  onApplicationChange?: (application: Application) => void;
}

function Loading({ title }: { title?: string }) {
  const { i18n } = useLingui();
  return (
    <div className="ef-plans">
      {title && <h1 className="ds-text-heading--2xl">{title}</h1>}
      <Spinner aria-valuetext={i18n._('Loading')} role="status" />
    </div>
  );
}

/** What a plan list's request is known by: its plan type and filter tokens. */
function plansKey(planType: PlanType, tokens: readonly string[]): string {
  return `plans:${planType}:${tokens.join(',')}`;
}

function optionsKey(planType: PlanType): string {
  return `options:${planType}`;
}

/** What the plans' coverage is asked for: the household's doctors and drugs (a change of either asks again). */
function coverageKey(care: CareNeeds): string {
  const ids = careInput(care);
  return `coverage:${ids.doctors.join(',')}|${ids.drugs.join(',')}`;
}

/** A plan page of kind `plans` (spec part 1, 2.7-2.10 and 4.4); its plan type is the view's `params.plan_type`. */
export function PlansPage({ stepId, view: given, onApplicationChange }: PlansPageProps) {
  const { i18n } = useLingui();
  // The flow already says which plans the step shows: the list and its filters are asked for now,
  // beside the step's view, not after it.
  const early = useFlowStore((s) => planTypeOf(s.flow?.steps.find((st) => st.id === stepId)?.params));
  const { data: view, error } = useStepView(stepId, given);
  const waiting = !view || view.step.id !== stepId;
  // Started while drawing the wait, so before the list's own first load asks (an effect here would
  // run after the picker's); a repeated drawing starts nothing new (`startEarly`).
  if (early !== null && waiting && !error) {
    startEarly(plansKey(early, []), () => getPlans(early, []));
    startEarly(optionsKey(early), () => getFilterOptions(early));
  }
  // What nobody took by the time the page goes is dropped: a later visit asks afresh.
  useEffect(
    () => () => {
      if (early === null) return;
      dropEarly(plansKey(early, []));
      dropEarly(optionsKey(early));
    },
    [early],
  );
  if (error) {
    return (
      <div className="ef-plans">
        <Alert variation="error" role="alert" heading={i18n._(SAVE_FAILED_HEADING)}>
          {error}
        </Alert>
      </div>
    );
  }
  if (waiting) return <Loading />;
  const planType = planTypeOf(view.params);
  if (!planType) {
    return (
      <div className="ef-plans">
        <h1 className="ds-text-heading--2xl">{view.step.title}</h1>
        <Alert variation="error">
          <Trans id="This page shows no plans." />
        </Alert>
      </div>
    );
  }
  return (
    <PlanPicker
      key={`${stepId}:${planType}`}
      view={view}
      planType={planType}
      kind={PLAN_KINDS[planType]}
      onApplicationChange={onApplicationChange}
    />
  );
}

interface PickerProps {
  view: StepView;
  planType: PlanType;
  kind: PlanKind;
  onApplicationChange?: (application: Application) => void;
}

function PlanPicker({ view, planType, kind, onApplicationChange }: PickerProps) {
  const { i18n } = useLingui();
  const narrow = useMediaQuery(NARROW_SCREEN);
  const navigate = useNavigate();
  const [filters, setFilters] = useState<FilterState>(NO_FILTERS);
  const [compare, setCompare] = useState<PlanView[]>([]);
  const [compareOpen, setCompareOpen] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [printFailed, setPrintFailed] = useState(false);
  const [saving, setSaving] = useState<number | 'none' | null>(null);
  const [saveFailed, setSaveFailed] = useState<string | null>(null);
  const [hsaChoice, setHsaChoice] = useState<Record<number, boolean>>({});
  const [order, setOrder] = useState<PlanOrder>('premium');
  const [onlyCovering, setOnlyCovering] = useState(false);

  // While a selection is saved nothing else is asked of this page's APIs: once the selection moves
  // the application on (going without dental skips the dental step), they answer 403, which sends
  // the browser to the site root. A null key cancels a pending or running request.
  const leaving = saving !== null;
  const medical = planType === 1;
  // The household's care list (medical plans): each member's expected use of care, which the yearly
  // estimates follow (the list is asked again when a save changes them), and the doctors and drugs,
  // which each card says it covers (asked again whenever they change).
  const onCareSaved = useCallback((saved: CareSaved) => onApplicationChange?.(saved.application), [onApplicationChange]);
  const care = useCare(!leaving && medical, onCareSaved);
  const listsCare = medical && hasDoctorsOrDrugs(care.saved);
  const coverage = useRemote(!leaving && listsCare && care.saved ? coverageKey(care.saved) : null, (signal) => {
    // The cards' part that shows it is fetched at the same time (nothing is lost if it fails).
    void loadCoverageSummary().catch(() => undefined);
    return getPlanCoverage(signal);
  });
  const coverageData = listsCare ? coverage.data : null;
  const byPlan = useMemo(() => coverageByPlan(coverageData), [coverageData]);
  const options = useRemote(leaving ? null : optionsKey(planType), (signal) =>
    takeEarly(optionsKey(planType), () => getFilterOptions(planType, signal)),
  );
  const stored = useRemote(leaving ? null : `stored:${planType}`, (signal) => getStoredSelection(planType, signal));

  // The price tokens need the slider's range, which comes with the list.
  const [range, setRange] = useState<PriceRange | null>(null);
  const tokens = filterTokens(filters, range);
  const list = useRemote(
    leaving ? null : `${plansKey(planType, tokens)}#${care.usesRevision}`,
    (signal) => takeEarly(plansKey(planType, tokens), () => getPlans(planType, tokens, signal)),
    FILTER_DEBOUNCE_MS,
  );
  const estimated = (list.data?.plans ?? NO_PLAN_LIST).some((p) => p.yearly_cost);
  // The household's members as the plans rate them, kept while a filter leaves no plan.
  const firstMembers = list.data?.plans[0]?.rates.members ?? null;
  const [members, setMembers] = useState<readonly MemberRate[] | null>(null);
  if (firstMembers && firstMembers !== members) setMembers(firstMembers);

  // The slider's range resets whenever the quoted list's range changes (spec part 1, 4.4).
  const listRange = list.data?.price_range ?? null;
  if (list.data && rangeKey(listRange) !== rangeKey(range)) {
    setRange(listRange);
    if (filters.price) setFilters({ ...filters, price: null });
  }

  const extras = view.extras as { can_continue_without?: unknown };
  const canContinueWithout = extras.can_continue_without === true;
  const householdSize = list.data?.household_size ?? 1;
  const selectedId = list.data?.selected_plan_id ?? null;
  const busy = leaving;

  const hsaFor = (plan: PlanView): boolean | null => {
    if (!plan.is_hsa) return null;
    const chosen = hsaChoice[plan.id];
    if (chosen !== undefined) return chosen;
    return plan.id === selectedId && (stored.data?.add_hsa ?? false);
  };

  async function choose(plan: PlanView | null) {
    setSaving(plan ? plan.id : 'none');
    setSaveFailed(null);
    const body: SelectionBody = { selected_plan_id: plan ? plan.id : null };
    const hsa = plan ? hsaFor(plan) : null;
    if (hsa !== null) body.add_hsa = hsa;
    try {
      const saved = await saveSelection(planType, body);
      onApplicationChange?.(saved.application);
      navigate(saved.next.route);
    } catch (e) {
      setSaving(null);
      setSaveFailed(e instanceof ApiError && e.status === 422 ? e.message : '');
      window.scrollTo({ top: 0 });
    }
  }

  // The cards' handlers stay the same from render to render, so that a card is drawn again only
  // when what it shows changes (PlanCard is memoized); a choice runs the latest `choose`.
  const chooseLatest = useRef(choose);
  useLayoutEffect(() => {
    chooseLatest.current = choose;
  });
  const onChoose = useCallback((plan: PlanView) => void chooseLatest.current(plan), []);
  const onCompareChange = useCallback((plan: PlanView, on: boolean) => setCompare((c) => toggleCompare(c, plan, on)), []);
  const onAddHsaChange = useCallback((plan: PlanView, on: boolean) => setHsaChoice((h) => ({ ...h, [plan.id]: on })), []);

  // The number formatters the cards and the count use are built while the list is on its way
  // (a browser's first one costs tens of milliseconds on a phone), not after it has arrived.
  useEffect(() => {
    const warm = () => {
      prepareFormats();
      i18n._(PLAN_COUNT.id, { count: 0 });
    };
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(warm, { timeout: 200 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = window.setTimeout(warm, 0);
    return () => window.clearTimeout(timer);
  }, [i18n]);

  async function print(all: boolean, printTokens: readonly string[]) {
    setPrinting(true);
    setPrintFailed(false);
    try {
      saveFile(await printComparison(planType, all, printTokens), 'compare.pdf');
    } catch {
      setPrintFailed(true);
    } finally {
      setPrinting(false);
    }
  }

  const continueWithout = canContinueWithout && (
    <Button className="ef-plans__without" disabled={busy} onClick={() => void choose(null)}>
      {saving === 'none' ? i18n._('Saving…') : i18n._(kind.continueWithout)}
    </Button>
  );

  // On a phone the print buttons follow the plans rather than come before them.
  const printTools = (
    <div className="ef-plans__tools">
      <Button size="small" disabled={printing} onClick={() => void print(false, tokens)}>
        {i18n._(kind.printComparison)}
      </Button>
      <Button size="small" disabled={printing} onClick={() => void print(true, tokens)}>
        <Trans id="Print Medical, Dental and Vision Comparison" />
      </Button>
    </div>
  );

  // "Only plans that cover all my doctors and drugs" keeps those whose coverage says so, in the order chosen.
  const covering = onlyCovering && listsCare && coverageData !== null;
  const listed = list.data?.plans ?? NO_PLAN_LIST;
  const plans = useMemo(() => {
    const ordered = orderPlans(listed, order);
    return covering ? plansCoveringAll(ordered, byPlan) : ordered;
  }, [listed, order, covering, byPlan]);
  const previous = view.previous;
  const noPlansAtAll = list.data !== null && list.data.price_range === null && plans.length === 0;

  return (
    <div className="ef-plans">
      <h1 className="ds-text-heading--2xl">{view.step.title}</h1>

      {saveFailed !== null && (
        <Alert variation="error" role="alert" heading={i18n._(SAVE_FAILED_HEADING)}>
          <p className="ds-c-alert__text">{i18n._(TRY_AGAIN)}</p>
          {saveFailed && <p className="ds-c-alert__text">{saveFailed}</p>}
        </Alert>
      )}

      {narrow && kind.notes.length > 1 ? (
        // On a phone the plans come first: the first note, the others one tap away.
        <div className="ef-plans__notes">
          <p className="ef-plans__note">{i18n._(kind.notes[0]!)}</p>
          <details className="ef-plans__more">
            <summary>{i18n._(MORE_ABOUT_PLANS)}</summary>
            <ul>
              {kind.notes.slice(1).map((n) => (
                <li key={n.id}>{i18n._(n)}</li>
              ))}
            </ul>
          </details>
        </div>
      ) : (
        <ul className="ef-plans__notes">
          {kind.notes.map((n) => (
            <li key={n.id}>{i18n._(n)}</li>
          ))}
        </ul>
      )}

      {continueWithout && <div className="ef-plans__without-row">{continueWithout}</div>}

      <FiltersPanel
        options={options.data}
        optionsError={options.error}
        state={filters}
        onChange={setFilters}
        range={range}
      />

      {medical && members && care.shown && (
        <CarePanel
          members={members}
          estimated={estimated}
          care={care.shown}
          saving={care.saving}
          failed={care.failed}
          onChange={care.change}
        />
      )}

      <div className="ef-plans__toolbar">
        {estimated && (
          <div className="ef-plans__order">
            <label className="ds-c-label" htmlFor="ef-plans-order">
              {i18n._('Sort by')}
            </label>
            <select id="ef-plans-order" className="ds-c-field" value={order} onChange={(e) => setOrder(e.target.value as PlanOrder)}>
              <option value="premium">{i18n._('Monthly premium')}</option>
              <option value="yearly">{i18n._('Estimated yearly cost')}</option>
            </select>
          </div>
        )}
        {listsCare && (
          <div className="ds-c-choice-wrapper ef-plans__covering">
            <input
              id="ef-plans-covering"
              type="checkbox"
              className="ds-c-choice ds-c-choice--small"
              checked={onlyCovering}
              onChange={(e) => setOnlyCovering(e.target.checked)}
            />
            <label htmlFor="ef-plans-covering" className="ds-c-label">
              {i18n._(ONLY_COVERING)}
            </label>
          </div>
        )}
        <p className="ef-plans__count" role="status">
          {list.loading
            ? i18n._('Updating plans…')
            : list.data
              ? i18n._(PLAN_COUNT.id, { count: plans.length })
              : ''}
        </p>
        {!narrow && printTools}
      </div>

      {printFailed && (
        <Alert variation="error" role="alert">
          {i18n._(TRY_AGAIN)}
        </Alert>
      )}

      {list.error && (
        <Alert variation="error" role="alert">
          {list.error}
        </Alert>
      )}
      {!list.data && !list.error && <Spinner aria-valuetext={i18n._('Loading plans')} role="status" />}
      {noPlansAtAll && <p className="ef-plans__empty">{i18n._(NO_PLANS)}</p>}
      {list.data && !noPlansAtAll && plans.length === 0 && !list.loading && (
        <p className="ef-plans__empty">
          {i18n._(covering && listed.length > 0 ? NONE_COVER_ALL : hasFilters(filters, range) ? NO_MATCHES : NO_PLANS)}
        </p>
      )}

      <CardList
        plans={plans}
        loading={list.loading || (covering && coverage.loading)}
        card={(plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            householdSize={householdSize}
            selected={plan.id === selectedId}
            compared={compare.some((p) => p.id === plan.id)}
            compareDisabled={compareDisabled(compare, plan.id)}
            onCompareChange={onCompareChange}
            addHsa={hsaFor(plan)}
            onAddHsaChange={onAddHsaChange}
            busy={busy}
            saving={saving === plan.id}
            onChoose={onChoose}
            coverage={listsCare ? byPlan.get(plan.id) : undefined}
            doctors={care.saved?.doctors}
            drugs={care.saved?.drugs}
          />
        )}
      />

      {coverageData && coverageData.as_of.length > 0 && (
        <ul className="ef-plans__as-of">
          {coverageData.as_of.map((a) => (
            <li key={`${a.carrier_name}:${a.as_of}`}>
              {i18n._('Provider and drug information as of {date} ({carrier})', { date: formatDate(a.as_of), carrier: a.carrier_name })}
            </li>
          ))}
        </ul>
      )}

      {narrow && plans.length > 0 && <div className="ef-plans__tools ef-plans__tools--after">{printTools}</div>}

      {plans.length > 0 && (!narrow || compare.length > 0) && (
        // Sticks to the bottom of the window while the list scrolls, so the count and the limit stay
        // in sight; on a phone only once a plan is ticked, so it covers no card before then.
        <div className="ef-compare-bar">
          <div role="status" className="ef-compare-bar__status">
            {atCompareLimit(compare) ? (
              <span className="ef-compare-bar__warning">{i18n._(COMPARE_LIMIT_WARNING)}</span>
            ) : (
              i18n._('{count} of {max} plans chosen to compare', { count: compare.length, max: MAX_COMPARE })
            )}
          </div>
          <Button variation="solid" size="small" disabled={!canCompare(compare)} onClick={() => setCompareOpen(true)}>
            {compare.length > 0
              ? i18n._('Compare Selected Plans ({count})', { count: compare.length })
              : i18n._('Compare Selected Plans')}
          </Button>
        </div>
      )}

      {continueWithout && plans.length > 0 && <div className="ef-plans__without-row">{continueWithout}</div>}

      <div className="ef-plans__nav">
        {previous && (
          <Button disabled={busy} onClick={() => navigate(previous.route)}>
            <Trans id="Previous" />
          </Button>
        )}
      </div>

      {compareOpen && (
        <Suspense fallback={<Spinner aria-valuetext={i18n._('Loading')} role="status" />}>
          <CompareDialog
            isOpen
            kind={kind}
            plans={compare}
            householdSize={householdSize}
            printing={printing}
            onRemove={(plan) => setCompare((c) => toggleCompare(c, plan, false))}
            onPrint={() => void print(false, planTokens(compare.map((p) => p.id)))}
            onClose={() => setCompareOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
