import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardRow } from '../types';
import { DashboardList } from './list-page';

const row = (i: number, extra: Partial<DashboardRow> = {}): DashboardRow => ({
  application_id: `id-${i}`,
  first_name: 'Ann',
  last_name: `Lee${i}`,
  full_name: `Ann Lee${i}`,
  sub_email: `ann${i}@example.com`,
  created_at: '2026-11-02T10:00:00Z',
  updated_at: '2026-11-02T10:00:00Z',
  submission_time: null,
  effective_date: '2027-01-01',
  period_badge: 'OEP',
  contract_count: 3,
  last_application_step_type_id: 3,
  medical_plan_name: 'Choice Plus<sup>&reg;</sup> Silver',
  dental_plan_name: null,
  vision_plan_name: null,
  ...extra,
});

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stub(pages = 9) {
  const urls: string[] = [];
  const fetchMock = vi.fn(async (input: string) => {
    urls.push(input);
    if (input.includes('Export')) return new Response(new Blob(['xlsx']), { status: 200 });
    const page = Number(new URL(input, 'http://x').searchParams.get('page'));
    const search = new URL(input, 'http://x').searchParams.get('searchName');
    if (search === 'nobody') return json({ total: 0, page: 1, pages: 0, rows: [] });
    return json({ total: pages * 12, page, pages, rows: [row(page)] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return urls;
}

/** The list at an address, inside a router; the router tells where the page went. */
function drawAt(kind: 'quotes' | 'enrollees', url = kind === 'quotes' ? '/dashboard/quoting' : '/dashboard/enrolled') {
  const router = createMemoryRouter([{ path: '/dashboard/*', element: <DashboardList kind={kind} /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('DashboardList', () => {
  // Spec part 2: "Pagination shows all page numbers when 5 or fewer, else first, current and last
  // with ellipses"; the issue: "Every page reachable: Previous, Next, and page numbers".
  it('reaches every page of 14 with Next and the page numbers, and each page has its address', async () => {
    const urls = stub(14);
    const router = drawAt('quotes');
    expect(await screen.findByText('Ann Lee1')).toBeTruthy();
    expect(urls[0]).toContain('/api/dashboard/quotes?page=1&resultsPerPage=12&sortCol=last_name&sortOrderAsc=true&daysToShow=60');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('168');
    const nav = () => screen.getByRole('navigation', { name: 'Quoting pages' });
    expect(within(nav()).getAllByRole('link').map((l) => l.textContent)).toEqual(['1', '14', 'Next']);
    expect(within(nav()).getByText('Previous').getAttribute('aria-disabled')).toBe('true');
    for (let n = 2; n <= 14; n += 1) {
      fireEvent.click(within(nav()).getByRole('link', { name: /^Next/ }));
      expect(await screen.findByText(`Ann Lee${n}`)).toBeTruthy();
      expect(router.state.location.search).toBe(`?page=${n}`);
      expect(within(nav()).getByRole('link', { current: 'page' }).textContent).toBe(String(n));
    }
    expect(within(nav()).getByText('Next').getAttribute('aria-disabled')).toBe('true');
    expect(within(nav()).getAllByRole('link').map((l) => l.textContent)).toEqual(['Previous', '1', '14']);
    // A page number in the middle: first, current and last with ellipses.
    fireEvent.click(within(nav()).getByRole('link', { name: 'Page 1 of 14' }));
    await screen.findByText('Ann Lee1');
    fireEvent.click(within(nav()).getByRole('link', { name: /^Next/ }));
    fireEvent.click(await within(nav()).findByRole('link', { name: /^Next/ }));
    await screen.findByText('Ann Lee3');
    expect(within(nav()).getAllByRole('link').map((l) => l.textContent)).toEqual(['Previous', '1', '3', '14', 'Next']);
    expect(within(nav()).getByRole('link', { name: 'Page 3 of 14' }).getAttribute('href')).toBe('/dashboard/quoting?page=3');
  });

  it('keeps page, period, search, products and sort in the address; Back returns to the view before', async () => {
    const urls = stub(9);
    const router = drawAt('quotes', '/dashboard/quoting?page=4&days=180&q=lee&product=dental&sort=created_at&dir=asc');
    expect(await screen.findByText('Ann Lee4')).toBeTruthy();
    const call = new URL(urls[0] ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(call)).toMatchObject({ page: '4', daysToShow: '180', searchName: 'lee', filterProduct: 'dental', sortCol: 'created_at', sortOrderAsc: 'true' });
    expect((screen.getByLabelText('Search name & email') as HTMLInputElement).value).toBe('lee');
    expect((screen.getByLabelText('Time range') as HTMLSelectElement).value).toBe('180');
    expect((screen.getByLabelText('Dental') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('columnheader', { name: /Created/ }).getAttribute('aria-sort')).toBe('ascending');

    // A sort starts again at page 1 and is a step of the history.
    fireEvent.click(screen.getByRole('button', { name: /Created/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?days=180&q=lee&product=dental&sort=created_at&dir=desc'));
    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: '365' } });
    await waitFor(() => expect(urls.at(-1)).toContain('daysToShow=365'));
    expect(router.state.location.search).toContain('days=365');
    // Back: the view before, the list asked again.
    await router.navigate(-1);
    await waitFor(() => expect(urls.at(-1)).toContain('daysToShow=180&searchName=lee&filterProduct=dental'));
    expect(urls.at(-1)).toContain('sortCol=created_at&sortOrderAsc=false');
    expect((screen.getByLabelText('Time range') as HTMLSelectElement).value).toBe('180');
  });

  it('types a search into the address without a history step per keystroke', async () => {
    stub(3);
    const router = drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    const before = router.state.historyAction;
    fireEvent.change(screen.getByLabelText('Search name & email'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No results were found')).toBeTruthy();
    expect(router.state.location.search).toBe('?q=nobody');
    expect(router.state.historyAction).toBe(before === 'POP' ? 'REPLACE' : before);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  // Spec part 2: Quoting "Columns include the primary name, email, started by, created date, effective
  // date, last step and product badges"; Submissions "Columns: row menu, Subscriber Name, Submit Date,
  // Effective Date, OEP/SEP, Contract Count, Products".
  it('Quoting shows the Last Step by its title; Submissions has exactly the spec\'s columns', async () => {
    stub(1);
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    const quoting = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, '').trim());
    expect(quoting).toEqual(['Actions', 'Subscriber Name', 'Email', 'Started By', 'Created (Michigan time)', 'Effective Date', 'Last Step', 'Products', 'Enroll']);
    expect(screen.getByRole('cell', { name: 'Medical Plans' })).toBeTruthy();
    expect(screen.getByTitle('Medical: Choice Plus® Silver')).toBeTruthy();
    cleanup();
    stub(1);
    drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    const submissions = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/g, '').trim());
    expect(submissions).toEqual(['Actions', 'Subscriber Name', 'Submit Date (Michigan time)', 'Effective Date', 'OEP/SEP', 'Contract Count', 'Products']);
  });

  // Issue: "Dates and times on screen ... are the agent's local time (America/Detroit), labelled as such."
  it('shows times in Michigan time and dates as they are', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        urls.push(input);
        // 04:15 UTC on November 15 is 11:15 pm on November 14 in Detroit.
        return json({ total: 1, page: 1, pages: 1, rows: [row(1, { created_at: '2024-11-15T04:15:00Z', effective_date: '2025-01-01' })] });
      }),
    );
    drawAt('quotes');
    expect(await screen.findByText('11/14/2024 11:15 PM')).toBeTruthy();
    expect(screen.getByText('01/01/2025')).toBeTruthy();
    expect(screen.getByRole('table').querySelector('caption')?.textContent).toContain('Michigan time (America/Detroit)');
  });

  it('exports through a blob, the button disabled meanwhile', async () => {
    const urls = stub();
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    drawAt('enrollees');
    await screen.findByText('Ann Lee1');
    const button = screen.getByRole('button', { name: 'Export' });
    fireEvent.click(button);
    expect((screen.getByRole('button', { name: 'Exporting…' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(urls.at(-1)).toBe('/api/dashboard/enrolleesExport?sortCol=submission_time&sortOrderAsc=false&daysToShow=60');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('Exported_Enrollees.xlsx');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(false));
    click.mockRestore();
  });

  // Issue: "A failed export says so and offers Retry (today the error is swallowed)."
  it('says when an export fails and offers Retry, which exports again', async () => {
    let failing = true;
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        urls.push(input);
        if (input.includes('Export')) return failing ? new Response('{"error":"Something went wrong!"}', { status: 500 }) : new Response(new Blob(['x']), { status: 200 });
        return json({ total: 1, page: 1, pages: 1, rows: [row(1)] });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    drawAt('quotes');
    await screen.findByText('Ann Lee1');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('heading', { name: 'The export failed' })).toBeTruthy();
    expect(click).not.toHaveBeenCalled();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(urls.filter((u) => u.includes('Export'))).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'The export failed' })).toBeNull());
    click.mockRestore();
  });
});
