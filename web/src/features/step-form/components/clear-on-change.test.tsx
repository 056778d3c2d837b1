import { cleanup, fireEvent, render, screen } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { StepView } from '@/types/api';
import { StepForm } from './step-form';

// Spec part 2, 4: "Changing the reason clears the start date option" (forms/why_applying.form.yaml
// `ui:clearOnChange: { enrollment_reason_id: [start_date_option_id] }`).
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
      enrollment_reason_id: {
        type: 'integer',
        title: 'Qualifying Event',
        oneOf: [
          { const: 2, title: 'Got married' },
          { const: 4, title: 'Moved to Michigan' },
        ],
      },
      start_date_option_id: {
        type: 'integer',
        title: 'Coverage Start Date',
        oneOf: [
          { const: 1, title: 'The date of the event' },
          { const: 2, title: 'The first of the month after the application' },
        ],
      },
    },
  },
  ui: {
    'ui:clearOnChange': { enrollment_reason_id: ['start_date_option_id'] },
    enrollment_reason_id: { 'ui:widget': 'radio' },
    start_date_option_id: { 'ui:widget': 'radio' },
  },
  data: null,
  extras: {},
  modals: {},
  refresh_on: [],
  revision: 0,
};

describe('ui:clearOnChange', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 404 })),
    );
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  it('changing the reason clears the start date option', () => {
    render(<StepForm view={view} applicationId="app-1" agentName={null} onSaved={() => {}} onNavigate={() => {}} />);
    fireEvent.click(screen.getByLabelText('Got married'));
    fireEvent.click(screen.getByLabelText('The date of the event'));
    expect((screen.getByLabelText('The date of the event') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('Moved to Michigan'));
    expect((screen.getByLabelText('The date of the event') as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText('The first of the month after the application') as HTMLInputElement).checked).toBe(false);
  });
});
