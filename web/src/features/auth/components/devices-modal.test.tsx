import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { Device } from '@/types/api';
import { DEVICES_LOAD_ERROR, DevicesModal, formatDeviceTime, SIGN_OUT_ERROR, SIGNED_OUT } from './devices-modal';
import { polyfillDialogs } from '@/testing/kit';

type Answer = { status: number; body?: unknown };
// Each call takes the next answer queued for it; the last one stays.
const answers = new Map<string, Answer[]>();
const sent: { method: string; url: string; headers: Record<string, string> }[] = [];

function answer(method: string, url: string, ...queue: Answer[]) {
  answers.set(`${method} ${url}`, queue);
}

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const url = String(input);
  sent.push({ method, url, headers: (init?.headers ?? {}) as Record<string, string> });
  const queue = answers.get(`${method} ${url}`) ?? [];
  const a = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 404, body: { error: 'No such API call.' } };
  return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status });
});

/** An alert's text without the design system's screen-reader prefix ("Alert: "). */
const shown = (el: HTMLElement) => (el.textContent ?? '').replace(/^(Success|Alert|Warning|Notice): /, '');

const thisLaptop: Device = {
  id: 's-current',
  created_at: '2024-11-20T14:05:00Z',
  last_seen_at: '2024-11-21T16:30:00Z',
  browser: 'Firefox on macOS',
  current: true,
  acting_as_agent: false,
};
const office: Device = {
  id: 's-office',
  // Just after midnight UTC: still the evening before in Michigan.
  created_at: '2024-11-19T00:30:00Z',
  last_seen_at: '2024-11-21T15:00:00Z',
  browser: 'Chrome on Windows',
  current: false,
  acting_as_agent: false,
};
const phone: Device = {
  id: 's-phone',
  created_at: '2024-07-02T12:00:00Z',
  last_seen_at: '2024-11-20T12:00:00Z',
  browser: 'Safari on iOS',
  current: false,
  acting_as_agent: true,
};

const items = () => within(screen.getByRole('list', { name: 'Your signed-in devices' })).getAllByRole('listitem');

beforeAll(() => {
  polyfillDialogs();
});

beforeEach(() => {
  answers.clear();
  sent.length = 0;
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ csrfToken: () => 'tok', redirectToRoot: () => {} });
});

afterEach(() => {
  cleanup();
  resetApiClient();
});

describe('formatDeviceTime', () => {
  it('shows an instant as Michigan time (America/Detroit), whatever the browser zone', () => {
    expect(formatDeviceTime('2024-11-19T00:30:00Z')).toBe('Nov 18, 2024, 7:30 PM EST');
    expect(formatDeviceTime('2024-07-02T12:00:00Z')).toBe('Jul 2, 2024, 8:00 AM EDT');
    expect(formatDeviceTime('not a time')).toBe('not a time');
  });
});

describe('DevicesModal', () => {
  it('lists the devices, newest activity first, with this device marked and no Sign out of its own', async () => {
    answer('GET', '/api/user/sessions', { status: 200, body: [thisLaptop, office, phone] });
    const onClose = vi.fn();
    render(<DevicesModal isOpen onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Signed-in devices' });
    expect(within(dialog).getByText('Loading…').getAttribute('role')).toBe('status');

    await waitFor(() => expect(items()).toHaveLength(3));
    expect(screen.queryByText('Loading…')).toBeNull();
    const [first, second, third] = items();
    expect(first?.textContent).toContain('Firefox on macOS');
    expect(first?.textContent).toContain('This device');
    expect(within(first as HTMLElement).queryByRole('button')).toBeNull();

    expect(second?.textContent).toContain('Chrome on Windows');
    expect(second?.textContent).not.toContain('This device');
    expect(second?.textContent).toContain('Signed in Nov 18, 2024, 7:30 PM EST');
    expect(second?.textContent).toContain('Last active Nov 21, 2024, 10:00 AM EST');
    expect(within(second as HTMLElement).getByRole('button').getAttribute('aria-label')).toBe(
      'Sign out Chrome on Windows, signed in Nov 18, 2024, 7:30 PM EST',
    );

    expect(third?.textContent).toContain('Acting as an agent');
    expect(third?.querySelector('time')?.getAttribute('dateTime')).toBe('2024-07-02T12:00:00Z');
    expect(screen.getByRole('button', { name: 'Sign out of all other devices' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('signs one device out with DELETE to its URL, says so and reads the list again', async () => {
    answer('GET', '/api/user/sessions', { status: 200, body: [thisLaptop, office, phone] }, { status: 200, body: [thisLaptop, phone] });
    answer('DELETE', '/api/user/sessions/s-office', { status: 204 });
    render(<DevicesModal isOpen onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Sign out Chrome on Windows, signed in/ }));

    await waitFor(() => expect(items()).toHaveLength(2));
    expect(screen.getByText(SIGNED_OUT).getAttribute('role')).toBe('status');
    expect(screen.queryByText('Chrome on Windows')).toBeNull();
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/user/sessions',
      'DELETE /api/user/sessions/s-office',
      'GET /api/user/sessions',
    ]);
    expect(sent[1]?.headers['X-CSRF-Token']).toBe('tok');
    expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Your signed-in devices' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('signs out of all other devices with DELETE /api/user/sessions', async () => {
    answer('GET', '/api/user/sessions', { status: 200, body: [office, thisLaptop, phone] }, { status: 200, body: [thisLaptop] });
    answer('DELETE', '/api/user/sessions', { status: 204 });
    render(<DevicesModal isOpen onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }));

    await waitFor(() => expect(items()).toHaveLength(1));
    expect(screen.getByText(SIGNED_OUT)).toBeTruthy();
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/user/sessions',
      'DELETE /api/user/sessions',
      'GET /api/user/sessions',
    ]);
    // Only this device is left: nothing more to sign out.
    expect(screen.queryByRole('button', { name: /^Sign out/ })).toBeNull();
    expect(screen.getByText('You are not signed in anywhere else.')).toBeTruthy();
  });

  it('shows an alert with Retry when the list cannot be read', async () => {
    answer('GET', '/api/user/sessions', { status: 500, body: { error: 'Something went wrong!' } }, { status: 200, body: [thisLaptop, office] });
    render(<DevicesModal isOpen onClose={() => {}} />);
    const alert = await screen.findByRole('alert');
    expect(shown(alert)).toContain(DEVICES_LOAD_ERROR);
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an alert when a sign-out fails, and keeps the list', async () => {
    answer('GET', '/api/user/sessions', { status: 200, body: [thisLaptop, office] });
    answer('DELETE', '/api/user/sessions/s-office', { status: 500, body: { error: 'Something went wrong!' } });
    render(<DevicesModal isOpen onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Sign out Chrome on Windows/ }));
    const alert = await screen.findByRole('alert');
    expect(shown(alert)).toBe(`${SIGN_OUT_ERROR} Something went wrong!`);
    expect(screen.queryByText(SIGNED_OUT)).toBeNull();
    expect(items()).toHaveLength(2);
    await waitFor(() => expect((screen.getByRole('button', { name: /^Sign out Chrome on Windows/ }) as HTMLButtonElement).disabled).toBe(false));
  });
});
