import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { planList, plansView } from '../testing/fixtures';
import type { CareNeeds, DrugHit, PlanCoverageList, PlanList, ProviderHit } from '../types';
import { NONE_COVER_ALL, ONLY_COVERING, PlansPage } from './plans-page';

// The medical plans with the household's doctors and drugs: each card's "Your doctors and drugs",
// the filter that keeps the plans covering them all, and the files' dates below the list.

const LEE: ProviderHit = { npi: '1234567893', name: 'Dr. Dana Lee', specialty: 'Family Medicine', city: 'Ann Arbor', kind: 'individual' };
const PATEL: ProviderHit = { npi: '1987654321', name: 'Dr. Raj Patel', specialty: 'Cardiology', city: 'Detroit', kind: 'individual' };
const METFORMIN: DrugHit = { rxnorm_id: '861007', name: 'metformin 500 MG Oral Tablet' };
const HUMIRA: DrugHit = { rxnorm_id: '1482813', name: 'Humira 40 MG Pen' };

const drug = (rxnorm_id: string, covered: boolean, tier: string | null, flags: Partial<Record<'prior_authorization' | 'step_therapy' | 'quantity_limit', boolean>> = {}) => ({
  rxnorm_id,
  covered,
  tier,
  prior_authorization: false,
  step_therapy: false,
  quantity_limit: false,
  ...flags,
});

/** Plans 520 and 522 cover all; 521 covers neither; 523 is not in the coverage at all. */
const COVERAGE: PlanCoverageList = {
  as_of: [
    { carrier_name: 'Blue Cross Blue Shield of Michigan', as_of: '2025-03-01' },
    { carrier_name: 'Priority Health', as_of: '2025-02-15' },
  ],
  plans: [
    {
      plan_id: 520,
      doctors: [{ npi: LEE.npi, covered: true }],
      drugs: [drug(METFORMIN.rxnorm_id, true, 'GENERIC'), drug(HUMIRA.rxnorm_id, true, 'SPECIALTY', { prior_authorization: true, quantity_limit: true })],
      covers_all: true,
    },
    {
      plan_id: 521,
      doctors: [{ npi: LEE.npi, covered: false }],
      drugs: [drug(METFORMIN.rxnorm_id, true, 'PREFERRED-GENERIC'), drug(HUMIRA.rxnorm_id, false, null)],
      covers_all: false,
    },
    {
      plan_id: 522,
      doctors: [{ npi: LEE.npi, covered: true }],
      drugs: [drug(METFORMIN.rxnorm_id, true, 'ZERO-COST-SHARE-PREVENTIVE'), drug(HUMIRA.rxnorm_id, true, 'TIER 6 SPECIAL', { step_therapy: true })],
      covers_all: true,
    },
  ],
};

interface Call {
  method: string;
  path: string;
  body: unknown;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The plan page's server with the household's care list (stored by PUT /api/care) and the plans' coverage. */
function fakeServer(list: PlanList, stored: CareNeeds, coverage: (care: CareNeeds) => PlanCoverageList = () => COVERAGE) {
  const calls: Call[] = [];
  let care = stored;
  const known = new Map([LEE, PATEL].map((p) => [p.npi, p]));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://acme.localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      const path = url.pathname;
      if (path.endsWith('/allPlans')) return json(list);
      if (path === '/api/plans/1/coverage') return json(coverage(care));
      if (path === '/api/care' && method === 'GET') return json(care);
      if (path === '/api/care' && method === 'PUT') {
        care = { ...care, uses: body.uses, doctors: body.doctors.map((n: string) => known.get(n)!) };
        return json({ care, application: { applicationId: 'a' } });
      }
      if (path === '/api/coverage/providers') return json([PATEL]);
      if (path === '/api/plans/1') return json({ add_hsa: false });
      if (/\/(carriers|networks|metals|attributes)$/.test(path)) return json([]);
      return json({ error: 'no' }, 404);
    }),
  );
  return calls;
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/medical', element: <PlansPage stepId="medical" view={plansView('medical', 1)} /> }], {
    initialEntries: ['/medical'],
  });
  render(<RouterProvider router={router} />);
}

const card = (name: string) => screen.getByRole('article', { name });
const cardNames = () => screen.getAllByRole('article').map((a) => within(a).getByRole('heading', { level: 2 }).textContent);
/** Each line of a card's "Your doctors and drugs", as its words. */
const coverLines = (name: string) =>
  [...card(name).querySelectorAll('.ef-plan__cover-list > li')].map((li) => li.textContent?.replace(/\s+/g, ' ').trim());
const coverageCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/plans/1/coverage');

