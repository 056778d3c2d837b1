import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { PreviewResult, PreviewSteps, StepView } from '@/types/api';
import { PreviewTab } from '@/features/workbench/components/preview-tab';
import { plan } from '@/features/plans/testing/fixtures';
import { ConsumerForm, ConsumerPlans } from './workbench';
import { jsonResponse as json } from '@/testing/kit';

const steps: PreviewSteps = {
  steps: [
    { id: 'whyApplying', number: 1, route: '/whyapplying', title: 'Why Are You Applying?' },
    { id: 'census', number: 2, route: '/census', title: 'About You' },
    { id: 'medical', number: 3, route: '/medical', title: 'Medical Plans' },
  ],
  rules: 'a2f77e1741640bb49bfe079632e8960d82104761c1400c7b6e075ef7dab1cda3',
  agent_flags: [
    { flag: 'display_bcbsm', carriers: ['Blue Cross Blue Shield of Michigan', 'Blue Care Network of Michigan'] },
    { flag: 'display_ph', carriers: ['Priority Health'] },
  ],
};

const censusView: StepView = {
  step: steps.steps[1]!,
  kind: 'form',
  params: null,
  skipped: false,
  previous: steps.steps[0]!,
  next: steps.steps[2]!,
  schema: {
    type: 'object',
    required: ['sub_first_name', 'sub_last_name'],
    properties: {
      sub_first_name: { type: 'string', title: 'First Name' },
      sub_last_name: { type: 'string', title: 'Last Name' },
      sub_birth_date: { type: 'string', format: 'date', title: 'Birth Date' },
      sub_tobacco: { type: 'integer', title: 'Tobacco Use', oneOf: [{ const: 1, title: 'Yes' }, { const: 0, title: 'No' }] },
    },
  },
  ui: { sub_birth_date: { 'ui:widget': 'us-date' }, sub_tobacco: { 'ui:widget': 'tobacco' } },
  data: { sub_first_name: '' },
  extras: { max_dependents: 15 },
  modals: {},
  refresh_on: [],
  revision: 0,
};


