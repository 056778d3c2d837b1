import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { useShellStore } from '../stores/shell-store';
import type { AgentMessage, DashboardShell as Shell } from '../types';
import { DashboardActionsContext, type DashboardActions } from './dashboard-actions';
import { DashboardHome } from './dashboard-home';
import { DashboardShell } from './dashboard-shell';
import { NO_NEW_NOTIFICATIONS, NotificationsCard } from './notifications-card';
import { NO_NOTIFICATIONS, RecentNotificationsPage } from './recent-notifications';
import { DASHBOARD_ERROR } from './texts';

type Answer = { status: number; body?: unknown } | (() => Promise<Response>);
const answers = new Map<string, Answer>();
const calls: { method: string; url: string }[] = [];

function respond(a: Answer): Promise<Response> {
  if (typeof a === 'function') return a();
  return Promise.resolve(
    a.status === 204 ? new Response(null, { status: 204 }) : new Response(JSON.stringify(a.body ?? {}), { status: a.status }),
  );
}

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  calls.push({ method, url });
  const a = answers.get(`${method} ${url}`) ?? answers.get(url) ?? { status: 404, body: { error: 'No such API call.' } };
  return respond(a);
});

const msg = (id: string, extra: Partial<AgentMessage> = {}): AgentMessage => ({
  id,
  title: `Title ${id}`,
  content: `<p>Content ${id}<script>alert(1)</script></p>`,
  is_sticky: false,
  publish_date: '2024-11-01',
  expiration_date: null,
  code: null,
  created_at_formatted: '11/01/2024',
  dismissed: false,
  agents: [],
  ...extra,
});

const shell = (extra: Partial<Shell> = {}): Shell => ({
  agent_full_name: 'Maria Alvarez',
  user_full_name: 'Maria Alvarez',
  display_medicare: true,
  medicare_url: 'https://medicare.example.com/quote',
  marketplace_links: [{ title: 'Blue Cross Marketplace', url: 'https://blue.example.com' }],
  account_manager: { name: 'Sam Manager', email: 'sam@example.com', phone: '5175550199' },
  subdomains: ['acme', 'acmeins'],
  has_application: true,
  ...extra,
});

beforeEach(() => {
  answers.clear();
  calls.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  configureApiClient({ csrfToken: () => 'tok', redirectToRoot: () => {} });
  useShellStore.setState({ shell: null, error: false });
});

afterEach(() => {
  cleanup();
  resetApiClient();
});

const inRouter = (ui: React.ReactNode) => render(<MemoryRouter>{ui}</MemoryRouter>);

describe('NotificationsCard', () => {
  it('shows a grey 0 badge and the empty text', async () => {
    answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [] } });
    inRouter(<NotificationsCard />);
    expect(await screen.findByText(NO_NEW_NOTIFICATIONS)).toBeTruthy();
    expect(NO_NEW_NOTIFICATIONS).toBe('You don’t have any new notifications');
    const badge = screen.getByTestId('notifications-count');
    expect(badge.textContent).toBe('0');
    expect(badge.className).not.toContain('ds-c-badge--alert');
    expect(badge.className).toContain('ef-count--none');
    expect(screen.getByRole('link', { name: 'View All Recent Notifications' }).getAttribute('href')).toBe(
      '/dashboard/recentNotifications',
    );
  });

  it('shows a red count, sanitized HTML and Dismiss only on messages that are not sticky', async () => {
    answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [msg('a'), msg('b', { is_sticky: true })] } });
    const { container } = inRouter(<NotificationsCard />);
    expect(await screen.findByText('Content a')).toBeTruthy();
    const badge = screen.getByTestId('notifications-count');
    expect(badge.textContent).toBe('2');
    expect(badge.className).toContain('ds-c-badge--alert');
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getAllByRole('button', { name: /Dismiss/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Dismiss Title a' })).toBeTruthy();
  });

  it('removes a dismissed message before the server answers', async () => {
    let release: (r: Response) => void = () => {};
    answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [msg('a'), msg('b')] } });
    answers.set('PUT /api/dashboard/dismissMessage/a', () => new Promise<Response>((r) => (release = r)));
    inRouter(<NotificationsCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss Title a' }));
    expect(screen.queryByText('Content a')).toBeNull();
    expect(screen.getByTestId('notifications-count').textContent).toBe('1');
    expect(calls.at(-1)).toEqual({ method: 'PUT', url: '/api/dashboard/dismissMessage/a' });
    await act(async () => release(new Response(null, { status: 204 })));
    expect(screen.queryByText('Content a')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('puts the message back in place with the alert when the dismiss fails', async () => {
    answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [msg('a'), msg('b'), msg('c')] } });
    answers.set('PUT /api/dashboard/dismissMessage/b', { status: 500, body: { error: 'Something went wrong!' } });
    inRouter(<NotificationsCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss Title b' }));
    expect(await screen.findByText(DASHBOARD_ERROR)).toBeTruthy();
    const items = screen.getAllByRole('listitem').map((li) => li.getAttribute('data-message-id'));
    expect(items).toEqual(['a', 'b', 'c']);
    expect(screen.getByTestId('notifications-count').textContent).toBe('3');
  });

  it('says so when the messages cannot be loaded', async () => {
    answers.set('/api/dashboard/getMessages', { status: 500, body: { error: 'x' } });
    inRouter(<NotificationsCard />);
    expect(await screen.findByText(DASHBOARD_ERROR)).toBeTruthy();
  });
});

