import { cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { StepView } from '@/types/api';
import { jsonResponse, polyfillDialogs } from '@/testing/kit';
import { StepForm } from './step-form';

// Spec part 2, Other Questions: the dental attestation has a "link 'I want to select a dental plan
// instead' [that] goes to the dental route" - most needed after "Continue without Dental Coverage",
// when the dental step is skipped: it is opened again first (POST .../step/dental/reopen).
const view: StepView = {
  step: { id: 'other', number: 8, route: '/other', title: 'Other Questions' },
  kind: 'form',
  params: null,
  skipped: false,
  previous: { id: 'subInfo', number: 7, route: '/subInfo', title: 'Subscriber Information' },
  next: { id: 'rap', number: 10, route: '/rap', title: 'Review and Purchase' },
  schema: {
    type: 'object',
    properties: {
      bcbsm_dental_confirmation: {
        type: 'integer',
        title: 'Dental Confirmation',
        oneOf: [
          { const: 1, title: 'All applicants are 19 or older' },
          { const: 3, title: 'A qualifying dental plan will be purchased' },
        ],
      },
    },
  },
  ui: {
    bcbsm_dental_confirmation: {
      'ui:widget': 'radio',
      'ui:options': { link: { label: 'I want to select a dental plan instead', href_extra: 'dental_route', reopen: 'dental' } },
    },
  },
  data: null,
  extras: { dental_route: '/dental' },
  modals: {},
  refresh_on: [],
  revision: 0,
};

const json = jsonResponse;

describe('"I want to select a dental plan instead"', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const onNavigate = vi.fn();
  let answer: Response;

  beforeAll(polyfillDialogs);

  beforeEach(() => {
    onNavigate.mockReset();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/application/step/dental/reopen' && init?.method === 'POST') return answer;
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const draw = () => render(<StepForm view={view} applicationId="app-1" agentName={null} onSaved={() => {}} onNavigate={onNavigate} />);

  it('opens the skipped dental step again, then goes to the dental route', async () => {
    answer = json(200, {
      step: { id: 'dental', number: 4, route: '/dental', title: 'Dental Plans' },
      application: { applicationId: 'app-1', lastStep: 8, skipDental: false },
    });
    draw();
    const link = screen.getByRole('link', { name: 'I want to select a dental plan instead' });
    expect(link.getAttribute('href')).toBe('/dental');
    fireEvent.click(link);
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/dental'));
    expect(fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/step/dental/reopen') && init?.method === 'POST')).toBe(true);
  });

  it('says so and stays when the step cannot be opened', async () => {
    answer = json(500, { error: 'Something went wrong!' });
    draw();
    fireEvent.click(screen.getByRole('link', { name: 'I want to select a dental plan instead' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong!');
    expect(onNavigate).not.toHaveBeenCalled();
  });
});
