import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useWorkingOnStore } from '../stores/working-on-store';
import { useFlowStore } from '@/lib/flow';
import { testFlow } from '@/testing/flow';
import type { DashboardRow } from '../types';
import { DashboardActionsContext } from './dashboard-actions';
import { DashboardList, SEARCH_DELAY_MS } from './list-page';

// The agents' lists, Quoting (/dashboard/quoting) and Submissions (/dashboard/enrolled), to the
// letter of spec part 2 (issue "The spec, to the letter", item 1). One block per point of the issue.

const row = (i: number, extra: Partial<DashboardRow> = {}): DashboardRow => ({
  application_id: `id-${i}`,
  first_name: 'Ann',
  last_name: `Lee${i}`,
  full_name: `Ann Lee${i}`,
  sub_email: `ann${i}@example.com`,
  created_at: '2026-11-02T10:00:00Z',
  updated_at: '2026-11-02T10:00:00Z',
  submission_time: '2026-11-03T15:00:00Z',
  effective_date: '2027-01-01',
  period_badge: 'OEP',
  contract_count: 3,
  last_application_step_type_id: 3,
  medical_plan_name: 'Choice Plus<sup>&reg;</sup> Silver',
  dental_plan_name: null,
  vision_plan_name: null,
  primary_name: 'Ann Lee',
  enrollment_period_type_id: 1,
  dependents_count: 0,
  has_spouse: false,
  agent_started: false,
  started_by: null,
  medical_product_id: null,
  dental_product_id: null,
  vision_product_id: null,
  subdomain: null,
  sbc_url: null,
  handoff: null,
  ...extra,
});

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

interface StubOptions {
  pages?: number;
  subdomains?: string[];
  rows?: (page: number) => DashboardRow[];
  /** Export calls fail while this answers true. */
  exportFails?: () => boolean;
  /** The Enroll call is answered once this settles. */
  enrollAnswered?: Promise<void>;
}

/** The server: `pages` pages of one row each ("Ann Lee{page}"); the search "nobody" finds nothing. */
useFlowStore.setState({ flow: testFlow() });

function stub({ pages = 9, subdomains, rows = (page) => [row(page)], exportFails = () => false, enrollAnswered = Promise.resolve() }: StubOptions = {}) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      urls.push(input);
      if (input.includes('/enroll/')) {
        await enrollAnswered;
        return json({ route: '/medical' });
      }
      if (input.includes('/scenario/')) {
        return exportFails() ? new Response('{"error":"Something went wrong!"}', { status: 500 }) : new Response(new Blob(['- name: x']), { status: 200 });
      }
      if (input.includes('Export')) {
        return exportFails() ? new Response('{"error":"Something went wrong!"}', { status: 500 }) : new Response(new Blob(['xlsx']), { status: 200 });
      }
      const params = new URL(input, 'http://x').searchParams;
      const page = Number(params.get('page'));
      if (params.get('searchName') === 'nobody') return json({ total: 0, page: 1, pages: 0, rows: [] });
      return json({ total: pages * 12, page, pages, rows: page > pages ? [] : rows(page), subdomains });
    }),
  );
  return urls;
}

