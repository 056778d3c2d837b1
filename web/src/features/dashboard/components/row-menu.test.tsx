import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { useShellStore } from '../stores/shell-store';
import type { DashboardRow } from '../types';
import { DashboardActionsContext } from './dashboard-actions';
import { DashboardList } from './list-page';
import { polyfillDialogs } from '@/testing/kit';

const row = (extra: Partial<DashboardRow> = {}): DashboardRow => ({
  application_id: 'app-1',
  first_name: 'Ann',
  last_name: 'Lee',
  full_name: 'Ann Lee',
  sub_email: 'ann@example.com',
  created_at: '2024-11-02T10:00:00Z',
  updated_at: '2024-11-02T10:00:00Z',
  submission_time: null,
  effective_date: '2025-01-01',
  period_badge: 'OEP',
  contract_count: 1,
  last_application_step_type_id: 3,
  agent_started: true,
  started_by: 'Maria Alvarez',
  medical_plan_name: null,
  dental_plan_name: null,
  vision_plan_name: null,
  subdomain: 'acme',
  sbc_url: 'https://sbc.example.com/plan.pdf',
  handoff: null,
  primary_name: 'Ann Lee',
  enrollment_period_type_id: 1,
  dependents_count: 0,
  has_spouse: false,
  medical_product_id: null,
  dental_product_id: null,
  vision_product_id: null,
  ...extra,
});

const urls: string[] = [];
let subdomains = ['acme', 'acmeins'];
let rows: DashboardRow[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  urls.push(`${init?.method ?? 'GET'} ${url}`);
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
  if (url.startsWith('/api/dashboard/getAppInfo/')) {
    return json({
      primary_name: 'Ann Lee',
      primary_phone: '7345550100',
      email: 'ann@example.com',
      residential_street: '1 Main St',
      residential_street2: 'Apt 2',
      residential_city: 'Ann Arbor',
      residential_state: 'MI',
      residential_zip: '48104',
      billing_provided: true,
      billing_street: 'PO Box 9',
      billing_street2: null,
      billing_city: 'Detroit',
      billing_state: 'MI',
      billing_zip: '48201',
      care: {
        uses: ['high'],
        doctors: ['Martin Van Nostrand (Dermatology, New York)'],
        drugs: ['Atorvastatin 10 MG Oral Tablet'],
        medical_plan: 'Blue Cross Premier PPO Silver',
        yearly_cost: 6417.87,
      },
    });
  }
  if (url.startsWith('/api/dashboard/enroll/')) return json({ route: '/medical' });
  return json({ total: rows.length, page: 1, pages: 1, rows, subdomains });
});

beforeAll(() => {
  polyfillDialogs();
});

beforeEach(() => {
  urls.length = 0;
  subdomains = ['acme', 'acmeins'];
  rows = [row()];
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ csrfToken: () => 'tok', redirectToRoot: () => {} });
  useShellStore.setState({
    shell: {
      agent_full_name: 'Maria Alvarez',
      user_full_name: 'Maria Alvarez',
      display_medicare: false,
      medicare_url: null,
      marketplace_links: [],
      account_manager: null,
      subdomains,
      has_application: false,
    },
  });
});

afterEach(() => {
  cleanup();
  resetApiClient();
});

/** The list in a data router (as in the app: it follows the router's navigations). */
function listAt(kind: 'quotes' | 'enrollees') {
  return <RouterProvider router={createMemoryRouter([{ path: '*', element: <DashboardList kind={kind} /> }])} />;
}

