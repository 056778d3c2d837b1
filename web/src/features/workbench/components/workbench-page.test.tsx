import { cleanup, fireEvent, render, screen } from '@/test/render';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { jsonResponse as json, polyfillDialogs } from '@/testing/kit';
import type { Proposal } from '@/types/api';
import { WorkbenchPage } from './workbench-page';
import { servingStatus } from '../testing/status';

// The draft's code editor as its plain field (the editor's own tests: code-editor.test.tsx).
vi.mock('./code-editor', async () => ({ default: (await import('./plain-editor')).PlainEditor }));

// The Proposals tab in the workbench: `?proposal=` opens one, Back returns to the list.

const status = servingStatus;

const proposal: Proposal = {
  id: 7,
  hash: 'c0ffee1234567890',
  base_hash: 'a1a1a1a1a1a1a1a1',
  engine_hash: 'e2',
  note: 'Plan 523 at $100',
  diff_hash: 'd1',
  state: 'proposed',
  author: 'analyst@enrollflow.example.com',
  author_id: '00000000-0000-0000-0000-000000000001',
  decided_by: null,
  decided_at: null,
  reason: null,
  created_at: '2024-11-20T10:01:00Z',
  evidence: { scenarios: { run: 3, failed: [] } },
};

const ANSWERS: Record<string, unknown> = {
  '/api/admin/rules/status': status,
  '/api/admin/rules/sets': [],
  '/api/admin/rules/scheduled': [],
  '/api/admin/rules/files': [{ path: 'rules/a.yaml', text: 'a: 1' }],
  '/api/admin/rules/proposals': [proposal],
  '/api/admin/rules/proposals/7': { proposal, files: [], serving_moved: false },
};

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

describe('the workbench page', () => {
  beforeEach(() => {
    polyfillDialogs();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input) => {
        const path = String(input);
        return path in ANSWERS ? json(200, ANSWERS[path]) : json(404, { error: 'No such API call.' });
      }),
    );
    configureApiClient({ csrfToken: () => 'tok' });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  it('opens the proposal the address names, and goes back to the list', async () => {
    render(
      <MemoryRouter initialEntries={['/dashboard/rules?tab=proposals&proposal=7']}>
        <WorkbenchPage consumerForm={() => null} consumerPlans={() => null} />
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByRole('tab', { name: 'Proposals' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('3 scenarios run under the proposed set, 0 failed.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to all proposals' }));
    expect(screen.getByTestId('where').textContent).toBe('?tab=proposals');
    const open = await screen.findByRole('button', { name: 'Open proposal 7: Plan 523 at $100' });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Proposals', level: 2 }));
    fireEvent.click(open);
    expect(screen.getByTestId('where').textContent).toBe('?tab=proposals&proposal=7');
  });

  it('keeps the draft while another tab is shown', async () => {
    render(
      <MemoryRouter initialEntries={['/dashboard/rules?tab=draft']}>
        <WorkbenchPage consumerForm={() => null} consumerPlans={() => null} />
      </MemoryRouter>,
    );
    fireEvent.change(await screen.findByLabelText('Contents of rules/a.yaml'), { target: { value: 'a: 2' } });
    fireEvent.change(screen.getByLabelText(/What changes and why/), { target: { value: 'a is 2' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Proposals' }));
    await screen.findByRole('button', { name: 'Open proposal 7: Plan 523 at $100' });
    expect(screen.getByRole('tab', { name: 'Draft and impact' }).getAttribute('aria-selected')).toBe('false');
    fireEvent.click(screen.getByRole('tab', { name: 'Draft and impact' }));
    expect((screen.getByLabelText('Contents of rules/a.yaml') as HTMLTextAreaElement).value).toBe('a: 2');
    expect((screen.getByLabelText(/What changes and why/) as HTMLTextAreaElement).value).toBe('a is 2');
    expect(screen.getByText('1 file(s) differ from the serving set:')).toBeTruthy();
  });
});