/** The list inside a router at `entries` (the last one shown); the router tells where the page went. */
function drawAt(kind: 'quotes' | 'enrollees', ...entries: string[]) {
  const initialEntries = entries.length ? entries : [kind === 'quotes' ? '/dashboard/quoting' : '/dashboard/enrolled'];
  const router = createMemoryRouter(
    [
      { path: '/dashboard/home', element: <p>home</p> },
      { path: '/dashboard/*', element: <DashboardList kind={kind} /> },
    ],
    { initialEntries, initialIndex: initialEntries.length - 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const pagination = () => screen.getByRole('navigation', { name: 'Pagination' });
const currentPage = () => pagination().querySelector('[aria-current="page"]')?.textContent;
/** The pagination as read: "[3]" is the current page, "(Previous)" a disabled step. */
function paginationText(): string[] {
  return Array.from(pagination().querySelectorAll('a, span.ds-c-pagination__current-page, .ds-c-pagination__overflow')).map((el) => {
    const text = el.textContent?.trim() ?? '';
    if (el.getAttribute('aria-current') === 'page') return `[${text}]`;
    if (el.getAttribute('aria-disabled') === 'true') return `(${text})`;
    return text;
  });
}
const columnHeaders = () => screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, '').trim());

// Spec part 2: "Pagination shows all page numbers when 5 or fewer, else first, current and last
// with ellipses"; the issue: every page reachable, with Previous and Next.
describe('pagination: every page reachable', () => {
  it('Next reaches page 2 of 14, and Next and the page numbers reach every page', async () => {
    const urls = stub({ pages: 14 });
    const router = drawAt('quotes');
    expect(await screen.findByText('Ann Lee1')).toBeTruthy();
    expect(urls[0]).toContain('/api/dashboard/quotes?page=1&resultsPerPage=12&sortCol=last_name&sortOrderAsc=true&daysToShow=60');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('168');
    // Today: "1 … 14" and no way to pages 2 to 13.
    expect(paginationText()).toEqual(['(Previous)', '[1]', '…', '14', 'Next']);

    const next = () => within(pagination()).getByRole('link', { name: 'Next page' });
    fireEvent.click(next());
    expect(await screen.findByText('Ann Lee2')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    expect(paginationText()).toEqual(['Previous', '1', '[2]', '…', '14', 'Next']);
    for (let n = 3; n <= 14; n += 1) {
      fireEvent.click(next());
      expect(await screen.findByText(`Ann Lee${n}`)).toBeTruthy();
      expect(router.state.location.search).toBe(`?page=${n}`);
      expect(currentPage()).toBe(String(n));
    }
    expect(paginationText()).toEqual(['Previous', '1', '…', '[14]', '(Next)']);

    // Previous, and a page number: the first, and back to the middle with ellipses both sides.
    fireEvent.click(within(pagination()).getByRole('link', { name: 'Previous page' }));
    expect(await screen.findByText('Ann Lee13')).toBeTruthy();
    fireEvent.click(within(pagination()).getByRole('link', { name: 'Page 1' }));
    expect(await screen.findByText('Ann Lee1')).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect(within(pagination()).getByRole('link', { name: 'Page 14' }).getAttribute('href')).toBe('/dashboard/quoting?page=14');
    await act(() => router.navigate('/dashboard/quoting?page=7'));
    expect(await screen.findByText('Ann Lee7')).toBeTruthy();
    expect(paginationText()).toEqual(['Previous', '1', '…', '[7]', '…', '14', 'Next']);
  });

  it('is a navigation named Pagination: links reachable by keyboard, the ends disabled, ellipses not focusable', async () => {
    stub({ pages: 14 });
    drawAt('quotes', '/dashboard/quoting?page=7');
    await screen.findByText('Ann Lee7');
    const nav = pagination();
    expect(nav.tagName).toBe('NAV');
    // Links with an address take the keyboard's focus (Tab) and open with Enter.
    for (const link of within(nav).getAllByRole('link')) expect(link.getAttribute('href')).toMatch(/^\/dashboard\/quoting/);
    for (const ellipsis of nav.querySelectorAll('.ds-c-pagination__overflow')) {
      expect(ellipsis.getAttribute('aria-hidden')).toBe('true');
      expect(ellipsis.hasAttribute('tabindex') || ellipsis.hasAttribute('href')).toBe(false);
    }
    const page1 = within(nav).getByRole('link', { name: 'Page 1' });
    page1.focus();
    expect(document.activeElement).toBe(page1);
    cleanup();
    stub({ pages: 14 });
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    // At the first page Previous is disabled: no address, so no focus.
    const previous = within(pagination()).getByRole('link', { name: 'Previous page' });
    expect(previous.getAttribute('aria-disabled')).toBe('true');
    expect(previous.hasAttribute('href')).toBe(false);
  });

  it('shows all page numbers when 5 or fewer', async () => {
    stub({ pages: 5 });
    drawAt('enrollees', '/dashboard/enrolled?page=3');
    await screen.findByText('Ann Lee3');
    expect(paginationText()).toEqual(['Previous', '1', '2', '[3]', '4', '5', 'Next']);
  });

  // Spec part 2: "Pagination footer hidden with no rows."
  it('hides the pagination footer with no rows', async () => {
    stub({ pages: 3 });
    drawAt('enrollees', '/dashboard/enrolled?q=nobody');
    expect(await screen.findByText('No results were found')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('goes to the last page from an address past it (an old link, a shorter list)', async () => {
    stub({ pages: 3 });
    const router = drawAt('quotes', '/dashboard/quoting?page=9&days=180');
    expect(await screen.findByText('Ann Lee3')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=3&days=180');
  });
});

// Issue: page, period, search, products, site and sort live in the address, so Back, a reload and a
// shared link return to the same view; spec part 2: "Changing any filter, period, search or sort
// reloads the data" (from page 1).
describe('the view in the address', () => {
  it('the URL holds page/period/search/products/site/sort and restores them on a reload or a shared link', async () => {
    const address = '/dashboard/quoting?page=4&days=180&q=lee&product=dental&site=acmeins&sort=created_at&dir=asc';
    for (let visit = 0; visit < 2; visit += 1) {
      const urls = stub({ subdomains: ['acme', 'acmeins'] });
      const router = drawAt('quotes', address);
      expect(await screen.findByText('Ann Lee4')).toBeTruthy();
      const call = Object.fromEntries(new URL(urls[0] ?? '', 'http://x').searchParams);
      expect(call).toMatchObject({
        page: '4',
        daysToShow: '180',
        searchName: 'lee',
        filterProduct: 'dental',
        filterSubdomain: 'acmeins',
        sortCol: 'created_at',
        sortOrderAsc: 'true',
      });
      expect((screen.getByLabelText('Search name & email') as HTMLInputElement).value).toBe('lee');
      expect((screen.getByLabelText('Time range') as HTMLSelectElement).value).toBe('180');
      expect((screen.getByLabelText('Dental') as HTMLInputElement).checked).toBe(true);
      expect((screen.getByLabelText('Site') as HTMLSelectElement).value).toBe('acmeins');
      expect(screen.getByRole('columnheader', { name: /Created/ }).getAttribute('aria-sort')).toBe('ascending');
      expect(currentPage()).toBe('4');
      // Nothing rewritten: the address is the view.
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(address);
      cleanup(); // and draw it again: a reload
    }
  });

  it('a change of sort, period, products or site starts at page 1 as a step of the history; Back returns to the view before', async () => {
    const urls = stub({ subdomains: ['acme', 'acmeins'] });
    const router = drawAt('quotes', '/dashboard/quoting?page=4&days=180&q=lee&sort=created_at&dir=asc');
    await screen.findByText('Ann Lee4');
    const address = () => router.state.location.search;

    fireEvent.click(screen.getByRole('button', { name: /Created/ }));
    await waitFor(() => expect(address()).toBe('?days=180&q=lee&sort=created_at&dir=desc'));
    await waitFor(() => expect(urls.at(-1)).toContain('page=1&resultsPerPage=12&sortCol=created_at&sortOrderAsc=false'));
    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: '365' } });
    await waitFor(() => expect(address()).toBe('?days=365&q=lee&sort=created_at&dir=desc'));
    fireEvent.click(screen.getByLabelText('Vision'));
    await waitFor(() => expect(address()).toBe('?days=365&q=lee&product=vision&sort=created_at&dir=desc'));
    fireEvent.change(screen.getByLabelText('Site'), { target: { value: 'acme' } });
    await waitFor(() => expect(urls.at(-1)).toContain('filterProduct=vision&filterSubdomain=acme'));
    fireEvent.change(screen.getByLabelText('Started by'), { target: { value: 'agent' } });
    await waitFor(() => expect(urls.at(-1)).toContain('filterStartedBy=agent'));
    fireEvent.click(within(pagination()).getByRole('link', { name: 'Next page' }));
    await waitFor(() => expect(address()).toContain('page=2'));

    // Back, step by step, through each view.
    const back = async (search: string) => {
      await act(() => router.navigate(-1));
      await waitFor(() => expect(address()).toBe(search));
    };
    await back('?days=365&q=lee&product=vision&site=acme&startedBy=agent&sort=created_at&dir=desc');
    await back('?days=365&q=lee&product=vision&site=acme&sort=created_at&dir=desc');
    await back('?days=365&q=lee&product=vision&sort=created_at&dir=desc');
    expect((screen.getByLabelText('Site') as HTMLSelectElement).value).toBe('');
    await back('?days=365&q=lee&sort=created_at&dir=desc');
    expect((screen.getByLabelText('Vision') as HTMLInputElement).checked).toBe(false);
    await back('?days=180&q=lee&sort=created_at&dir=desc');
    expect((screen.getByLabelText('Time range') as HTMLSelectElement).value).toBe('180');
    await back('?page=4&days=180&q=lee&sort=created_at&dir=asc');
    await waitFor(() => expect(urls.at(-1)).toBe('/api/dashboard/quotes?page=4&resultsPerPage=12&sortCol=created_at&sortOrderAsc=true&daysToShow=180&searchName=lee'));
    expect(screen.getByRole('columnheader', { name: /Created/ }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('a search is one step of the history, not one per keystroke', async () => {
    const urls = stub({ pages: 3 });
    const router = drawAt('enrollees', '/dashboard/home', '/dashboard/enrolled?page=2');
    await screen.findByText('Ann Lee2');
    const field = screen.getByLabelText('Search name & email');
    // Typing with pauses: each pause searches (from page 1) and the address follows.
    for (const typed of ['n', 'nob', 'nobody']) {
      fireEvent.change(field, { target: { value: typed } });
      await waitFor(() => expect(router.state.location.search).toBe(`?q=${typed}`), { timeout: SEARCH_DELAY_MS * 10 });
    }
    expect(await screen.findByText('No results were found')).toBeTruthy();
    expect(urls.filter((u) => u.includes('searchName=')).map((u) => new URL(u, 'http://x').searchParams.get('searchName'))).toEqual(['n', 'nob', 'nobody']);
    // Back: the view before the search, then the page before the list.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect((screen.getByLabelText('Search name & email') as HTMLInputElement).value).toBe('');
    expect(await screen.findByText('Ann Lee2')).toBeTruthy();
    // Forward brings the search back, in the field too.
    await act(() => router.navigate(1));
    await waitFor(() => expect((screen.getByLabelText('Search name & email') as HTMLInputElement).value).toBe('nobody'));
    expect(await screen.findByText('No results were found')).toBeTruthy();
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/dashboard/home');
  });
});

describe('a search and the navigations of the app', () => {
  it('a search typed just before Enroll is dropped while the Enroll call is answered', async () => {
    let answer: () => void = () => {};
    const urls = stub({ pages: 3, enrollAnswered: new Promise<void>((resolve) => (answer = resolve)) });
    const router = createMemoryRouter(
      [
        { path: '/medical', element: <p>Medical Plans page</p> },
        { path: '/dashboard/*', element: <DashboardList kind="quotes" /> },
      ],
      { initialEntries: ['/dashboard/quoting'] },
    );
    const resume = async (route: string) => {
      await router.navigate(route);
    };
    render(
      <DashboardActionsContext.Provider value={{ continuePath: null, startQuote: async () => {}, resume }}>
        <RouterProvider router={router} />
      </DashboardActionsContext.Provider>,
    );
    await screen.findByText('Ann Lee1');
    fireEvent.change(screen.getByLabelText('Search name & email'), { target: { value: 'lee' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enroll Ann Lee1' }));
    // The search's pause goes by while the server has not answered Enroll yet.
    await act(async () => new Promise((r) => setTimeout(r, SEARCH_DELAY_MS * 2)));
    expect(router.state.location.search).toBe('');
    expect(urls.some((u) => u.includes('searchName=lee'))).toBe(false);
    await act(async () => answer());
    expect(await screen.findByText('Medical Plans page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/medical');
    // The wizard is told whose application it opened.
    expect(useWorkingOnStore.getState().workingOn?.name).toBe('Ann Lee1');
  });

  it('a search typed just before Enroll does not cancel the way to the step (its guard still loading)', async () => {
    stub({ pages: 3 });
    let letGo: () => void = () => {};
    const guard = new Promise<null>((resolve) => (letGo = () => resolve(null)));
    const router = createMemoryRouter(
      [
        { path: '/medical', loader: () => guard, element: <p>Medical Plans page</p> },
        { path: '/dashboard/*', element: <DashboardList kind="quotes" /> },
      ],
      { initialEntries: ['/dashboard/quoting'] },
    );
    const resume = async (route: string) => {
      await router.navigate(route);
    };
    render(
      <DashboardActionsContext.Provider value={{ continuePath: null, startQuote: async () => {}, resume }}>
        <RouterProvider router={router} />
      </DashboardActionsContext.Provider>,
    );
    await screen.findByText('Ann Lee1');
    fireEvent.change(screen.getByLabelText('Search name & email'), { target: { value: 'lee' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enroll Ann Lee1' }));
    await waitFor(() => expect(router.state.navigation.location?.pathname).toBe('/medical'));
    // The search's pause goes by while the step's guard loads: no navigation of its own.
    await new Promise((r) => setTimeout(r, SEARCH_DELAY_MS * 2));
    expect(router.state.navigation.location?.pathname).toBe('/medical');
    await act(async () => letGo());
    expect(await screen.findByText('Medical Plans page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/medical');
  });
});

// Spec part 2, Quoting: "Columns include the primary name, email, started by, created date,
// effective date, last step and product badges."
describe("Quoting's columns", () => {
  it("Quoting shows the Last Step column with the step's title", async () => {
    stub({ pages: 1, rows: () => [row(1, { last_application_step_type_id: 3 }), row(2, { last_application_step_type_id: 7 })] });
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    expect(columnHeaders()).toEqual([
      'Actions',
      'Subscriber Name',
      'Email',
      'Started By',
      'Created Date (Michigan time)',
      'Effective Date',
      'Last Step',
      'Products',
      'Enroll',
    ]);
    const lastStep = (name: string) => {
      const cells = within(screen.getByRole('row', { name: new RegExp(name) })).getAllByRole('cell');
      return cells[columnHeaders().indexOf('Last Step')]?.textContent;
    };
    // The titles of the flow's steps: 3 is Medical Plans, 7 Subscriber Information.
    expect(lastStep('Ann Lee1')).toBe('Medical Plans');
    expect(lastStep('Ann Lee2')).toBe('Subscriber Information');
    expect(screen.getByText('ann1@example.com')).toBeTruthy();
    expect(screen.getAllByTitle('Medical: Choice Plus® Silver')).toHaveLength(2);
  });
});

// Spec part 2, 8: "Quote list load failure uses the same alert" as the other load failures.
describe('a list that cannot be loaded', () => {
  it('says so in the alert the other load failures use, for Quoting and Submissions', async () => {
    for (const kind of ['quotes', 'enrollees'] as const) {
      vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":"Internal error"}', { status: 500, headers: { 'Content-Type': 'application/json' } })));
      drawAt(kind);
      const alert = await screen.findByRole('heading', { name: 'Something went wrong!' });
      expect(alert.closest('.ds-c-alert')?.textContent).toContain(
        'An error occurred, please try again. If it continues, contact your agent.',
      );
      cleanup();
    }
  });
});

// Spec part 2, Submissions: "Columns: row menu, Subscriber Name (sortable by last_name), Submit
// Date (by submission_time), Effective Date (by effective_date), OEP/SEP, Contract Count, Products."
describe("Submissions' columns", () => {
  it("Submissions has exactly the spec's columns", async () => {
    stub({ pages: 1 });
    drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    expect(columnHeaders()).toEqual(['Actions', 'Subscriber Name', 'Submit Date (Michigan time)', 'Effective Date', 'OEP/SEP', 'Contract Count', 'Products']);
    // The row menu is the first column; the three sortable ones are buttons.
    expect(within(screen.getAllByRole('columnheader')[0]!).queryByRole('button')).toBeNull();
    expect(screen.getAllByRole('columnheader').filter((h) => within(h).queryByRole('button')).map((h) => h.textContent?.replace(/[▲▼]/g, '').trim())).toEqual([
      'Subscriber Name',
      'Submit Date (Michigan time)',
      'Effective Date',
    ]);
    expect(screen.getByRole('button', { name: 'Actions for Ann Lee1' })).toBeTruthy();
    // No E-mail column: the address is in the row menu's Send Email, not in the table.
    expect(screen.queryByText('ann1@example.com')).toBeNull();
    const cells = within(screen.getByRole('row', { name: /Ann Lee1/ })).getAllByRole('cell');
    expect(cells.slice(1, 6).map((c) => c.textContent)).toEqual(['Ann Lee1', '11/03/2026', '01/01/2027', 'OEP', '3']);
    expect(within(cells[6]!).getByTitle('Medical: Choice Plus® Silver').textContent).toContain('M');
  });
});

// Issue: dates on screen are the agent's local time, America/Detroit, labelled as such; spec part
// 2: "Dates display as month/day/year". The server sends instants in RFC 3339 (UTC).
describe('Michigan time', () => {
  it('timestamps are America/Detroit: just after midnight UTC is still the day before', async () => {
    vi.stubEnv('TZ', 'Asia/Tokyo'); // the browser's zone does not matter
    stub({
      pages: 1,
      rows: () => [row(1, { created_at: '2024-11-15T00:30:00Z', submission_time: '2024-07-01T03:30:00Z', effective_date: '2025-01-01' })],
    });
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    const cells = () => within(screen.getByRole('row', { name: /Ann Lee1/ })).getAllByRole('cell');
    expect(cells()[columnHeaders().indexOf('Created Date (Michigan time)')]?.textContent).toBe('11/14/2024');
    // A date without a time is shown as sent.
    expect(cells()[columnHeaders().indexOf('Effective Date')]?.textContent).toBe('01/01/2025');
    expect(screen.getByRole('table', { name: /Created dates are Michigan time \(America\/Detroit\)/ })).toBeTruthy();
    cleanup();
    drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    expect(cells()[columnHeaders().indexOf('Submit Date (Michigan time)')]?.textContent).toBe('06/30/2024'); // EDT
  });
});

describe('Export', () => {
  it('exports through a blob, the button disabled meanwhile', async () => {
    const urls = stub();
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect((screen.getByRole('button', { name: 'Exporting…' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(urls.at(-1)).toBe('/api/dashboard/enrolleesExport?sortCol=submission_time&sortOrderAsc=false&daysToShow=60');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('Exported_Enrollees.xlsx');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  // Issue: "A failed export says so and offers Retry" (spec part 2 notes "Export has no error
  // handling": the error was swallowed).
  it('a failed export shows an alert with Retry and Retry exports again', async () => {
    let failing = true;
    const urls = stub({ exportFails: () => failing });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The export failed');
    expect(alert.textContent).toContain('could not be exported');
    expect(click).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(false);

    // Retry fails again: the alert stays, Retry with it.
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(urls.filter((u) => u.includes('Export'))).toHaveLength(2));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByRole('alert')).toBeTruthy();

    failing = false;
    const retry = within(screen.getByRole('alert')).getByRole('button', { name: 'Retry' });
    retry.focus();
    fireEvent.click(retry);
    // While it runs, Export is disabled and Retry does nothing more.
    expect((screen.getByRole('button', { name: 'Exporting…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(retry.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(retry);
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(urls.filter((u) => u.includes('Export'))).toEqual([
      '/api/dashboard/quotesExport?sortCol=last_name&sortOrderAsc=true&daysToShow=60',
      '/api/dashboard/quotesExport?sortCol=last_name&sortOrderAsc=true&daysToShow=60',
      '/api/dashboard/quotesExport?sortCol=last_name&sortOrderAsc=true&daysToShow=60',
    ]);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    // The alert gone, the focus is back on Export.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Export' })));
  });
});

// "from a submission's row menu, 'Save as scenario' downloads a YAML scenario".
describe('Save as scenario', () => {
  it("the row menu downloads the application's scenario; a failure says so", async () => {
    let failing = false;
    const urls = stub({ exportFails: () => failing });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ann Lee1' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Save as scenario' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(urls.at(-1)).toBe('/api/dashboard/scenario/id-1');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('application-scenario.yaml');
    expect(screen.queryByRole('alert')).toBeNull();

    failing = true;
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ann Lee1' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Save as scenario' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The scenario could not be saved');
    expect(click).toHaveBeenCalledTimes(1);
  });
});

// Issue: "Quoting fits the window from 1024 px up; a table that needs more room scrolls inside its
// own container with the name column kept in view; below 768 px each row becomes a card." jsdom
// lays nothing out: this checks the markup that dashboard.css styles; e2e/dashboard.spec.ts
// measures the page at 1024 and 1280 px and e2e/phone.spec.ts the cards.
describe('layout', () => {
  it('the table scrolls inside a focusable, named region with the name column sticky; each cell is labelled for the cards', async () => {
    stub({ pages: 1 });
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    const region = screen.getByRole('region', { name: 'Quoting results' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.classList.contains('ef-dashboard__scroll')).toBe(true);
    expect(within(region).getByRole('table')).toBeTruthy();
    // The name column, header and cells, stays in view.
    expect(screen.getByRole('columnheader', { name: /Subscriber Name/ }).classList.contains('ef-dashboard__sticky')).toBe(true);
    expect(screen.getByRole('cell', { name: 'Ann Lee1' }).classList.contains('ef-dashboard__sticky')).toBe(true);
    // Each data cell carries its column's label (a card's label/value pairs).
    const headers = columnHeaders();
    within(screen.getByRole('row', { name: /Ann Lee1/ }))
      .getAllByRole('cell')
      .forEach((cell, i) => {
        if (i > 0) expect(cell.getAttribute('data-label')).toBe(headers[i]);
      });
    // The roles stay when the cards' CSS displays the table's elements as blocks.
    expect(within(region).getByRole('table').getAttribute('role')).toBe('table');
    expect(screen.getByRole('cell', { name: 'Ann Lee1' }).getAttribute('role')).toBe('cell');
  });
});