describe('row menu', () => {
  it('opens from the keyboard, moves with arrows and closes with Escape', async () => {
    render(listAt('enrollees'));
    const button = await screen.findByRole('button', { name: 'Actions for Ann Lee' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'More Info',
      'Send Email',
      'View Medical SBC (opens in a new tab)',
      'Save as scenario',
      'Evidence Packet',
    ]);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'End' });
    expect(document.activeElement).toBe(items[4]);
    fireEvent.keyDown(items[4]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('the open menu is fixed beside its button, so a scrolling table does not cut it off, and a scroll closes it', async () => {
    render(listAt('enrollees'));
    const button = await screen.findByRole('button', { name: 'Actions for Ann Lee' });
    fireEvent.click(button);
    const menu = screen.getByRole('menu');
    expect(menu.style.position).toBe('fixed');
    fireEvent.scroll(window);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('Send Email is a mailto draft signed by the agent; SBC opens in a new tab', async () => {
    render(listAt('enrollees'));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Ann Lee' }));
    const mail = screen.getByRole('menuitem', { name: 'Send Email' });
    const href = mail.getAttribute('href') ?? '';
    expect(href.startsWith('mailto:ann@example.com?subject=')).toBe(true);
    expect(decodeURIComponent(href)).toContain('Dear Ann,');
    expect(decodeURIComponent(href)).toContain('Maria Alvarez');
    const sbc = screen.getByRole('menuitem', { name: /View Medical SBC/ });
    expect(sbc.getAttribute('href')).toBe('https://sbc.example.com/plan.pdf');
    expect(sbc.getAttribute('target')).toBe('_blank');
    expect(sbc.getAttribute('rel')).toContain('noopener');
  });

  it('has no SBC entry without a link', async () => {
    rows = [row({ sbc_url: null })];
    render(listAt('enrollees'));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Ann Lee' }));
    expect(screen.queryByRole('menuitem', { name: /View Medical SBC/ })).toBeNull();
  });

  it('More Info shows the contact details and both addresses', async () => {
    render(listAt('enrollees'));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Ann Lee' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'More Info' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('(734) 555-0100')).toBeTruthy();
    expect(within(dialog).getByText('Ann Arbor, MI 48104')).toBeTruthy();
    expect(within(dialog).getByText('Billing Address')).toBeTruthy();
    expect(within(dialog).getByText('Detroit, MI 48201')).toBeTruthy();
    // The household's care needs and the chosen plan's yearly estimate.
    expect(within(dialog).getByText('High')).toBeTruthy();
    expect(within(dialog).getByText('Martin Van Nostrand (Dermatology, New York)')).toBeTruthy();
    expect(within(dialog).getByText('Atorvastatin 10 MG Oral Tablet')).toBeTruthy();
    expect(within(dialog).getByText('$6,417.87 (Blue Cross Premier PPO Silver)')).toBeTruthy();
    expect(urls).toContain('GET /api/dashboard/getAppInfo/app-1');
  });
});

// "from … a Quoting row, 'Send to customer' …; the agent sees the hand-off's
// state on the dashboard".
describe('Send to Customer', () => {
  it("is on Quoting's row menu, not on Submissions'; a row shows where its hand-off stands", async () => {
    rows = [
      row({
        handoff: { state: 'opened', sent_at: '2024-11-20T15:00:00Z', expires_at: '2024-12-04T15:00:00Z', opened_at: '2024-11-21T15:00:00Z' },
      }),
    ];
    render(listAt('quotes'));
    const cell = await screen.findByRole('cell', { name: /^Ann Lee/ });
    expect(within(cell).getByText('Opened by customer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ann Lee' }));
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toContain('Send to Customer');
    expect(items).not.toContain('Evidence Packet');
  });
});

describe('filters and Enroll', () => {
  it('offers the Site filter only with more than one site, and Started by on Quoting', async () => {
    render(listAt('quotes'));
    await screen.findByText('Ann Lee');
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const site = screen.getByLabelText('Site') as HTMLSelectElement;
    expect(Array.from(site.options).map((o) => o.textContent)).toEqual(['All', 'acme', 'acmeins']);
    fireEvent.change(site, { target: { value: 'acmeins' } });
    await waitFor(() => expect(urls.at(-1)).toContain('filterSubdomain=acmeins'));
    const started = screen.getByLabelText('Started by') as HTMLSelectElement;
    expect(Array.from(started.options).map((o) => o.textContent)).toEqual(['All', 'Agent', 'Consumer']);
    fireEvent.change(started, { target: { value: 'agent' } });
    await waitFor(() => expect(urls.at(-1)).toContain('filterStartedBy=agent'));
    expect(screen.getByRole('columnheader', { name: 'Started By' })).toBeTruthy();
    expect(screen.getByText('Maria Alvarez')).toBeTruthy();
  });

  it('has no Site filter with one site and no Started by on Submissions', async () => {
    subdomains = ['lakeshore'];
    render(listAt('enrollees'));
    await screen.findByText('Ann Lee');
    expect(screen.queryByLabelText('Site')).toBeNull();
    expect(screen.queryByLabelText('Started by')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Enroll/ })).toBeNull();
  });

  it('Enroll makes the application the session’s and resumes at the returned route', async () => {
    const resume = vi.fn(async () => {});
    render(
      <DashboardActionsContext.Provider value={{ continuePath: null, startQuote: async () => {}, resume }}>
        {listAt('quotes')}
      </DashboardActionsContext.Provider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Enroll Ann Lee' }));
    await waitFor(() => expect(resume).toHaveBeenCalledWith('/medical'));
    expect(urls).toContain('POST /api/dashboard/enroll/app-1');
  });
});
