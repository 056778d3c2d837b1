import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { StepSaved, StepView } from '@/types/api';
import { ERROR_BANNER, StepForm } from './step-form';
import { polyfillDialogs, jsonResponse as json } from '@/testing/kit';

const census = { id: 'census', number: 2, route: '/census', title: 'About You' };

// A slice of forms/census.form.yaml as the server sends it.
const view: StepView = {
  step: census,
  kind: 'form',
  params: null,
  skipped: false,
  previous: { id: 'whyApplying', number: 1, route: '/whyapplying', title: 'Why Are You Applying?' },
  next: { id: 'medical', number: 3, route: '/medical', title: 'Medical Plans' },
  schema: {
    type: 'object',
    required: ['sub_first_name', 'sub_birth_date'],
    properties: {
      sub_first_name: { type: 'string', title: 'First Name', maxLength: 30 },
      sub_gender: { type: 'string', title: 'Gender', oneOf: [{ const: 'M', title: 'Male' }, { const: 'F', title: 'Female' }] },
      sub_birth_date: { type: 'string', format: 'date', title: 'Birth Date' },
      sub_tobacco: { type: 'integer', title: 'Tobacco Use', oneOf: [{ const: 1, title: 'Yes' }, { const: 0, title: 'No' }] },
      residential_zip: { type: 'string', title: 'ZIP Code' },
      spouse: {
        type: 'object',
        title: 'Spouse',
        'x-error-prefix': 'spouse_',
        properties: { gender: { type: 'string', title: 'Gender', oneOf: [{ const: 'M', title: 'Male' }, { const: 'F', title: 'Female' }] } },
      },
      dependents: {
        type: 'array',
        title: 'Dependents',
        maxItems: 2,
        'x-error-prefix': 'dependent{n}_',
        items: { type: 'object', properties: { birth_date: { type: 'string', format: 'date', title: 'Birth Date' } } },
      },
      medicare_eligible: { type: 'integer', title: 'Medicare Eligible?', oneOf: [{ const: 1, title: 'Yes' }, { const: 0, title: 'No' }] },
    },
  },
  ui: {
    'ui:order': ['sub_first_name', 'sub_gender', 'sub_birth_date', 'sub_tobacco', 'residential_zip', 'spouse', 'dependents', '*'],
    sub_gender: { 'ui:widget': 'radio' },
    sub_birth_date: { 'ui:widget': 'us-date' },
    sub_tobacco: { 'ui:widget': 'tobacco', 'ui:options': { minAge: 18 } },
    residential_zip: { 'ui:widget': 'zip' },
    spouse: { 'ui:options': { addLabel: 'Add a spouse', removeLabel: 'Remove' }, gender: { 'ui:widget': 'radio' } },
    dependents: {
      'ui:options': { addLabel: 'Add a dependent', removeLabel: 'Remove', itemTitle: 'Dependent {n}' },
      items: { birth_date: { 'ui:widget': 'us-date' } },
    },
    medicare_eligible: { 'ui:widget': 'hidden' },
  },
  data: null,
  extras: { age_reference_date: '2025-01-01' },
  modals: {
    medicare: {
      title: 'Medicare Eligible?',
      body: 'Are you, or is anyone on this application, eligible for Medicare?',
      buttons: [
        { label: 'No', action: 'submit', set: { medicare_eligible: 0 } },
        { label: 'Continue with Dental/Vision Only', action: 'submit', set: { medicare_eligible: 1 }, requires: 'dental_vision_only_available' },
      ],
    },
  },
  refresh_on: [],
  revision: 7,
};

const application = { applicationId: 'app-1', lastStep: 3 } as StepSaved['application'];

