import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { jsonResponse as json, polyfillDialogs } from '@/testing/kit';
import type { ImpactReport } from '@/types/api';
import { DraftTab, ImpactView, NOTE_REQUIRED } from './draft-tab';
import { PlainEditor, type FileEditorProps } from './plain-editor';
import { servingStatus } from '../testing/status';

// The code editor (its own tests: code-editor.test.tsx) as the plain field it stands in for, the
// props it was last given kept.
const editor = vi.hoisted(() => ({ last: null as FileEditorProps | null }));
vi.mock('./code-editor', () => ({
  default: (props: FileEditorProps) => {
    editor.last = props;
    return <PlainEditor {...props} />;
  },
}));

// The impact of a draft: made-up households with their values, customers' stored applications as
// counts only (in the published set's words, a small group as "fewer than 5").

afterEach(cleanup);

const report: ImpactReport = {
  base: 'aaaa1111',
  against: 'bbbb2222',
  scenarios_run: 240,
  scenarios_changed: [],
  households_made: 1000,
  household_changes: [
    {
      what: 'medical: plan 521 premium',
      changes: [
        { application: 'household 17', before: '$412.50', after: '$255.60' },
        { application: 'household 204', before: '$388.10', after: '$240.00' },
      ],
    },
    { what: 'dental: flag skip_dental', changes: [{ application: 'household 17', before: 'false', after: 'true' }] },
  ],
  applications_replayed: 198,
  applications_changed: '12',
  application_counts: [
    { what: 'medical: plan 521 premium changes', applications: 12, shown: '12' },
    { what: 'dental: flag skip_dental changes', applications: null, shown: 'fewer than 5' },
  ],
};