describe('RecentNotificationsPage', () => {
  it('lists current (dismissable) and old (no button) messages; a dismiss reloads the old ones', async () => {
    answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [msg('a')] } });
    answers.set('/api/dashboard/getOldMessages', { status: 200, body: { messages: [msg('old', { dismissed: true })] } });
    answers.set('PUT /api/dashboard/dismissMessage/a', { status: 204 });
    inRouter(<RecentNotificationsPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Notifications in the past 30 days');
    expect(await screen.findByText('Content old')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Dismiss/ })).toHaveLength(1);
    const oldLoads = () => calls.filter((c) => c.url === '/api/dashboard/getOldMessages').length;
    expect(oldLoads()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss Title a' }));
    await waitFor(() => expect(oldLoads()).toBe(2));
  });

  it('shows the empty text', async () => {
    answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [] } });
    answers.set('/api/dashboard/getOldMessages', { status: 200, body: { messages: [] } });
    inRouter(<RecentNotificationsPage />);
    expect(await screen.findByText(NO_NOTIFICATIONS)).toBeTruthy();
    expect(NO_NOTIFICATIONS).toBe('There aren’t any notifications to show');
  });
});

function homeAnswers(extra: { ytd?: unknown; carriers?: unknown; individual?: unknown } = {}) {
  answers.set('/api/dashboard/getMessages', { status: 200, body: { messages: [] } });
  answers.set('/api/dashboard/countdownIndividual', { status: 200, body: extra.individual ?? { days: 12, message: 'Open enrollment ends soon' } });
  answers.set('/api/dashboard/countdownMedicare', { status: 200, body: { days: 20, message: 'Medicare AEP ends' } });
  const row = {
    application_id: 'q1',
    first_name: 'Zoe',
    last_name: 'Quotewright',
    full_name: 'Zoe Quotewright',
    sub_email: 'z@example.com',
    created_at: '2024-11-02T10:00:00Z',
    updated_at: '2024-11-02T10:00:00Z',
    submission_time: null,
    effective_date: '2025-01-01',
    period_badge: 'OEP',
    contract_count: 1,
    last_application_step_type_id: 2,
    medical_plan_name: null,
    dental_plan_name: null,
    vision_plan_name: null,
  };
  answers.set('/api/dashboard/quotes?resultsPerPage=5&sortCol=created_at&sortOrderAsc=false', {
    status: 200,
    body: { total: 1, page: 1, pages: 1, rows: [row], subdomains: [] },
  });
  answers.set('/api/dashboard/enrollees?resultsPerPage=5', { status: 200, body: { total: 0, page: 1, pages: 0, rows: [], subdomains: [] } });
  answers.set('/api/dashboard/enrollmentsYtd', { status: 200, body: extra.ytd ?? { '2024-01': 0, '2024-02': 0 } });
  answers.set('/api/dashboard/carrierShare', {
    status: 200,
    body: extra.carriers ?? { carrierCounts: {}, carrierNames: {}, carrierColors: {} },
  });
}