describe('StepForm', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const puts: unknown[] = [];
  /** Each PUT's If-Match header. */
  const ifMatch: (string | undefined)[] = [];
  let answer: (body: Record<string, unknown>) => Response;
  const onNavigate = vi.fn();
  const onSaved = vi.fn();

  beforeAll(() => {
    window.scrollTo = () => {};
    polyfillDialogs();
  });

  beforeEach(() => {
    puts.length = 0;
    ifMatch.length = 0;
    onNavigate.mockReset();
    onSaved.mockReset();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/application/step/census' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        puts.push(body);
        ifMatch.push((init.headers as Record<string, string> | undefined)?.['If-Match']);
        return answer(body);
      }
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const draw = () =>
    render(<StepForm view={view} applicationId="app-1" agentName="Alex Acme" onSaved={onSaved} onNavigate={onNavigate} />);

  it('sends the answers as the server takes them and goes where it says', async () => {
    answer = () => json(200, { next: { id: 'medical', number: 3, route: '/medical', title: 'Medical Plans' }, modal: null, application });
    draw();
    expect(screen.getByRole('heading', { level: 1, name: 'About You' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('First Name'), { target: { value: 'Ann' } });
    fireEvent.click(within(screen.getByRole('radiogroup', { name: 'Gender' })).getByLabelText('Female'));
    fireEvent.change(screen.getByLabelText(/Birth Date/), { target: { value: '03021985' } });
    expect((screen.getByLabelText(/Birth Date/) as HTMLInputElement).value).toBe('03/02/1985');
    fireEvent.click(within(screen.getByRole('radiogroup', { name: /Tobacco Use/ })).getByLabelText('No'));
    fireEvent.change(screen.getByLabelText(/ZIP Code/), { target: { value: '48104-77' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/medical'));
    expect(puts[0]).toEqual({ sub_first_name: 'Ann', sub_gender: 'F', sub_birth_date: '1985-03-02', sub_tobacco: 0, residential_zip: '48104' });
    expect(onSaved).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onNavigate).toHaveBeenLastCalledWith('/whyapplying');
  });

  it('keeps tobacco disabled until the birth date makes the person 18', () => {
    draw();
    const tobacco = () => within(screen.getByRole('radiogroup', { name: /Tobacco Use/ })).getByLabelText('Yes') as HTMLInputElement;
    expect(tobacco().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Birth Date/), { target: { value: '01/01/2007' } });
    expect(tobacco().disabled).toBe(false);
    fireEvent.change(screen.getByLabelText(/Birth Date/), { target: { value: '01/02/2007' } });
    expect(tobacco().disabled).toBe(true);
  });

  it('shows the server errors under their fields with the banner', async () => {
    answer = () =>
      json(422, {
        errors: {
          sub_first_name: ['The First Name may not be greater than 30 characters.'],
          dependent1_birth_date: ['The Birth Date field is required.'],
          medicare_eligible: ['Not for this agent.'],
        },
      });
    draw();
    fireEvent.click(screen.getByRole('button', { name: 'Add a dependent' }));
    expect(screen.getByRole('group', { name: 'Dependent 1' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(ERROR_BANNER.id);
    // An error for a field not on the page is told in the banner.
    expect(banner.textContent).toContain('Not for this agent.');
    expect(screen.getByLabelText('First Name').getAttribute('aria-invalid')).toBe('true');
    const first = screen.getByLabelText('First Name');
    expect(within(first.closest('.ef-field') ?? document.body).getByText('The First Name may not be greater than 30 characters.')).toBeTruthy();
    const dependent = screen.getByRole('group', { name: 'Dependent 1' });
    expect(within(dependent).getByText('The Birth Date field is required.')).toBeTruthy();
    expect(onNavigate).not.toHaveBeenCalled();
  });

  // The CMS Design System's error summary: "when a step save fails with field errors, show at the
  // top of the step a summary box listing each error as a link (<a href="#field-id">) to its field;
  // move focus to the summary on a failed Continue; clicking a link focuses the field."
  it('sums the errors up at the top, each a link to its field, and moves focus there', async () => {
    answer = () =>
      json(422, {
        errors: {
          dependent1_birth_date: ['The Birth Date field is required.'],
          sub_gender: ['The Gender field is required.'],
          sub_first_name: ['The First Name may not be greater than 30 characters.'],
        },
      });
    draw();
    fireEvent.click(screen.getByRole('button', { name: 'Add a dependent' }));
    const next = screen.getByRole('button', { name: 'Continue' });
    fireEvent.click(next);
    const summary = await screen.findByRole('alert');
    // The summary sits at the top of the step, above the fields, with the banner's text.
    expect(summary.textContent).toContain(ERROR_BANNER.id);
    expect(summary.compareDocumentPosition(screen.getByLabelText('First Name')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const links = within(summary).getAllByRole('link');
    // In the order of the form, a card's fields named with the card.
    expect(links.map((l) => l.textContent)).toEqual([
      'The First Name may not be greater than 30 characters.',
      'The Gender field is required.',
      'Dependent 1: The Birth Date field is required.',
    ]);
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['#ef_sub_first_name', '#ef_sub_gender__choice--0', '#ef_dependents_0_birth_date']);
    // Focus goes to the summary itself (focusable, not in the tab order).
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(summary.getAttribute('tabindex')).toBe('-1');
    Element.prototype.scrollIntoView = () => {};
    fireEvent.click(links[2]!);
    expect(document.activeElement?.id).toBe('ef_dependents_0_birth_date');
    fireEvent.click(links[1]!);
    expect(document.activeElement).toBe(within(screen.getByRole('radiogroup', { name: 'Gender' })).getByLabelText('Male'));
    fireEvent.click(links[0]!);
    expect(document.activeElement).toBe(screen.getByLabelText('First Name'));
    // Continue refused again: focus goes back to the summary.
    fireEvent.click(next);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });

  it('lists the errors in the order of the fields on the page (ui:order), whatever the order of the schema', async () => {
    answer = () =>
      json(422, { errors: { sub_first_name: ['The First Name field is required.'], residential_zip: ['The ZIP Code field is required.'], sub_gender: ['The Gender field is required.'] } });
    const order = ['residential_zip', 'sub_gender', 'sub_first_name', 'sub_birth_date', 'sub_tobacco', 'spouse', 'dependents', '*'];
    render(<StepForm view={{ ...view, ui: { ...view.ui, 'ui:order': order } }} applicationId="app-1" agentName={null} onSaved={onSaved} onNavigate={onNavigate} />);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'The ZIP Code field is required.',
      'The Gender field is required.',
      'The First Name field is required.',
    ]);
  });

  // Spec part 1, 8: "census failure | show the server errors map (per field or as a list), scroll to
  // top; census also shows 'Sorry, something went wrong'" (the form's failureWithFieldErrors).
  it('also says "Sorry, something went wrong" when the form asks for it', async () => {
    answer = () => json(422, { errors: { sub_first_name: ['The First Name field is required.'] } });
    render(
      <StepForm
        view={{ ...view, ui: { ...view.ui, 'ui:options': { failureWithFieldErrors: true } } }}
        applicationId="app-1"
        agentName={null}
        onSaved={onSaved}
        onNavigate={onNavigate}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Sorry, something went wrong' })).toBeTruthy();
    expect(screen.getByText(ERROR_BANNER.id)).toBeTruthy();
  });

  it('adds and removes the optional spouse and dependents up to the maximum', () => {
    draw();
    fireEvent.click(screen.getByRole('button', { name: 'Add a spouse' }));
    expect(screen.getByRole('group', { name: 'Spouse' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Spouse' }));
    expect(screen.queryByRole('group', { name: 'Spouse' })).toBeNull();
    const add = screen.getByRole('button', { name: 'Add a dependent' }) as HTMLButtonElement;
    fireEvent.click(add);
    fireEvent.click(add);
    expect(screen.getByRole('group', { name: 'Dependent 2' })).toBeTruthy();
    expect(add.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Dependent 1' }));
    expect(screen.queryByRole('group', { name: 'Dependent 2' })).toBeNull();
    expect(add.disabled).toBe(false);
  });

  it('asks the dialog the server names and sends its answer with the same answers', async () => {
    answer = (body) =>
      body.medicare_eligible === undefined
        ? json(200, { next: census, modal: 'medicare', application })
        : json(200, { next: { id: 'medical', number: 3, route: '/medical', title: 'Medical Plans' }, modal: null, application });
    draw();
    fireEvent.change(screen.getByLabelText('First Name'), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Are you, or is anyone on this application, eligible for Medicare?');
    // The agent offers no dental/vision-only coverage (no `dental_vision_only_available`).
    expect((within(dialog).getByRole('button', { name: 'Continue with Dental/Vision Only' }) as HTMLButtonElement).disabled).toBe(true);
    // The two answers weigh the same: neither is drawn as a bare link beside a solid button.
    const looks = within(dialog)
      .getAllByRole('button')
      .filter((b) => ['No', 'Continue with Dental/Vision Only'].includes(b.textContent ?? ''))
      .map((b) => [...b.classList].filter((c) => c.startsWith('ds-c-button--')).sort().join(' '));
    expect(looks).toHaveLength(2);
    expect(looks[0]).toBe(looks[1]);
    expect(looks[0]).not.toContain('ghost');
    fireEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/medical'));
    expect(puts[1]).toEqual({ sub_first_name: 'Ann', medicare_eligible: 0 });
  });

  // "saves carry the revision the browser read; a save against a newer revision
  // is 409 with a clear message in the wizard … never a silent overwrite".
  it("sends the view's revision with a save, then each save's own", async () => {
    answer = (body) =>
      body.medicare_eligible === undefined
        ? json(200, { next: census, modal: 'medicare', application, revision: 8 })
        : json(200, { next: { id: 'medical', number: 3, route: '/medical', title: 'Medical Plans' }, modal: null, application, revision: 9 });
    draw();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/medical'));
    expect(ifMatch).toEqual(['"7"', '"8"']);
  });

  it('a save against a newer revision says so at the top and shows the application as it is', async () => {
    const message = 'This application was changed in another window or by someone else since this page was opened.';
    answer = () => json(409, { error: message, submit_error: message });
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'PUT') return answer({});
      if (String(input) === '/api/application/step/census') return json(200, { ...view, data: { sub_first_name: 'Bo' }, revision: 9 });
      return json(404, { error: 'No such API call.' });
    });
    draw();
    fireEvent.change(screen.getByLabelText('First Name'), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('changed in another window');
    await waitFor(() => expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('Bo'));
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('never submits on Enter', () => {
    answer = () => json(200, { next: census, modal: null, application });
    draw();
    const input = screen.getByLabelText('First Name');
    const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    fireEvent.submit(input.closest('form')!);
    expect(puts).toHaveLength(0);
  });
});

// A slice of forms/why_applying.form.yaml: the document goes after the step is saved.
const whyApplying: StepView = {
  step: { id: 'whyApplying', number: 1, route: '/whyapplying', title: 'Why Are You Applying?' },
  kind: 'form',
  params: null,
  skipped: false,
  previous: null,
  next: census,
  schema: {
    type: 'object',
    properties: {
      enrollment_type: { type: 'string', title: 'Why are you applying?', oneOf: [{ const: 'oe', title: 'Open Enrollment' }, { const: 'qle', title: 'Qualifying event' }] },
      enrollment_reason_file_name: {
        type: 'string',
        title: 'Upload documentation (PDF, 3 MB at most)',
        readOnly: true,
        'x-upload': { url: '/api/whyapplying/fileupload', accept: 'application/pdf', max_bytes: 3145728 },
        'x-messages': { max_bytes: 'The file you chose is larger than the maximum 3 MB allowed.' },
      },
    },
  },
  ui: {
    enrollment_type: { 'ui:widget': 'radio' },
    enrollment_reason_file_name: { 'ui:widget': 'pdf-upload', 'ui:showWhen': { enrollment_type: 'qle' } },
  },
  data: null,
  extras: {},
  modals: {},
  refresh_on: [],
  revision: 0,
};

describe('StepForm uploads', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const calls: string[] = [];
  const onNavigate = vi.fn();

  beforeEach(() => {
    calls.length = 0;
    onNavigate.mockReset();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url === '/api/application/step/whyApplying' && init?.method === 'PUT') {
        return json(200, { next: census, modal: null, application });
      }
      if (url === '/api/whyapplying/fileupload' && init?.method === 'POST') {
        const file = (init.body as FormData).get('file') as File;
        return json(200, { document_id: 'd-1', file_name: file.name });
      }
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const draw = () =>
    render(<StepForm view={whyApplying} applicationId={null} agentName={null} onSaved={() => {}} onNavigate={onNavigate} />);

  it('refuses a file over 3 MB with the message and clears the input', () => {
    draw();
    expect(screen.queryByLabelText(/Upload documentation/)).toBeNull();
    fireEvent.click(screen.getByLabelText('Qualifying event'));
    const input = screen.getByLabelText(/Upload documentation/) as HTMLInputElement;
    const big = new File([new Uint8Array(3145729)], 'proof.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(screen.getByText('The file you chose is larger than the maximum 3 MB allowed.')).toBeTruthy();
    expect(input.value).toBe('');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('saves the step, then uploads the chosen PDF, then goes on', async () => {
    draw();
    fireEvent.click(screen.getByLabelText('Qualifying event'));
    const pdf = new File(['%PDF-1.4'], 'proof.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText(/Upload documentation/), { target: { files: [pdf] } });
    expect(screen.getByText('Selected: proof.pdf')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/census'));
    expect(calls).toEqual(['PUT /api/application/step/whyApplying', 'POST /api/whyapplying/fileupload']);
  });

  it('forgets a chosen file when its field goes away', async () => {
    draw();
    fireEvent.click(screen.getByLabelText('Qualifying event'));
    const pdf = new File(['%PDF-1.4'], 'proof.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText(/Upload documentation/), { target: { files: [pdf] } });
    fireEvent.click(screen.getByLabelText('Open Enrollment'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/census'));
    expect(calls).toEqual(['PUT /api/application/step/whyApplying']);
  });
});
