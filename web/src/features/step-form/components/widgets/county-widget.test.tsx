import { cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { StepView } from '@/types/api';
import { jsonResponse, polyfillDialogs } from '@/testing/kit';
import { StepForm } from '../step-form';

// A slice of forms/subscriber_info.form.yaml: the billing block as the server sends it.
const view: StepView = {
  step: { id: 'subInfo', number: 7, route: '/subInfo', title: 'Subscriber Information' },
  kind: 'form',
  params: null,
  skipped: false,
  previous: { id: 'review', number: 6, route: '/review', title: 'Review Selections' },
  next: { id: 'other', number: 8, route: '/other', title: 'Other Questions' },
  schema: {
    type: 'object',
    properties: {
      sub_first_name: { type: 'string', title: 'First Name', maxLength: 30 },
      billing_provided: { type: 'boolean', title: 'Bill me at a different address' },
      billing_state: {
        type: 'string',
        title: 'Billing State',
        oneOf: [
          { const: 'MI', title: 'Michigan' },
          { const: 'OH', title: 'Ohio' },
        ],
      },
      billing_zip: { type: 'string', title: 'Billing ZIP Code', pattern: '^[0-9]{5}$' },
      billing_county_id: { type: 'integer', title: 'Billing County' },
    },
  },
  ui: {
    'ui:order': ['sub_first_name', 'billing_provided', 'billing_state', 'billing_zip', 'billing_county_id', '*'],
    sub_first_name: { 'ui:autocomplete': 'given-name' },
    billing_state: { 'ui:showWhen': { billing_provided: true }, 'ui:autocomplete': 'billing address-level1' },
    billing_zip: { 'ui:widget': 'zip', 'ui:showWhen': { billing_provided: true }, 'ui:autocomplete': 'billing postal-code' },
    billing_county_id: {
      'ui:widget': 'county',
      'ui:options': { zipField: 'billing_zip', stateField: 'billing_state' },
      'ui:showWhen': { billing_provided: true },
    },
  },
  data: { billing_provided: true },
  extras: {},
  modals: {},
  refresh_on: [],
  revision: 0,
};

const json = jsonResponse;

describe('the billing county (spec part 1, 7: billingStateZip/{state}/{zip})', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const asked: string[] = [];

  beforeAll(polyfillDialogs);

  beforeEach(() => {
    asked.length = 0;
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      asked.push(url);
      if (url.endsWith('/billingStateZip/MI/48104')) return json(200, [{ id: 161, description: 'Washtenaw' }]);
      if (url.endsWith('/billingStateZip/MI/48009')) {
        return json(200, [
          { id: 125, description: 'Oakland' },
          { id: 163, description: 'Wayne' },
        ]);
      }
      if (url.endsWith('/billingStateZip/OH/43604')) return json(200, []);
      if (url.endsWith('/billingStateZip/OH/48104')) return json(422, { errors: { billing_zip: ['48104 is not a ZIP code of OH.'] } });
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const draw = () => render(<StepForm view={view} applicationId="app-1" agentName={null} onSaved={() => {}} onNavigate={() => {}} />);
  const choose = (label: RegExp, text: string) => {
    const select = screen.getByLabelText(label) as HTMLSelectElement;
    const option = Array.from(select.options).find((o) => o.text === text);
    fireEvent.change(select, { target: { value: option?.value } });
  };

  it('an Ohio billing address is looked up by state and ZIP: no county to choose and no Residency Notice', async () => {
    draw();
    choose(/Billing State/, 'Ohio');
    fireEvent.change(screen.getByLabelText(/Billing ZIP Code/), { target: { value: '43604' } });
    await waitFor(() => expect(asked.some((u) => u.endsWith('/api/application/app-1/billingStateZip/OH/43604'))).toBe(true));
    expect(asked.some((u) => u.includes('/countyList/'))).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText(/Residency Notice/)).toBeNull();
    expect(screen.queryByLabelText(/Billing County/)).toBeNull();
  });

  it('a ZIP the billing state does not have is said at once', async () => {
    draw();
    choose(/Billing State/, 'Ohio');
    fireEvent.change(screen.getByLabelText(/Billing ZIP Code/), { target: { value: '48104' } });
    expect((await screen.findByRole('alert')).textContent).toContain('48104 is not a ZIP code of OH.');
  });

  it("a Michigan billing ZIP with two counties offers them; the state's change reloads them", async () => {
    draw();
    choose(/Billing State/, 'Michigan');
    fireEvent.change(screen.getByLabelText(/Billing ZIP Code/), { target: { value: '48009' } });
    const county = (await screen.findByLabelText(/Billing County/)) as HTMLSelectElement;
    expect(Array.from(county.options).map((o) => o.text)).toEqual(['Select', 'Oakland', 'Wayne']);
    choose(/Billing State/, 'Ohio');
    await waitFor(() => expect(asked.some((u) => u.endsWith('/billingStateZip/OH/48009'))).toBe(true));
  });

  it('a new five-digit ZIP clears the county and keeps Continue disabled until its counties are in (spec part 2, 5)', async () => {
    let answer: (r: Response) => void = () => {};
    draw();
    choose(/Billing State/, 'Michigan');
    fireEvent.change(screen.getByLabelText(/Billing ZIP Code/), { target: { value: '48009' } });
    const county = (await screen.findByLabelText(/Billing County/)) as HTMLSelectElement;
    fireEvent.change(county, { target: { value: '125' } });
    // The next look-up is answered only when the test says so.
    fetchMock.mockImplementationOnce(
      (input) =>
        new Promise<Response>((resolve) => {
          asked.push(String(input));
          answer = resolve;
        }),
    );
    fireEvent.change(screen.getByLabelText(/Billing ZIP Code/), { target: { value: '48104' } });
    const continueButton = () => screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    await waitFor(() => expect(asked.some((u) => u.endsWith('/billingStateZip/MI/48104'))).toBe(true));
    expect(continueButton().disabled).toBe(true);
    answer(json(200, [{ id: 161, description: 'Washtenaw' }]));
    await waitFor(() => expect(continueButton().disabled).toBe(false));
    // The county of the old ZIP is gone: the new ZIP's only county is chosen.
    expect(screen.queryByRole('option', { name: 'Oakland' })).toBeNull();
  });

  it('fields carry the WCAG 1.3.5 autocomplete tokens of the form file', () => {
    draw();
    expect(screen.getByLabelText(/First Name/).getAttribute('autocomplete')).toBe('given-name');
    expect(screen.getByLabelText(/Billing ZIP Code/).getAttribute('autocomplete')).toBe('billing postal-code');
    expect(screen.getByLabelText(/Billing State/).getAttribute('autocomplete')).toBe('billing address-level1');
  });
});