describe('the medical plans with the household’s doctors and drugs', () => {
  beforeEach(() => {
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says on each card which doctors are in network and which drugs are covered, with the tier in words and the limits', async () => {
    fakeServer(planList(4), { uses: ['medium'], doctors: [LEE], drugs: [METFORMIN, HUMIRA] });
    renderPage();
    await waitFor(() => expect(coverLines('Plan 1')).toHaveLength(3));
    expect(within(card('Plan 1')).getByRole('heading', { level: 3, name: 'Your doctors and drugs' })).toBeTruthy();
    expect(coverLines('Plan 1')).toEqual([
      'Dr. Dana Lee In network',
      'metformin 500 MG Oral Tablet Covered — Generic',
      'Humira 40 MG Pen Covered — Specialty Prior authorization Quantity limit',
    ]);
    expect(coverLines('Plan 2')).toEqual([
      'Dr. Dana Lee Not in network',
      'metformin 500 MG Oral Tablet Covered — Preferred generic',
      'Humira 40 MG Pen Not covered',
    ]);
    // A tier not known is shown as given.
    expect(coverLines('Plan 3')).toEqual([
      'Dr. Dana Lee In network',
      'metformin 500 MG Oral Tablet Covered — No cost (preventive)',
      'Humira 40 MG Pen Covered — TIER 6 SPECIAL Step therapy',
    ]);
    // The limits are badges of their own; "not" is said in words, not only in colour.
    const humira = card('Plan 1').querySelectorAll('.ef-plan__cover-list > li')[2]!;
    expect([...humira.querySelectorAll('.ef-cover__flag')].map((b) => b.textContent)).toEqual(['Prior authorization', 'Quantity limit']);
    expect(card('Plan 2').querySelector('.ef-cover__status--no')?.textContent).toBe('Not in network');
    // A plan the coverage does not list has no such section.
    expect(card('Plan 4').querySelector('.ef-plan__cover')).toBeNull();
  });

  it('keeps exactly the plans that cover all the doctors and drugs when asked, in the order chosen', async () => {
    const list = planList(4);
    // By the yearly estimate the order is 523, 522, 521, 520.
    list.plans = list.plans.map((p, i) => ({
      ...p,
      yearly_cost: { premium: p.rates.total * 12, deductible: 0, cost_sharing: 0, total: 10_000 - i * 100, worst_case: 20_000 },
    }));
    fakeServer(list, { uses: ['medium'], doctors: [LEE], drugs: [METFORMIN, HUMIRA] });
    renderPage();
    const only = (await screen.findByRole('checkbox', { name: ONLY_COVERING.id })) as HTMLInputElement;
    expect(only.checked).toBe(false);
    await waitFor(() => expect(coverLines('Plan 1')).toHaveLength(3));
    expect(cardNames()).toEqual(['Plan 1', 'Plan 2', 'Plan 3', 'Plan 4']);

    fireEvent.click(only);
    await waitFor(() => expect(cardNames()).toEqual(['Plan 1', 'Plan 3']));
    expect(document.querySelector('.ef-plans__count')?.textContent).toBe('2 plans');

    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'yearly' } });
    await waitFor(() => expect(cardNames()).toEqual(['Plan 3', 'Plan 1']));

    fireEvent.click(only);
    await waitFor(() => expect(cardNames()).toEqual(['Plan 4', 'Plan 3', 'Plan 2', 'Plan 1']));
  });

  it('says so when no plan covers them all', async () => {
    fakeServer(planList(2), { uses: ['medium'], doctors: [LEE], drugs: [] }, () => ({
      as_of: [],
      plans: [520, 521].map((plan_id) => ({ plan_id, doctors: [{ npi: LEE.npi, covered: false }], drugs: [], covers_all: false })),
    }));
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: ONLY_COVERING.id }));
    expect(await screen.findByText(NONE_COVER_ALL.id)).toBeTruthy();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('dates the provider and drug information of each carrier below the list', async () => {
    fakeServer(planList(2), { uses: ['medium'], doctors: [LEE], drugs: [] });
    renderPage();
    await waitFor(() => expect(document.querySelectorAll('.ef-plans__as-of li')).toHaveLength(2));
    expect([...document.querySelectorAll('.ef-plans__as-of li')].map((li) => li.textContent)).toEqual([
      'Provider and drug information as of 03/01/2025 (Blue Cross Blue Shield of Michigan)',
      'Provider and drug information as of 02/15/2025 (Priority Health)',
    ]);
    const list = document.querySelector('.ef-plans__list')!;
    expect(list.compareDocumentPosition(document.querySelector('.ef-plans__as-of')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('asks no coverage and offers no filter while the household lists no doctor or drug', async () => {
    const calls = fakeServer(planList(2), { uses: ['medium'], doctors: [], drugs: [] });
    renderPage();
    await screen.findByRole('article', { name: 'Plan 1' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/care')).toBe(true));
    // The panel is there (closed), the coverage is not asked for.
    await waitFor(() => expect(document.querySelector('.ef-care summary')?.textContent).toContain('Your care'));
    expect(coverageCalls(calls)).toHaveLength(0);
    expect(screen.queryByRole('checkbox', { name: ONLY_COVERING.id })).toBeNull();
    expect(document.querySelector('.ef-plan__cover')).toBeNull();
  });

  it('asks the coverage again once a doctor is added, and the cards name the new doctor', async () => {
    const calls = fakeServer(planList(2), { uses: ['medium'], doctors: [LEE], drugs: [] }, (care) => ({
      as_of: [],
      plans: [520, 521].map((plan_id) => ({
        plan_id,
        doctors: care.doctors.map((d) => ({ npi: d.npi, covered: d.npi === LEE.npi || plan_id === 521 })),
        drugs: [],
        covers_all: plan_id === 521 || care.doctors.length === 1,
      })),
    }));
    renderPage();
    await waitFor(() => expect(coverLines('Plan 1')).toEqual(['Dr. Dana Lee In network']));
    expect(coverageCalls(calls)).toHaveLength(1);

    // The panel is open: the household lists a doctor.
    const search = await screen.findByRole('combobox', { name: 'Add a doctor or facility' });
    fireEvent.change(search, { target: { value: 'patel' } });
    await screen.findByRole('option', { name: /Dr. Raj Patel/ });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'Enter' });

    await waitFor(() => expect(coverageCalls(calls)).toHaveLength(2));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ uses: ['medium'], doctors: [LEE.npi, PATEL.npi], drugs: [] });
    await waitFor(() => expect(coverLines('Plan 1')).toEqual(['Dr. Dana Lee In network', 'Dr. Raj Patel Not in network']));
    expect(coverLines('Plan 2')).toEqual(['Dr. Dana Lee In network', 'Dr. Raj Patel In network']);
    expect(document.querySelector('.ef-care summary')?.textContent).toContain('Your care: 2 doctors, 0 prescriptions');
  });
});
