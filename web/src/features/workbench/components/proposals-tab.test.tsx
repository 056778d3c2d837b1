import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { jsonResponse as json, polyfillDialogs } from '@/testing/kit';
import type { ImpactReport, Proposal, ProposalDetail, Publication } from '@/types/api';
import { ProposalsTab } from './proposals-tab';

// A proposal as the approver reads it (the note, the diff file by file, the evidence) and the
// decisions on it: Approve at once or from a Michigan time, Reject with a reason, refusals shown.

const impact: ImpactReport = {
  base: 'aaaa1111',
  against: 'bbbb2222',
  scenarios_run: 240,
  scenarios_changed: [],
  households_made: 1000,
  household_changes: [{ what: 'medical: plan 523 premium', changes: [{ application: 'household 17', before: '$412.50', after: '$100.00' }] }],
  applications_replayed: 198,
  applications_changed: 'fewer than 5',
  application_counts: [{ what: 'medical: plan 523 premium changes', applications: null, shown: 'fewer than 5' }],
};

const proposal: Proposal = {
  id: 7,
  hash: 'c0ffee1234567890abcdef',
  base_hash: 'bea5e1234567890abcdef',
  engine_hash: 'e1',
  note: 'Plan 523 at $100\nThe carrier lowered its rates.',
  diff_hash: 'd1',
  state: 'proposed',
  author: 'analyst@enrollflow.example.com',
  author_id: '00000000-0000-0000-0000-000000000001',
  decided_by: null,
  decided_at: null,
  reason: null,
  created_at: '2024-11-20T10:01:00Z',
  evidence: {
    impact,
    scenarios: { run: 240, failed: [] },
    coverage: {
      totals: {
        statements: { reached: 747, total: 774 },
        branches: { reached: 200, total: 220 },
        transitions: { reached: 24, total: 24 },
      },
      below_floor: [],
    },
  },
};

const detail: ProposalDetail = {
  proposal,
  serving_moved: false,
  files: [
    {
      path: 'rules/catalog/2025/medical.yaml',
      change: 'changed',
      diff: '--- a/rules/catalog/2025/medical.yaml\n+++ b/rules/catalog/2025/medical.yaml\n@@ -84,3 +84,3 @@\n     counties: all\n-    rates: { 1: 216.17 }\n+    rates: { 1: 100.00 }\n   - id: 524\n',
    },
    { path: 'templates/notes.txt', change: 'added', diff: '--- /dev/null\n+++ b/templates/notes.txt\n@@ -0,0 +1 @@\n+hello\n' },
  ],
};

const publication: Publication = {
  id: 12,
  hash: proposal.hash,
  engine_hash: 'e1',
  action: 'publish',
  author: proposal.author,
  note: proposal.note,
  published_at: '2024-11-20T11:00:00Z',
  effective_at: '2024-11-21T10:00:00Z',
  cancelled_at: null,
  approver: 'approver@enrollflow.example.com',
  proposal_id: 7,
};

