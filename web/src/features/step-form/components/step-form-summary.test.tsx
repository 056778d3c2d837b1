import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { StepSaved, StepView } from '@/types/api';
import { leavePage } from '../utils/leave';
import { StepForm } from './step-form';
import { polyfillDialogs, jsonResponse as json } from '@/testing/kit';

// The renderer's read-only sections, the Continue button's `requires`, a closed form, dialogs the
// view opens by itself, Return Home and links, on slices of the repository's form files.

vi.mock('../utils/leave', () => ({ leavePage: vi.fn() }));

const rap = { id: 'rap', number: 10, route: '/rap', title: 'Review and Purchase' };
const application = { applicationId: 'app-1', lastStep: 10 } as StepSaved['application'];

// A slice of forms/review_purchase.form.yaml with what purchase::extras gives.
function reviewView(submitted: boolean): StepView {
  return {
    step: rap,
    kind: 'form',
    params: null,
    skipped: false,
    previous: { id: 'other', number: 8, route: '/other', title: 'Other Questions' },
    next: rap,
    schema: {
      type: 'object',
      properties: {
        agree_tc: { type: 'boolean', title: 'I have read and agree to the Terms and Conditions', const: true },
        subscriber_signature: { type: 'string', title: 'Subscriber Signature' },
      },
    },
    ui: {
      'ui:order': ['subscriber_signature', 'agree_tc'],
      'ui:submitButtonOptions': { submitText: 'Purchase', requires: ['agree_tc'], requiresMessage: 'Agree to the Terms and Conditions to purchase.' },
      'ui:options': { closedWhen: 'submitted', openModal: { when: 'submitted', modal: 'thank_you' } },
      'ui:sections': [
        { id: 'thank_you', when: 'submitted', title: 'Thank you!', text: 'Your application has been submitted.', links: [{ label: 'Return Home', action: 'home' }] },
        {
          id: 'applicants',
          title: 'Applicants',
          table: {
            source: 'applicants',
            columns: [
              { key: 'name', title: 'Name' },
              { key: 'birth_date', title: 'Birth Date', format: 'date' },
            ],
          },
        },
        {
          id: 'plans',
          title: 'Your Plans',
          table: {
            source: 'plans.list',
            columns: [
              { key: 'product', title: 'Coverage' },
              { key: 'rate', title: 'Monthly Premium', format: 'money' },
            ],
            total: { label: 'Total Monthly Premium', column: 'rate', key: 'plans.total' },
          },
        },
        { id: 'signatures', unless: 'submitted', before: 'subscriber_signature', title: 'Signatures' },
        { id: 'signatures_text', unless: 'submitted', before: 'subscriber_signature', text: 'Type your name to sign.' },
      ],
      agree_tc: { 'ui:widget': 'terms', 'ui:options': { textExtra: 'terms.text' } },
      subscriber_signature: { 'ui:widget': 'signature' },
    },
    data: null,
    extras: {
      applicants: [
        { name: 'Ann B Lee', birth_date: '1985-03-02' },
        { name: 'Cy Lee', birth_date: '2012-05-01' },
      ],
      plans: { list: [{ product: 'Medical', rate: 612.5 }, { product: 'Dental', rate: 35 }], total: 647.5 },
      terms: { text: ['These terms apply to the individual medical coverage.', 'Dependent children may be covered until they turn 26.'] },
      submitted,
    },
    modals: {
      thank_you: { title: 'Thank you!', body: 'Your application has been submitted.', buttons: [{ label: 'Return Home', action: 'home' }] },
    },
    refresh_on: [],
    revision: 0,
  };
}