describe('DashboardHome', () => {
  it('shows recent quotes, countdowns and "Nothing to show yet" for empty charts', async () => {
    homeAnswers();
    useShellStore.setState({ shell: shell() });
    inRouter(<DashboardHome />);
    expect(await screen.findByText('Zoe Quotewright')).toBeTruthy();
    expect(await screen.findByText('Open enrollment ends soon')).toBeTruthy();
    expect(await screen.findByText('Medicare AEP ends')).toBeTruthy();
    expect(await screen.findAllByText('Nothing to show yet')).toHaveLength(2);
    expect(screen.getByRole('table', { name: 'Recent Submissions' }).textContent).toContain('No results were found');
  });

  it('draws the charts with a text alternative; no Medicare card without the flag; no card without days', async () => {
    homeAnswers({
      ytd: { '2024-01': 2, '2024-02': 5 },
      carriers: { carrierCounts: { '1': 3 }, carrierNames: { '1': 'Blue Cross' }, carrierColors: { '1': '#0b5fa5' } },
      individual: { days: null, message: 'none' },
    });
    useShellStore.setState({ shell: shell({ display_medicare: false }) });
    inRouter(<DashboardHome />);
    const table = await screen.findByRole('table', { name: /Enrollments Year to Date: Jan: 2, Feb: 5/ });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(await screen.findByText('Blue Cross: 3')).toBeTruthy();
    expect(screen.queryByText('Nothing to show yet')).toBeNull();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/dashboard/countdownIndividual')).toBe(true));
    expect(screen.queryByText('none')).toBeNull();
    expect(calls.some((c) => c.url === '/api/dashboard/countdownMedicare')).toBe(false);
    expect(screen.queryByRole('heading', { name: /Medicare/ })).toBeNull();
  });
});

describe('DashboardShell', () => {
  const actions = (extra: Partial<DashboardActions> = {}): DashboardActions => ({
    continuePath: '/census',
    startQuote: vi.fn(async () => {}),
    resume: vi.fn(async () => {}),
    ...extra,
  });

  it('lists Off Marketplace, On Marketplace (new tab), Medicare and the account manager', async () => {
    answers.set('/api/dashboard/shell', { status: 200, body: shell() });
    const a = actions();
    inRouter(
      <DashboardActionsContext.Provider value={a}>
        <DashboardShell>
          <p>page</p>
        </DashboardShell>
      </DashboardActionsContext.Provider>,
    );
    const nav = screen.getByRole('navigation', { name: 'Dashboard' });
    expect((await within(nav).findByRole('link', { name: 'Continue Quote' })).getAttribute('href')).toBe('/census');
    expect(within(nav).getByRole('link', { name: 'Quoting' }).getAttribute('href')).toBe('/dashboard/quoting');
    expect(within(nav).getByRole('link', { name: 'Submissions' }).getAttribute('href')).toBe('/dashboard/enrolled');
    const market = within(nav).getByRole('link', { name: /Blue Cross Marketplace/ });
    expect(market.getAttribute('target')).toBe('_blank');
    expect(market.getAttribute('rel')).toContain('noopener');
    expect(within(nav).getByRole('link', { name: /Medicare Quote/ }).getAttribute('href')).toBe('https://medicare.example.com/quote');
    expect(screen.getByText('Sam Manager')).toBeTruthy();
    expect(screen.getByRole('link', { name: '(517) 555-0199' }).getAttribute('href')).toBe('tel:15175550199');
    fireEvent.click(within(nav).getByRole('button', { name: 'Start Quote' }));
    expect(a.startQuote).toHaveBeenCalled();
  });

  it('hides Continue Quote, Medicare and the manager card when the server says so', async () => {
    answers.set('/api/dashboard/shell', {
      status: 200,
      body: shell({ has_application: false, display_medicare: false, account_manager: null, marketplace_links: [] }),
    });
    inRouter(
      <DashboardActionsContext.Provider value={actions()}>
        <DashboardShell>
          <p>page</p>
        </DashboardShell>
      </DashboardActionsContext.Provider>,
    );
    await waitFor(() => expect(useShellStore.getState().shell).not.toBeNull());
    expect(screen.queryByRole('link', { name: 'Continue Quote' })).toBeNull();
    expect(screen.queryByText('On Marketplace')).toBeNull();
    expect(screen.queryByRole('link', { name: /Medicare Quote/ })).toBeNull();
    expect(screen.queryByText('Your Account Manager')).toBeNull();
  });

  it('shows the alert when Start Quote fails', async () => {
    answers.set('/api/dashboard/shell', { status: 200, body: shell() });
    inRouter(
      <DashboardActionsContext.Provider value={actions({ startQuote: () => Promise.reject(new Error('x')) })}>
        <DashboardShell>
          <p>page</p>
        </DashboardShell>
      </DashboardActionsContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Start Quote' }));
    expect(await screen.findByText(DASHBOARD_ERROR)).toBeTruthy();
  });
});