describe('the proposals tab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const redirectToRoot = vi.fn();
  let answer: (path: string, init?: RequestInit) => Response;

  beforeEach(() => {
    polyfillDialogs();
    answer = () => json(200, publication);
    fetchMock.mockReset();
    redirectToRoot.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      const path = String(input);
      if (init?.method === 'POST') return answer(path, init);
      if (path === '/api/admin/rules/proposals/7') return json(200, detail);
      if (path === '/api/admin/rules/proposals') {
        return json(200, [
          { ...proposal, id: 5, created_at: '2024-11-18T10:00:00Z', note: 'Older', state: 'rejected', reason: 'Rates are wrong', decided_by: 'approver@enrollflow.example.com', decided_at: '2024-11-19T10:00:00Z' },
          proposal,
        ]);
      }
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok', redirectToRoot });
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  const posts = () =>
    fetchMock.mock.calls.filter((c) => c[1]?.method === 'POST').map((c) => ({ path: String(c[0]), body: JSON.parse(String(c[1]?.body ?? 'null')) as unknown }));

  const open = async (props: Partial<Parameters<typeof ProposalsTab>[0]> = {}) => {
    const onPublished = vi.fn();
    render(<ProposalsTab openId={7} onOpen={() => {}} onPublished={onPublished} {...props} />);
    await screen.findByText('rules/catalog/2025/medical.yaml');
    return { onPublished };
  };

  it('lists the proposals newest first, with their state in words, the decider and the reason of a rejection', async () => {
    const onOpen = vi.fn();
    render(<ProposalsTab openId={null} onOpen={onOpen} onPublished={() => {}} />);
    const table = await screen.findByRole('table', { name: 'Proposals, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['7: Plan 523 at $100', '5: Older']);
    expect(within(rows[0]!).getByText('Proposed')).toBeTruthy();
    expect(within(rows[0]!).getByText('Not yet')).toBeTruthy();
    expect(within(rows[1]!).getByText('Rejected')).toBeTruthy();
    expect(within(rows[1]!).getByText('Rates are wrong')).toBeTruthy();
    expect(within(rows[1]!).getByText('approver@enrollflow.example.com, Nov 19, 2024, 5:00 AM EST')).toBeTruthy();
    fireEvent.click(within(rows[0]!).getByRole('button', { name: /^Open proposal 7/ }));
    expect(onOpen).toHaveBeenCalledWith(7);
  });

  it('shows the note, each file as its own section with its + and - lines marked, and the evidence', async () => {
    await open();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Proposal 7' }));
    expect(screen.getByText(/The carrier lowered its rates\./)).toBeTruthy();

    const medical = screen.getByRole('region', { name: 'Diff of rules/catalog/2025/medical.yaml' });
    expect(medical.closest('details')?.querySelector('summary')?.textContent).toBe(
      'rules/catalog/2025/medical.yaml (changed: 1 line added, 1 removed)',
    );
    const added = medical.querySelectorAll('.ef-workbench__diff-added');
    const removed = medical.querySelectorAll('.ef-workbench__diff-removed');
    expect([...added].map((l) => l.textContent)).toEqual(['+    rates: { 1: 100.00 }\n']);
    expect([...removed].map((l) => l.textContent)).toEqual(['-    rates: { 1: 216.17 }\n']);
    // The file headers are not taken for added or removed lines.
    expect(medical.querySelectorAll('.ef-workbench__diff-header')).toHaveLength(2);
    const notes = screen.getByRole('region', { name: 'Diff of templates/notes.txt' });
    expect(notes.closest('details')?.querySelector('summary')?.textContent).toContain('(added: 1 line added, 0 removed)');

    expect(screen.getByText('240 scenarios run under the proposed set, 0 failed.')).toBeTruthy();
    const coverage = screen.getByRole('table', { name: 'Coverage of the proposed rules by the scenario suites' });
    expect(within(coverage).getByRole('row', { name: /Statements/ }).textContent).toContain('96.5%');
    expect(screen.getByRole('region', { name: 'Made-up households' })).toBeTruthy();
  });

  it('warns of failing scenarios, coverage below its floor and a serving set that moved', async () => {
    fetchMock.mockImplementation(async () =>
      json(200, {
        ...detail,
        serving_moved: true,
        proposal: {
          ...proposal,
          evidence: {
            ...proposal.evidence,
            scenarios: { run: 240, failed: [{ at: 'tests/scenarios/quoting.yaml:14', name: 'a 21-year-old alone', failures: ['step 1: premium 174.65 expected, 100.00'] }] },
            coverage: { ...proposal.evidence.coverage!, below_floor: ['statements 93.2% is below 95%'] },
          },
        },
      }),
    );
    await open();
    expect(screen.getByText('The set serving changed since this was proposed')).toBeTruthy();
    expect(screen.getByText('Scenarios fail under the proposed set: it cannot be approved')).toBeTruthy();
    expect(screen.getByText('step 1: premium 174.65 expected, 100.00')).toBeTruthy();
    expect(screen.getByText('statements 93.2% is below 95%')).toBeTruthy();
  });

  it('approves at once after a confirmation, sending no effective date', async () => {
    const { onPublished } = await open();
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve proposal 7 and publish it now?' });
    expect(posts()).toEqual([]);
    answer = () => json(200, { ...publication, effective_at: '2024-11-20T11:00:00Z' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and publish now' }));
    await screen.findByText(/is published: it serves now/);
    expect(posts()).toEqual([{ path: '/api/admin/rules/proposals/7/approve', body: {} }]);
    expect(onPublished).toHaveBeenCalledTimes(1);
  });

  it('approves from the Michigan time given, saying when in the confirmation and after', async () => {
    await open();
    fireEvent.change(screen.getByLabelText(/Effective from \(Michigan time\)/), { target: { value: '2024-11-21T05:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve proposal 7 for Nov 21, 2024, 5:00 AM?' });
    expect(dialog.textContent).toContain('takes effect on Nov 21, 2024, 5:00 AM, Michigan time');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve for Nov 21, 2024, 5:00 AM' }));
    const result = await screen.findByText(/takes effect on Nov 21, 2024, 5:00 AM EST/);
    expect(posts()).toEqual([{ path: '/api/admin/rules/proposals/7/approve', body: { effective_from: '2024-11-21T05:00' } }]);
    // The result takes the focus.
    await waitFor(() => expect(result.closest('[tabindex="-1"]')).toBe(document.activeElement));
  });

  it("shows the server's 403 in an alert and stays on the page", async () => {
    await open();
    answer = () => json(403, { error: 'You proposed this change: another analyst with the approve permission, or an admin, approves it.' });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve and publish now' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('You proposed this change: another analyst with the approve permission, or an admin, approves it.');
    expect(alert.textContent).toContain('Not approved');
    expect(redirectToRoot).not.toHaveBeenCalled();
  });

  it("shows a 422's effective date error at the field", async () => {
    await open();
    answer = () => json(422, { errors: { effective_from: ['That time has passed: choose a later one, or approve for now.'] } });
    fireEvent.change(screen.getByLabelText(/Effective from/), { target: { value: '2020-01-01T05:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /^Approve for/ }));
    await screen.findByRole('alert');
    expect(screen.getAllByText('That time has passed: choose a later one, or approve for now.')).toHaveLength(2);
  });

  it('asks for a reason before rejecting, then confirms and sends it', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(screen.getByText('Say why it is rejected: the author reads it.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const reason = screen.getByLabelText(/Why it is rejected/);
    expect(document.activeElement).toBe(reason);
    fireEvent.change(reason, { target: { value: 'The rates are for 2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    answer = () => json(200, { ...proposal, state: 'rejected', reason: 'The rates are for 2026' });
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Reject proposal 7?' })).getByRole('button', { name: 'Reject' }));
    await screen.findByText(/its author reads your reason/);
    expect(posts()).toEqual([{ path: '/api/admin/rules/proposals/7/reject', body: { reason: 'The rates are for 2026' } }]);
  });

  it("offers Withdraw on the person's own proposal only, when their email is known", async () => {
    await open({ currentEmail: 'approver@enrollflow.example.com' });
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
    cleanup();
    await open({ currentEmail: 'Analyst@enrollflow.example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    answer = () => json(200, { ...proposal, state: 'withdrawn' });
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Withdraw proposal 7?' })).getByRole('button', { name: 'Withdraw' }));
    await screen.findByText(/The proposal is withdrawn/);
    expect(posts()).toEqual([{ path: '/api/admin/rules/proposals/7/withdraw', body: {} }]);
  });

  it('offers no decision on a proposal decided already', async () => {
    fetchMock.mockImplementation(async () =>
      json(200, { ...detail, serving_moved: true, proposal: { ...proposal, state: 'approved', decided_by: 'approver@enrollflow.example.com', decided_at: '2024-11-20T11:00:00Z' } }),
    );
    await open();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByText('The set serving changed since this was proposed')).toBeNull();
    expect(screen.getByText('approver@enrollflow.example.com, Nov 20, 2024, 6:00 AM EST')).toBeTruthy();
  });
});
