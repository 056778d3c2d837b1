import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { jsonResponse, polyfillDialogs } from '@/testing/kit';
import { actionLabel, AuditLogPage } from './audit-log-page';
import { SAVED, SecuritySettingsModal } from './security-settings-modal';

const urls: string[] = [];
const bodies: unknown[] = [];
let page: (url: string) => unknown = () => ({ rows: [], next: null, actions: [] });
/** The security settings' save refused this many times for a stale second factor. */
let staleSaves = 0;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  urls.push(url);
  if (init?.body) bodies.push(JSON.parse(String(init.body)));
  if (url.startsWith('/api/admin/security-settings')) {
    if (init?.method === 'PUT' && staleSaves > 0) {
      staleSaves -= 1;
      return jsonResponse(403, { error: 'Please enter a code.', second_factor: 'required' });
    }
    return jsonResponse(200, init?.body ? JSON.parse(String(init.body)) : { second_factor_required_for_agents: false });
  }
  return jsonResponse(200, page(url));
});

const row = (id: number, action: string) => ({
  id,
  at: '2024-11-20T15:00:00Z',
  action,
  actor_id: 'a',
  actor_name: 'Ada Admin',
  subject_id: 'm',
  subject_name: 'Maria Alvarez',
  application_id: null,
  detail: 'GET /api/dashboard/getAppInfo/{id}',
  address: '127.0.0.1',
  request_id: `req-${id}`,
});

beforeAll(() => polyfillDialogs());
beforeEach(() => {
  urls.length = 0;
  bodies.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ csrfToken: () => 'tok', redirectToRoot: () => {} });
});
afterEach(() => {
  cleanup();
  resetApiClient();
});

describe('AuditLogPage', () => {
  it('lists the newest entries, filters by action and person, and pages to older ones', async () => {
    page = (url) =>
      url.includes('before=50')
        ? { rows: [row(1, 'login')], next: null, actions: ['login', 'application_viewed'] }
        : { rows: [row(51, 'application_viewed')], next: 50, actions: ['login', 'application_viewed'] };
    render(<AuditLogPage />);
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Application viewed')).toBeTruthy();
    expect(within(table).getByText('Nov 20, 2024, 10:00:00 AM')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'login' } });
    fireEvent.change(screen.getByLabelText(/^Person's e-mail/), { target: { value: ' maria@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(urls.at(-1)).toBe('/api/admin/audit?action=login&person=maria%40example.com'));
  });

  it('names actions in words', () => {
    expect(actionLabel('second_factor_failed')).toBe('Second factor failed');
  });
});

describe('SecuritySettingsModal', () => {
  it('requires two-step verification of all agents when saved', async () => {
    render(<SecuritySettingsModal isOpen onClose={() => {}} verifyCode={async () => {}} />);
    const box = (await screen.findByLabelText('Require two-step verification for all agents')) as HTMLInputElement;
    expect(box.checked).toBe(false);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(box);
    fireEvent.click(save);
    expect(await screen.findByText(SAVED)).toBeTruthy();
    expect(bodies).toEqual([{ second_factor_required_for_agents: true }]);
  });

  it('asks for a fresh code when the server wants one, then saves', async () => {
    staleSaves = 1;
    const verifyCode = vi.fn(async () => {});
    render(<SecuritySettingsModal isOpen onClose={() => {}} verifyCode={verifyCode} />);
    fireEvent.click(await screen.findByLabelText('Require two-step verification for all agents'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/To change the agents’ two-step verification, enter a code/)).toBeTruthy();
    expect(screen.queryByText(SAVED)).toBeNull();
    fireEvent.change(screen.getByLabelText(/^Authentication code/), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and save' }));
    expect(await screen.findByText(SAVED)).toBeTruthy();
    expect(verifyCode).toHaveBeenCalledWith('654321');
  });
});
