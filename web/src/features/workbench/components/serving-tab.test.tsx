import { cleanup, fireEvent, render, screen, within } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { jsonResponse as json, polyfillDialogs } from '@/testing/kit';
import type { Publication, RulesStatus } from '@/types/api';
import { ServingTab } from './serving-tab';

// The serving set: the sets scheduled to take effect later (Cancel) and the history (Rollback),
// each asked before it is done; a refusal is the server's reason, shown.

const status: RulesStatus = {
  checked_at: '2024-11-20T10:00:00Z',
  now: '2024-11-20T10:05:00Z',
  problems: [],
  serving_hash: 'e1e1e1e1e1e1e1e1',
  serving_set: 'b2b2b2b2b2b2b2b2b2',
  serving_since: '2024-11-20T10:01:00Z',
  source: 'database',
};

const pub = (over: Partial<Publication>): Publication => ({
  id: 1,
  hash: 'a1a1a1a1a1a1a1a1a1',
  engine_hash: 'e0',
  action: 'publish',
  author: 'operator',
  note: null,
  published_at: '2024-11-01T10:00:00Z',
  effective_at: '2024-11-01T10:00:00Z',
  cancelled_at: null,
  approver: null,
  proposal_id: null,
  ...over,
});

const first = pub({});
const serving = pub({
  id: 2,
  hash: 'b2b2b2b2b2b2b2b2b2',
  author: 'analyst@enrollflow.example.com',
  approver: 'approver@enrollflow.example.com',
  note: 'plan 523 at $100',
  published_at: '2024-11-20T10:01:00Z',
  effective_at: '2024-11-20T10:01:00Z',
  proposal_id: 7,
});
const later = pub({
  id: 3,
  hash: 'c3c3c3c3c3c3c3c3c3',
  author: 'analyst@enrollflow.example.com',
  approver: 'admin@enrollflow.example.com',
  note: 'the 2026 rates',
  published_at: '2024-11-20T12:00:00Z',
  effective_at: '2025-01-01T05:00:00Z',
  proposal_id: 8,
});

describe('the serving set tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const redirectToRoot = vi.fn();
  const onChanged = vi.fn();

  beforeEach(() => {
    polyfillDialogs();
    fetchMock.mockReset();
    redirectToRoot.mockReset();
    onChanged.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok', redirectToRoot });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const draw = () =>
    render(<ServingTab status={status} publications={[later, serving, first]} scheduled={[later]} files={[]} onChanged={onChanged} />);

  it('lists the scheduled sets in Michigan time, the zone named, with who approved and proposed them', () => {
    draw();
    const table = screen.getByRole('table', { name: /^Approved sets that take effect later/ });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Jan 1, 2025, 12:00 AM EST',
      'c3c3c3c3c3c3',
      'admin@enrollflow.example.com',
      'analyst@enrollflow.example.com',
      'the 2026 rates',
      'Cancel',
    ]);
    // The server's clock, which a schedule is measured against (a demonstration date shows here).
    expect(screen.getByText("Server's clock").nextElementSibling?.textContent).toBe(
      'Nov 20, 2024, 5:05 AM EST (Michigan time): sets scheduled for an earlier time serve now',
    );
  });

  it('cancels a scheduled set only after a confirmation', async () => {
    fetchMock.mockResolvedValue(json(200, { cancelled: 3 }));
    draw();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel set c3c3c3c3c3c3 scheduled for Jan 1, 2025, 12:00 AM EST' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel the set scheduled for Jan 1, 2025, 12:00 AM EST?' });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the scheduled set' }));
    await screen.findByText('Cancelled: set c3c3c3c3c3c3 will not take effect.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/rules/scheduled/3/cancel');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('keeps the set scheduled when the confirmation is dismissed', () => {
    draw();
    fireEvent.click(screen.getByRole('button', { name: /^Cancel set c3c3/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Keep it scheduled' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows when each publication takes effect and who approved it, the serving one and the scheduled one named', () => {
    draw();
    const history = screen.getByRole('table', { name: /^Publications, newest first/ });
    const [, scheduledRow, servingRow, firstRow] = within(history).getAllByRole('row');
    expect(within(scheduledRow!).getByText('Publish (scheduled)')).toBeTruthy();
    expect(within(scheduledRow!).queryByRole('button')).toBeNull();
    expect(within(servingRow!).getByText('Publish (serving)')).toBeTruthy();
    expect(within(servingRow!).getByText('Nov 20, 2024, 5:01 AM EST', { selector: '[data-title="Takes effect"]' })).toBeTruthy();
    expect(within(servingRow!).getByText('approver@enrollflow.example.com')).toBeTruthy();
    expect(within(servingRow!).queryByRole('button')).toBeNull();
    expect(within(firstRow!).getByRole('button', { name: /^Roll back to set a1a1a1a1a1a1/ })).toBeTruthy();
  });

  it("asks before a rollback, and shows the server's 403 without leaving the page", async () => {
    fetchMock.mockResolvedValue(json(403, { error: 'Rolling back needs the approve permission.' }));
    draw();
    fireEvent.click(screen.getByRole('button', { name: /^Roll back to set a1a1a1a1a1a1/ }));
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Roll back to set a1a1a1a1a1a1?' })).getByRole('button', { name: 'Roll back' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Rolling back needs the approve permission.');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ hash: first.hash });
    expect(redirectToRoot).not.toHaveBeenCalled();
    expect(onChanged).not.toHaveBeenCalled();
  });
});