describe('StepForm summary sections', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const calls: string[] = [];
  let purchased = false;
  let putAnswer: () => Response;
  const onNavigate = vi.fn();

  beforeAll(() => {
    window.scrollTo = () => {};
    polyfillDialogs();
  });

  beforeEach(() => {
    calls.length = 0;
    purchased = false;
    onNavigate.mockReset();
    vi.mocked(leavePage).mockReset();
    putAnswer = () => {
      purchased = true;
      return json(200, { next: rap, modal: null, application });
    };
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url === '/api/application/step/rap' && init?.method === 'PUT') return putAnswer();
      if (url === '/api/application/step/rap') return json(200, reviewView(purchased));
      if (url === '/api/application/active/reset' && init?.method === 'POST') return json(200, { application: null });
      if (url === '/api/legal/terms') return json(200, { title: 'Terms of Use', html: '<p>Use this site kindly.</p>' });
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const draw = (view: StepView) =>
    render(<StepForm view={view} applicationId="app-1" agentName={null} onSaved={() => {}} onNavigate={onNavigate} />);

  it('shows the review from the extras around the fields', () => {
    draw(reviewView(false));
    const applicants = screen.getByRole('table', { name: 'Applicants' });
    const rows = within(applicants).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['NameBirth Date', 'Ann B Lee03/02/1985', 'Cy Lee05/01/2012']);
    const plans = screen.getByRole('table', { name: 'Your Plans' });
    expect(within(plans).getByRole('rowheader', { name: 'Total Monthly Premium' })).toBeTruthy();
    expect(within(plans).getByText('$647.50')).toBeTruthy();
    expect(within(plans).getByText('$612.50')).toBeTruthy();
    // Sections placed before a field come right before it, in the form file's order.
    const heading = screen.getByRole('heading', { level: 2, name: 'Signatures' });
    const field = screen.getByLabelText('Subscriber Signature');
    expect(heading.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('Type your name to sign.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Thank you!' })).toBeNull();
  });

  it('keeps Purchase disabled until the terms are agreed, then shows the thank-you dialog and goes home', async () => {
    draw(reviewView(false));
    const purchase = screen.getByRole('button', { name: 'Purchase' }) as HTMLButtonElement;
    expect(purchase.disabled).toBe(true);
    expect(purchase.getAttribute('aria-describedby')).toBe('ef-continue-hint');
    expect(screen.getByText('Agree to the Terms and Conditions to purchase.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'View Terms and Conditions' }));
    const terms = screen.getByRole('dialog', { name: 'Terms and Conditions' });
    expect(within(terms).getByText('Dependent children may be covered until they turn 26.')).toBeTruthy();
    fireEvent.click(within(terms).getByRole('button', { name: 'Agree' }));
    expect(purchase.disabled).toBe(false);
    expect(screen.queryByText('Agree to the Terms and Conditions to purchase.')).toBeNull();

    fireEvent.change(screen.getByLabelText('Subscriber Signature'), { target: { value: 'Ann B Lee' } });
    fireEvent.click(purchase);
    // The save stays on the step: its view is read again and shows the purchase.
    const thanks = await screen.findByRole('dialog', { name: 'Thank you!' });
    expect(calls).toEqual(['PUT /api/application/step/rap', 'GET /api/application/step/rap']);
    expect(onNavigate).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('Subscriber Signature')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Purchase' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Previous' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Signatures' })).toBeNull();
    expect(screen.getByRole('table', { name: 'Applicants' })).toBeTruthy();

    fireEvent.click(within(thanks).getByRole('button', { name: 'Return Home' }));
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('/'));
    expect(calls).toContain('POST /api/application/active/reset');
  });

  it('opens the thank-you dialog by itself for a purchased application; closed, it stays closed', () => {
    draw(reviewView(true));
    const thanks = screen.getByRole('dialog', { name: 'Thank you!' });
    fireEvent.click(within(thanks).getByRole('button', { name: 'Close modal dialog' }));
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).toBeNull();
    // The page says so too, with its own Return Home.
    expect(screen.getByRole('heading', { level: 2, name: 'Thank you!' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Return Home' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Purchase' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'View Terms and Conditions' })).toBeNull();
  });

  // Spec part 2, 8: "Purchase: submit_error text is shown in a red alert at the top and blocks the
  // success modal". The server refuses a second purchase with 409 and a submit_error.
  it("tells a second purchase the server's refusal in a red alert, without the Thank-you dialog, and shows the application as it is", async () => {
    putAnswer = () => {
      purchased = true;
      return json(409, { error: 'This application has already been submitted.', submit_error: 'This application has already been submitted.' });
    };
    draw(reviewView(false));
    fireEvent.click(screen.getByRole('button', { name: 'View Terms and Conditions' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Terms and Conditions' })).getByRole('button', { name: 'Agree' }));
    fireEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    // The page shows the purchased application: closed, with its own Return Home.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Purchase' })).toBeNull());
    expect(calls).toEqual(['PUT /api/application/step/rap', 'GET /api/application/step/rap']);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This application has already been submitted.');
    expect(alert.className).toContain('ds-c-alert--error');
    expect(screen.queryByRole('heading', { name: 'Sorry, something went wrong' })).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Return Home' })).toBeTruthy();
  });

  it('still answers a conflict without submit_error with "Sorry, something went wrong" and the page as it is', async () => {
    putAnswer = () => {
      purchased = true;
      return json(409, { error: 'This application has already been submitted.' });
    };
    draw(reviewView(false));
    fireEvent.click(screen.getByRole('button', { name: 'View Terms and Conditions' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Terms and Conditions' })).getByRole('button', { name: 'Agree' }));
    fireEvent.click(screen.getByRole('button', { name: 'Purchase' }));
    expect(await screen.findByRole('heading', { name: 'Sorry, something went wrong' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This application has already been submitted.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Purchase' })).toBeNull());
  });
});

describe('a refused purchase (spec part 2, 8: "submit_error text is shown in a red alert at the top and blocks the success modal")', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const calls: string[] = [];
  let putAnswer: () => Response;

  beforeAll(() => {
    window.scrollTo = () => {};
    polyfillDialogs();
  });

  beforeEach(() => {
    calls.length = 0;
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
      if (String(input) === '/api/application/step/rap' && init?.method === 'PUT') return putAnswer();
      if (String(input) === '/api/application/step/rap') return json(200, reviewView(true));
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const purchase = async () => {
    render(<StepForm view={reviewView(false)} applicationId="app-1" agentName={null} onSaved={() => {}} onNavigate={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'View Terms and Conditions' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Terms and Conditions' })).getByRole('button', { name: 'Agree' }));
    fireEvent.click(screen.getByRole('button', { name: 'Purchase' }));
  };

  it('shows a 422 submit_error in a red alert at the top, scrolled into view, and no Thank-you dialog', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    putAnswer = () => json(422, { submit_error: 'The coverage start date of 11/01/2024 has passed.' });
    await purchase();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The coverage start date of 11/01/2024 has passed.');
    expect(alert.className).toContain('ds-c-alert--error');
    // At the top of the step: under the heading, above the review and the fields.
    expect(alert.compareDocumentPosition(screen.getByRole('table', { name: 'Applicants' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 0 }));
    expect(document.activeElement?.contains(alert)).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).toBeNull();
    expect(calls).toEqual(['PUT /api/application/step/rap']);
    expect((screen.getByRole('button', { name: 'Purchase' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a submit_error that comes with field errors above the error summary', async () => {
    putAnswer = () =>
      json(422, { submit_error: 'The coverage start date of 11/01/2024 has passed.', errors: { subscriber_signature: ['Please sign the application.'] } });
    await purchase();
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    const [refusal, summary] = screen.getAllByRole('alert');
    expect(refusal?.textContent).toContain('The coverage start date of 11/01/2024 has passed.');
    expect(within(summary!).getByRole('link', { name: 'Please sign the application.' }).getAttribute('href')).toBe('#ef_subscriber_signature');
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).toBeNull();
  });

  it('a 200 answer that carries a submit_error does not open the Thank-you dialog either', async () => {
    putAnswer = () =>
      json(200, {
        next: { id: 'rap', number: 10, route: '/rap', title: 'Review and Purchase' },
        modal: null,
        application: { applicationId: 'app-1', lastStep: 10 },
        submit_error: 'Your agent no longer offers plans from Blue Cross Blue Shield of Michigan.',
      });
    await purchase();
    expect((await screen.findByRole('alert')).textContent).toContain('Your agent no longer offers plans');
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).toBeNull();
    expect(calls).toEqual(['PUT /api/application/step/rap']);
  });
});

describe('StepForm links and a required choice', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const onNavigate = vi.fn();

  beforeAll(polyfillDialogs);

  beforeEach(() => {
    onNavigate.mockReset();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/legal/terms'
        ? json(200, { title: 'Terms of Use', html: '<p>Use this site kindly.</p>' })
        : json(404, { error: 'No such API call.' }),
    );
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  // Slices of forms/why_applying.form.yaml and forms/other_questions.form.yaml.
  const view: StepView = {
    step: { id: 'whyApplying', number: 1, route: '/whyapplying', title: 'Why Are You Applying?' },
    kind: 'form',
    params: null,
    skipped: false,
    previous: null,
    next: { id: 'census', number: 2, route: '/census', title: 'About You' },
    schema: {
      type: 'object',
      properties: {
        enrollment_type: { type: 'string', title: 'Why are you applying?', oneOf: [{ const: 'oe', title: 'Open Enrollment' }, { const: 'qle', title: 'Qualifying event' }] },
        bcbsm_dental_confirmation: { type: 'integer', title: 'Dental Confirmation', oneOf: [{ const: 1, title: 'All applicants are 19 or older.' }, { const: 3, title: 'A dental plan will be purchased.' }] },
      },
    },
    ui: {
      'ui:order': ['enrollment_type', 'bcbsm_dental_confirmation'],
      'ui:submitButtonOptions': { showWhenAnswered: ['enrollment_type'] },
      'ui:sections': [
        { id: 'terms_notice', when: 'show_terms_notice', text: 'By continuing, you agree to the Terms of Use of this site.', links: [{ label: 'Read the Terms of Use', document: '/api/legal/terms' }] },
        {
          id: 'open_enrollment',
          after: 'enrollment_type',
          showWhen: { enrollment_type: 'oe' },
          when: 'oep',
          title: 'Open Enrollment',
          details: { source: 'oep', items: [{ key: 'end_date', title: 'Open Enrollment Ends', format: 'date' }] },
        },
      ],
      enrollment_type: { 'ui:widget': 'radio' },
      bcbsm_dental_confirmation: {
        'ui:widget': 'radio',
        'ui:options': { link: { label: 'I want to select a dental plan instead', href_extra: 'dental_route' } },
      },
    },
    data: null,
    extras: { show_terms_notice: true, oep: { end_date: '2025-01-15' }, dental_route: '/dental' },
    modals: {},
    refresh_on: [],
    revision: 0,
  };

  const draw = () => render(<StepForm view={view} applicationId={null} agentName={null} onSaved={() => {}} onNavigate={onNavigate} />);

  // Spec part 2, Why Are You Applying: "Continue appears only once a type is chosen".
  it('shows Continue only once a type is chosen, and shows what the choice brings', () => {
    draw();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Open Enrollment' })).toBeNull();
    fireEvent.click(screen.getByLabelText('Open Enrollment'));
    const next = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(next.disabled).toBe(false);
    expect(screen.getByRole('heading', { level: 2, name: 'Open Enrollment' })).toBeTruthy();
    expect(screen.getByText('01/15/2025')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Qualifying event'));
    expect(screen.queryByRole('heading', { name: 'Open Enrollment' })).toBeNull();
  });

  it("goes to an app page from a field's link and opens a server text from a section's link", async () => {
    draw();
    const link = screen.getByRole('link', { name: 'I want to select a dental plan instead' });
    expect(link.getAttribute('href')).toBe('/dental');
    fireEvent.click(link);
    expect(onNavigate).toHaveBeenCalledWith('/dental');

    expect(screen.getByText('By continuing, you agree to the Terms of Use of this site.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Read the Terms of Use' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terms of Use' });
    expect(await within(dialog).findByText('Use this site kindly.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
