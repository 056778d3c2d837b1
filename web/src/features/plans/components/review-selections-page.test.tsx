import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFlowStore } from '@/lib/flow';
import { testFlow } from '@/testing/flow';
import type { StepView } from '@/types/api';
import { plan } from '../testing/fixtures';
import type { PlanInfo } from '../types';
import { TRY_AGAIN } from './plans-page';
import { missingCoverage, REVIEW_TITLE, ReviewSelectionsPage } from './review-selections-page';

const view: StepView = {
  step: { id: 'review', number: 6, route: '/review', title: 'Review Selections' },
  kind: 'review',
  params: {},
  skipped: false,
  previous: { id: 'dental', number: 4, route: '/dental', title: 'Dental Plans' },
  next: { id: 'subInfo', number: 7, route: '/subInfo', title: 'Subscriber Information' },
  schema: null,
  ui: {},
  data: null,
  extras: {},
  modals: {},
  refresh_on: [],
  revision: 0,
};

const snapshot = (id: number, name: string, rate: number, plan_type: number) => ({
  id,
  name,
  rate,
  carrier: 1,
  carrier_name: 'Blue Cross Blue Shield of Michigan',
  network: null,
  network_name: null,
  metal: plan_type === 1 ? 2 : null,
  metal_name: plan_type === 1 ? 'Silver' : null,
  hsa: false,
  includes_vision: plan_type === 2,
  plan_type,
  plan_year: 2025,
  sbc: null,
});

const info: PlanInfo = {
  medicalPlan: snapshot(531, 'Choice Plus<sup>&reg;</sup> Silver', 412.34, 1),
  dentalPlan: snapshot(623, 'Blue Dental PPO Plus with Blue Vision', 40.1, 2),
  visionPlan: null,
  skipMedical: false,
  skipDental: false,
  skipVision: true,
  total: 452.44,
  effectiveDate: '2025-01-01',
  details: [
    plan({
      id: 531,
      name: 'Choice Plus<sup>&reg;</sup> Silver',
      ded_ind: 5000,
      ded_fam: 10000,
      max_oop: 18400,
      rates: {
        total: 412.34,
        members: [
          { member: 'Subscriber', age: 45, amount: 250, rate: 250, charged: true },
          { member: 'Spouse', age: 43, amount: 162.34, rate: 162.34, charged: true },
        ],
      },
    }),
  ],
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function renderReview(save: () => Response, authenticated = false, shown: PlanInfo = info) {
  const posts: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push(input);
        return save();
      }
      if (input === '/api/plans/planInfo') return json(shown);
      return json({ error: 'no' }, 404);
    }),
  );
  const router = createMemoryRouter(
    [
      { path: '/review', element: <ReviewSelectionsPage stepId="review" view={view} authenticated={authenticated} /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/review'] },
  );
  render(<RouterProvider router={router} />);
  return { router, posts };
}

describe('ReviewSelectionsPage', () => {
  beforeEach(() => {
    useFlowStore.setState({ flow: testFlow({ lastStep: 6 }) });
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(cleanup);

  it('shows the chosen plans with Change Plan links and the total in US dollars', async () => {
    renderReview(() => json({}));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(REVIEW_TITLE.id);
    const medical = await screen.findByRole('article', { name: 'Choice Plus® Silver' });
    expect(within(medical).getByRole('link', { name: 'Change Plan' }).getAttribute('href')).toBe('/medical');
    const dental = screen.getByRole('article', { name: 'Blue Dental PPO Plus with Blue Vision' });
    expect(within(dental).getByRole('link', { name: 'Change Plan' }).getAttribute('href')).toBe('/dental');
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByRole('region', { name: 'Your total cost' }).textContent).toContain('$452.44');
    expect(screen.queryByRole('button', { name: 'Return to dashboard' })).toBeNull();
    expect(within(medical).getByText('Blue Cross Blue Shield of Michigan')).toBeTruthy();
    expect(within(medical).getByText('Silver')).toBeTruthy();
  });

  it('says when coverage starts, who it covers, and each plan’s deductible and out-of-pocket maximum', async () => {
    renderReview(() => json({}));
    const coverage = await screen.findByRole('region', { name: 'Your coverage' });
    expect(within(coverage).getByText('01/01/2025')).toBeTruthy();
    expect(within(coverage).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Subscriber, age 45', 'Spouse, age 43']);
    const medical = screen.getByRole('article', { name: 'Choice Plus® Silver' });
    expect(within(medical).getByText('In-network deductible').nextElementSibling?.textContent).toBe('$5,000 / $10,000');
    expect(within(medical).getByText('Out-of-pocket maximum (two-person)').nextElementSibling?.textContent).toBe('$18,400');
  });

  it('offers to add the dental or vision coverage the household went without', async () => {
    const withoutDental: PlanInfo = { ...info, dentalPlan: null, skipDental: true, skipVision: true, total: 412.34 };
    const { posts } = renderReview(
      () => json({ step: { id: 'dental', number: 4, route: '/dental', title: 'Dental Plans' }, application: {} }),
      false,
      withoutDental,
    );
    expect(await screen.findByRole('region', { name: 'No dental coverage' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'No vision coverage' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add dental coverage' }));
    await waitFor(() => expect(posts).toEqual(['/api/application/step/dental/reopen']));
  });

  it('counts a dental plan that includes vision as vision coverage', () => {
    expect(missingCoverage(info)).toEqual([]);
    expect(missingCoverage({ ...info, dentalPlan: { ...info.dentalPlan!, includes_vision: false } })).toEqual([3]);
    expect(missingCoverage({ ...info, dentalPlan: null })).toEqual([2, 3]);
  });

  it('offers Return to dashboard to a logged-in agent', async () => {
    renderReview(() => json({}), true);
    expect(await screen.findByRole('button', { name: 'Return to dashboard' })).toBeTruthy();
  });

  it('Apply Now saves with no answers and goes on', async () => {
    const { router, posts } = renderReview(() =>
      json({ next: { id: 'subInfo', number: 7, route: '/subInfo', title: '' }, modal: null, application: {} }),
    );
    await screen.findByRole('article', { name: 'Choice Plus® Silver' });
    fireEvent.click(screen.getByRole('button', { name: 'Apply Now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subInfo'));
    expect(posts).toEqual(['/api/application/step/review/continue']);
  });

  it('stays with the alert when Apply Now fails', async () => {
    const { router } = renderReview(() => json({ error: 'Step `review` is saved by its own page.' }, 400));
    await screen.findByRole('article', { name: 'Choice Plus® Silver' });
    fireEvent.click(screen.getByRole('button', { name: 'Apply Now' }));
    expect((await screen.findByRole('alert')).textContent).toContain(TRY_AGAIN.id);
    expect(router.state.location.pathname).toBe('/review');
  });

  it('goes Previous per the view', async () => {
    const { router } = renderReview(() => json({}));
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'));
  });
});