describe('the workbench preview', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let post: (body: unknown) => Response;

  beforeEach(() => {
    post = () =>
      json(200, {
        view: censusView,
        validation: { outcome: 'invalid', errors: { sub_last_name: ['The Last Name field is required.'], email: ['A', 'B'] } },
        plans: null,
      } satisfies PreviewResult);
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/admin/rules/preview') return json(404, { error: 'No such API call.' });
      if (init?.method === 'POST') return post(JSON.parse(String(init.body)));
      return json(200, steps);
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const posted = () => {
    const call = fetchMock.mock.calls.find((c) => c[1]?.method === 'POST');
    return call ? JSON.parse(String(call[1]?.body)) : undefined;
  };

  it('validates the answers for the chosen step and lists the errors per field key', async () => {
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    const step = (await screen.findByLabelText('Step')) as HTMLSelectElement;
    expect(step.value).toBe('whyApplying');
    fireEvent.change(step, { target: { value: 'census' } });
    fireEvent.click(screen.getByLabelText(/display_bcbsm/));
    fireEvent.change(screen.getByLabelText(/Sample answers/), { target: { value: '{"sub_first_name": ""}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));

    const heading = await screen.findByRole('heading', { name: 'Invalid: 2 fields have errors' });
    expect(posted()).toEqual({
      step: 'census',
      applying: 'consumer',
      agent: { offers: ['display_ph'], marketplace_certified: false },
      app: { medical_carrier_id: 1, enrollment_type: 'oe', effective_date: '2025-01-01' },
      answers: { sub_first_name: '' },
    });
    const call = fetchMock.mock.calls.find((c) => c[1]?.method === 'POST');
    expect((call?.[1]?.headers as Record<string, string>)['X-CSRF-Token']).toBe('tok');

    const alert = heading.closest('.ds-c-alert') as HTMLElement;
    const terms = within(alert).getAllByRole('term').map((t) => t.textContent);
    expect(terms).toEqual(['sub_last_name', 'email']);
    const lastName = within(alert).getByText('sub_last_name').closest('.ef-workbench__error') as HTMLElement;
    expect(within(lastName).getByRole('definition').textContent).toBe('The Last Name field is required.');
    expect(within(alert).getByText('B')).toBeTruthy();

    // The consumer's own renderer draws the form (its widgets: the date in three boxes).
    expect(screen.getByRole('textbox', { name: /Last Name/ })).toBeTruthy();
    expect(screen.getAllByRole('radio', { name: 'Yes' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('status')[0]?.textContent).toContain('2. About You');
    const extras = screen.getByRole('region', { name: 'Extras (JSON)', hidden: true });
    expect(JSON.parse(extras.textContent ?? '')).toEqual({ max_dependents: 15 });
  });

  it('asks for the view only with Show form, sending today when given', async () => {
    post = () => json(200, { view: censusView, validation: null });
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    fireEvent.change(await screen.findByLabelText('Today'), { target: { value: '2024-11-20' } });
    fireEvent.change(screen.getByLabelText(/Sample answers/), { target: { value: '{"ignored": true}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show form' }));
    expect(await screen.findByText(/No answers were validated/)).toBeTruthy();
    expect(posted()).toMatchObject({ step: 'whyApplying', today: '2024-11-20' });
    expect(posted()).not.toHaveProperty('answers');
  });

  it('shows where accepted answers go next', async () => {
    post = () =>
      json(200, {
        view: censusView,
        validation: { outcome: 'accepted', next: steps.steps[2]!, modal: 'subsidy', updates: { last_step: 3 }, answers: {} },
      });
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'Accepted' })).toBeTruthy();
    expect(screen.getByText(/Next: Medical Plans/)).toBeTruthy();
    expect(screen.getByText('subsidy')).toBeTruthy();
  });

  it('shows the failing rule of a 400 in an alert', async () => {
    post = () => json(400, { error: 'rules/scripts/enrollment.rhai: function `check` failed: boom' });
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show form' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The rules failed for this context');
    expect(alert.textContent).toContain('enrollment.rhai: function `check` failed: boom');
  });

  it('does not send malformed JSON and says what is wrong', async () => {
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    fireEvent.change(await screen.findByLabelText(/Sample household/), { target: { value: '{"a":' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText(/The application context is not valid JSON/)).toBeTruthy();
    expect(fetchMock.mock.calls.some((c) => c[1]?.method === 'POST')).toBe(false);
  });

  it("continues in the consumer's form: the rules' errors show on the fields, nothing is saved", async () => {
    post = (body) =>
      json(200, {
        view: censusView,
        validation:
          (body as { answers?: unknown }).answers === undefined
            ? null
            : { outcome: 'invalid', errors: { sub_last_name: ['The Last Name field is required.'] } },
      });
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    fireEvent.change(await screen.findByLabelText('Step'), { target: { value: 'census' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show form' }));
    fireEvent.change(await screen.findByRole('textbox', { name: /First Name/ }), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByRole('button', { name: /Continue/ }));
    await waitFor(() => expect(screen.getAllByText('The Last Name field is required.').length).toBeGreaterThan(0));
    const bodies = fetchMock.mock.calls.filter((c) => c[1]?.method === 'POST').map((c) => JSON.parse(String(c[1]?.body)));
    expect(bodies.at(-1)).toMatchObject({ step: 'census', answers: { sub_first_name: 'Ann' } });
    expect(fetchMock.mock.calls.every((c) => String(c[0]) === '/api/admin/rules/preview')).toBe(true);
  });
  it("draws a plan page's quoted plans on the plan pages' own cards", async () => {
    const medical: StepView = { ...censusView, step: steps.steps[2]!, kind: 'plans', schema: null, params: { plan_type: 1 } };
    post = () =>
      json(200, {
        view: medical,
        validation: null,
        plans: {
          household_size: 1,
          none_because: null,
          plans: [plan({ id: 545, name: 'MyPriority Catastrophic HMO', rates: { ...plan().rates, total: 164.37 } }), plan({ id: 520, name: 'Blue Cross Premier PPO Catastrophic', rates: { ...plan().rates, total: 174.65 } })],
        },
      } satisfies PreviewResult);
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    fireEvent.change(await screen.findByLabelText('Step'), { target: { value: 'medical' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show form' }));
    expect(await screen.findByText('2 plans quoted for a household of 1, cheapest first.')).toBeTruthy();
    const cards = screen.getAllByRole('article');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'MyPriority Catastrophic HMO',
      'Blue Cross Premier PPO Catastrophic',
    ]);
    expect(within(cards[0]!).getByText(/164\.37/)).toBeTruthy();
  });

  it('fills the context from a made-up household, and is Custom again once the JSON is edited', async () => {
    render(<PreviewTab consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />);
    const household = (await screen.findByLabelText('Household')) as HTMLSelectElement;
    expect(household.value).toBe('custom');
    expect([...household.options].map((o) => o.textContent)).toEqual([
      'Custom (JSON)',
      'Single adult, 40, Washtenaw 48104',
      'Couple 45/43 with two children, Kent 49503',
      'Family of six, Detroit 48201',
      'Adult 63, tobacco user, Marquette 49855',
      'Child only, 15, Ingham 48933',
    ]);
    fireEvent.change(household, { target: { value: 'couple-two-children' } });
    expect(household.value).toBe('couple-two-children');
    const described = document.getElementById(household.getAttribute('aria-describedby')!.split(' ')[1]!);
    expect(described?.textContent).toMatch(/^Sam Novak: male, 45, no tobacco; spouse: female, 43, no tobacco; 2 dependents: female 12, male 9; ZIP 49503, Kent County \(81\)\./);
    fireEvent.change(screen.getByLabelText('Step'), { target: { value: 'medical' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show form' }));
    await waitFor(() => expect(posted()).toBeDefined());
    expect(posted().app).toMatchObject({
      medical_carrier_id: 1,
      enrollment_type: 'oe',
      effective_date: '2025-01-01',
      census: {
        sub_gender: 'M',
        sub_birth_date: '1979-07-01',
        sub_tobacco: 0,
        residential_zip: '49503',
        residential_county_id: 81,
        spouse: { gender: 'F', birth_date: '1981-07-01', tobacco: 0 },
        dependents: [
          { gender: 'F', birth_date: '2012-07-01' },
          { gender: 'M', birth_date: '2015-07-01' },
        ],
      },
    });

    const app = screen.getByLabelText(/Sample household/) as HTMLTextAreaElement;
    fireEvent.change(app, { target: { value: app.value.replace('49503', '49504') } });
    expect(household.value).toBe('custom');
    expect(app.value).toContain('"49504"');
  });
});
