import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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

describe('DashboardList', () => {
  it('shows rows, badges, sorts and pages through the server', async () => {
    const urls = stub();
    render(<DashboardList kind="quotes" />);
    expect(await screen.findByText('Ann Lee1')).toBeTruthy();
    expect(urls[0]).toContain('/api/dashboard/quotes?page=1&resultsPerPage=12&sortCol=last_name&sortOrderAsc=true&daysToShow=60');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('108');
    expect(screen.getByTitle('Medical: Choice Plus® Silver')).toBeTruthy();
    expect(screen.getByText('01/01/2027')).toBeTruthy();

    const nav = screen.getByRole('navigation', { name: 'Quoting pages' });
    expect(within(nav).getAllByRole('button').map((b) => b.textContent)).toEqual(['1', '9']);
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 9' }));
    expect(await screen.findByText('Ann Lee9')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Created Date/ }));
    await waitFor(() => expect(urls.at(-1)).toContain('page=1&resultsPerPage=12&sortCol=created_at&sortOrderAsc=false'));
    expect(screen.getByRole('columnheader', { name: /Created Date/ }).getAttribute('aria-sort')).toBe('descending');

    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: '365' } });
    await waitFor(() => expect(urls.at(-1)).toContain('daysToShow=365'));

    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    fireEvent.click(screen.getByLabelText('Dental'));
    await waitFor(() => expect(urls.at(-1)).toContain('filterProduct=dental'));
  });

  it('says when nothing matches the search', async () => {
    stub();
    render(<DashboardList kind="enrollees" />);
    await screen.findByText('Ann Lee1');
    fireEvent.change(screen.getByLabelText('Search name & email'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No results were found')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('exports through a blob, the button disabled meanwhile', async () => {
    const urls = stub();
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(<DashboardList kind="enrollees" />);
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
});