describe('ImpactView', () => {
  it('counts what changes: scenarios, distinct made-up households and stored applications', () => {
    render(<ImpactView report={report} />);
    expect(screen.getByRole('status').textContent).toBe(
      '240 scenarios run, 0 changed; 1,000 made-up households walked, 2 changed; 198 stored applications replayed, 12 changed.',
    );
  });

  it("shows the made-up households' before and after, each household named whole", () => {
    render(<ImpactView report={report} />);
    const made = screen.getByRole('region', { name: 'Made-up households' });
    const group = within(made).getByText('(medical: plan 521 premium; 2 households)').closest('details');
    expect(group).toBeTruthy();
    const row = within(group!).getByRole('row', { name: /household 17/ });
    expect(within(row).getByRole('cell', { name: 'household 17' })).toBeTruthy();
    expect(within(row).getByRole('cell', { name: '$412.50' })).toBeTruthy();
    expect(within(row).getByRole('cell', { name: '$255.60' })).toBeTruthy();
  });

  it("names a premium's plan as the catalog does, or \"plan 521\"", () => {
    const { unmount } = render(<ImpactView report={report} planNames={new Map([['medical:521', 'Blue Cross Premier PPO Bronze']])} />);
    const summary = (text: RegExp) => screen.getByText(text, { selector: 'summary' }).textContent;
    expect(summary(/^Blue Cross/)).toBe('Blue Cross Premier PPO Bronze: medical monthly premium (medical: plan 521 premium; 2 households)');
    unmount();
    render(<ImpactView report={report} />);
    expect(summary(/^plan 521/)).toBe('plan 521: medical monthly premium (medical: plan 521 premium; 2 households)');
    // A group that is no plan's reads as the server says it.
    expect(summary(/^dental/)).toBe('dental: flag skip_dental (1 household)');
  });

  it('says each change in dollars and percent, and totals the group: households affected, the average change', () => {
    render(<ImpactView report={report} />);
    const group = screen.getByText('(medical: plan 521 premium; 2 households)').closest('details')!;
    expect(within(group).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Household', 'Before', 'After', 'Change']);
    const cells = (name: RegExp) => within(within(group).getByRole('row', { name })).getAllByRole('cell').map((c) => c.textContent);
    expect(cells(/household 17/)).toEqual(['household 17', '$412.50', '$255.60', '\u2212$156.90, \u221238.0 %']);
    expect(cells(/household 204/)).toEqual(['household 204', '$388.10', '$240.00', '\u2212$148.10, \u221238.2 %']);
    expect(within(group).getByText('2 households affected; average change \u2212$152.50 (\u221238.1 %).')).toBeTruthy();
    // Values that are no amounts have no Change column.
    const flags = screen.getByText('dental: flag skip_dental (1 household)').closest('details')!;
    expect(within(flags).getAllByRole('columnheader')).toHaveLength(3);
    expect(within(flags).getByText('1 household affected.')).toBeTruthy();
  });

  it('shows stored applications as counts only, a small group as "fewer than 5", with no application column', () => {
    render(<ImpactView report={report} />);
    const stored = screen.getByRole('region', { name: 'Stored applications' });
    expect(within(stored).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['What changes', 'Applications']);
    const rows = within(stored)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['medical: plan 521 premium changes', '12'],
      ['dental: flag skip_dental changes', 'fewer than 5'],
    ]);
    expect(within(stored).queryByText(/\$|household/)).toBeNull();
  });

  it('says "fewer than 5" in the status line when few stored applications change', () => {
    render(<ImpactView report={{ ...report, applications_changed: 'fewer than 5' }} />);
    expect(screen.getByRole('status').textContent).toContain('198 stored applications replayed, fewer than 5 changed.');
  });

  it('says the draft changes nothing when no scenario, household or stored application changes', () => {
    render(<ImpactView report={{ ...report, household_changes: [], applications_changed: 'fewer than 5', application_counts: [] }} />);
    expect(screen.getByRole('status').textContent).toContain('The draft changes nothing.');
    expect(screen.queryByRole('region', { name: 'Made-up households' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Stored applications' })).toBeNull();
  });

  it('does not say nothing changes while stored applications change', () => {
    render(<ImpactView report={{ ...report, household_changes: [] }} />);
    expect(screen.getByRole('status').textContent).not.toContain('changes nothing');
    expect(screen.getByRole('region', { name: 'Stored applications' })).toBeTruthy();
  });
});

describe('Propose for approval', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const status = servingStatus;
  const files = [{ path: 'rules/a.yaml', text: 'a: 1' }];

  beforeEach(() => {
    polyfillDialogs();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async () =>
      json(200, { proposal: { id: 9, hash: 'c0ffee1234567890', state: 'proposed' }, files: [], serving_moved: false }),
    );
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok' });
  });
  afterEach(() => resetApiClient());

  const edit = () =>
    fireEvent.change(screen.getByLabelText('Contents of rules/a.yaml'), { target: { value: 'a: 2' } });

  it('requires the note, said at the field, before anything is asked or sent', () => {
    render(<DraftTab status={status} files={files} onOpenProposal={() => {}} />);
    edit();
    fireEvent.click(screen.getByRole('button', { name: 'Propose for approval' }));
    expect(screen.getByText(NOTE_REQUIRED)).toBeTruthy();
    const note = screen.getByLabelText(/What changes and why/);
    expect(document.activeElement).toBe(note);
    expect(note.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('confirms, sends the files with the note, says who approves it and opens it in the Proposals tab', async () => {
    const onOpenProposal = vi.fn();
    render(<DraftTab status={status} files={files} onOpenProposal={onOpenProposal} />);
    edit();
    fireEvent.change(screen.getByLabelText(/What changes and why/), { target: { value: '  a is 2 now  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Propose for approval' }));
    const dialog = screen.getByRole('dialog', { name: 'Propose this draft for approval?' });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Propose' }));
    const done = await screen.findByText(/^Proposed: another analyst with the approve permission, or an admin, approves it\./);
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/admin/rules/proposals');
    expect(JSON.parse(String(init?.body))).toEqual({ files: [{ path: 'rules/a.yaml', text: 'a: 2' }], note: 'a is 2 now' });
    await waitFor(() => expect(done.closest('[tabindex="-1"]')).toBe(document.activeElement));
    fireEvent.click(screen.getByRole('button', { name: 'Open proposal 9 in the Proposals tab' }));
    expect(onOpenProposal).toHaveBeenCalledWith(9);
  });

  it("shows the server's note error at the field", async () => {
    fetchMock.mockImplementation(async () => json(422, { errors: { note: ['Say what the change is and why, in at most 2,000 characters.'] } }));
    render(<DraftTab status={status} files={files} onOpenProposal={() => {}} />);
    edit();
    fireEvent.change(screen.getByLabelText(/What changes and why/), { target: { value: 'x'.repeat(2001) } });
    fireEvent.click(screen.getByRole('button', { name: 'Propose for approval' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Propose' }));
    await screen.findByRole('alert');
    expect(screen.getAllByText('Say what the change is and why, in at most 2,000 characters.')).toHaveLength(2);
  });
});

describe("a draft's problems in the editor", () => {
  const status = servingStatus;
  const files = [
    { path: 'rules/a.yaml', text: 'a: 1' },
    { path: 'rules/scripts/b.rhai', text: 'fn b() {\n    let = ;\n}' },
  ];

  beforeEach(() => {
    editor.last = null;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () =>
        json(422, { errors: { files: ['rules/a.yaml:1:4: unknown key', 'rules/scripts/b.rhai:2:9: expecting a name', 'rules/scripts/b.rhai:3: unclosed', 'The set has no flow.'] } }),
      ),
    );
    configureApiClient({ csrfToken: () => 'tok' });
  });
  afterEach(() => resetApiClient());

  it("gives the editor the open file's problems, counts them in the file list, and opens a file at a problem's line", async () => {
    render(<DraftTab status={status} files={files} onOpenProposal={() => {}} />);
    // The editor is loaded on demand; until it is, the plain field.
    await waitFor(() => expect(editor.last?.path).toBe('rules/a.yaml'), { timeout: 10_000 });
    expect(editor.last?.problems).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'See the impact' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The set has no flow.')).toBeTruthy();
    expect(editor.last?.problems).toEqual([{ line: 1, column: 4, message: 'unknown key' }]);
    expect(screen.getByRole('option', { name: 'rules/scripts/b.rhai (2 problems)' })).toBeTruthy();

    fireEvent.click(within(alert).getByRole('button', { name: 'Edit rules/scripts/b.rhai at line 3' }));
    expect((screen.getByLabelText('File', { selector: 'select' }) as HTMLSelectElement).value).toBe('rules/scripts/b.rhai');
    expect(editor.last).toMatchObject({
      path: 'rules/scripts/b.rhai',
      problems: [
        { line: 2, column: 9, message: 'expecting a name' },
        { line: 3, message: 'unclosed' },
      ],
      reveal: { line: 3 },
    });
  });
});

describe('See the impact', () => {
  const status = servingStatus;

  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => json(200, report)));
    configureApiClient({ csrfToken: () => 'tok' });
  });
  afterEach(() => resetApiClient());

  it("names the plans as the serving set's catalog does", async () => {
    const files = [{ path: 'rules/catalog/2025/medical.yaml', text: 'plans:\n  - id: 521\n    name: "Blue Cross Premier PPO Bronze"\n' }];
    render(<DraftTab status={status} files={files} onOpenProposal={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'See the impact' }));
    const summary = await screen.findByText(/^Blue Cross Premier PPO Bronze: medical monthly premium/, { selector: 'summary' });
    expect(summary.textContent).toBe('Blue Cross Premier PPO Bronze: medical monthly premium (medical: plan 521 premium; 2 households)');
  });
});
