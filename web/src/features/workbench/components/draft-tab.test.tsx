import { cleanup, render, screen, within } from '@/test/render';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImpactReport } from '@/types/api';
import { ImpactView } from './draft-tab';

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
    const group = within(made).getByText('medical: plan 521 premium (2 households)').closest('details');
    expect(group).toBeTruthy();
    const row = within(group!).getByRole('row', { name: /household 17/ });
    expect(within(row).getByRole('cell', { name: 'household 17' })).toBeTruthy();
    expect(within(row).getByRole('cell', { name: '$412.50' })).toBeTruthy();
    expect(within(row).getByRole('cell', { name: '$255.60' })).toBeTruthy();
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
