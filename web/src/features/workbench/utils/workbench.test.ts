import { describe, expect, it } from 'vitest';
import type { CoverageItem, Publication } from '@/types/api';
import {
  diffCounts,
  diffLines,
  draftFiles,
  flowGraph,
  linesAround,
  michiganTime,
  missed,
  parseProblem,
  percent,
  servingPublication,
  uploadedPaths,
  wallTime,
} from './workbench';

const files = [
  { path: 'rules/a.yaml', text: 'one\ntwo\nthree\nfour\nfive\nsix' },
  { path: 'forms/b.form.yaml', text: 'x: 1' },
];

describe('the workbench helpers', () => {
  it('rounds coverage down so that 100% means everything', () => {
    expect(percent({ reached: 747, total: 774 })).toBe('96.5%');
    expect(percent({ reached: 773, total: 774 })).toBe('99.8%');
    expect(percent({ reached: 24, total: 24 })).toBe('100.0%');
    expect(percent({ reached: 0, total: 0 })).toBe('100%');
  });

  it('shows the lines around a problem', () => {
    const lines = linesAround(files, 'rules/a.yaml', 2);
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3, 4]);
    expect(lines.filter((l) => l.at).map((l) => l.text)).toEqual(['two']);
    expect(linesAround(files, 'rules/missing.yaml', 2)).toEqual([]);
  });

  it('reads the server’s file:line:column problems', () => {
    expect(parseProblem('rules/scripts/plans.rhai:5:21: syntax error: expecting a name')).toEqual({
      file: 'rules/scripts/plans.rhai',
      line: 5,
      column: 21,
      message: 'syntax error: expecting a name',
    });
    expect(parseProblem('forms/census.form.yaml:12: unknown key')).toEqual({ file: 'forms/census.form.yaml', line: 12, message: 'unknown key' });
    expect(parseProblem('The draft has no files.')).toBeNull();
  });

  it('makes a draft of the serving files with the edited ones', () => {
    const d = draftFiles(files, { 'rules/a.yaml': 'changed', 'rules/new.yaml': 'n: 1' });
    expect(d.map((f) => f.path)).toEqual(['forms/b.form.yaml', 'rules/a.yaml', 'rules/new.yaml']);
    expect(d.find((f) => f.path === 'rules/a.yaml')?.text).toBe('changed');
  });

  it('takes an uploaded folder’s rule files from their folders on, whatever folder was chosen', () => {
    const m = uploadedPaths([
      'enrollflow/rules/flows/enrollment.flow.yaml',
      'enrollflow/rules/README.md',
      'enrollflow/templates/email/receipt.txt',
      'enrollflow/server/src/main.rs',
      'enrollflow/forms/.census.form.yaml.swp',
      'rules/scripts/plans.rhai',
    ]);
    expect([...m.values()]).toEqual(['rules/flows/enrollment.flow.yaml', 'templates/email/receipt.txt', 'rules/scripts/plans.rhai']);
  });

  it('draws the flow’s steps with their transitions and dialogs', () => {
    const item = (what: string, reached: boolean): CoverageItem => ({ kind: 'transition', what, file: 'f', line: 1, reached });
    const g = flowGraph(
      [
        { id: 'census', title: 'About You', number: 2, route: '/census' },
        { id: 'medical', title: 'Medical Plans', number: 3, route: '/medical' },
      ],
      [item('census → medical', true), item('census → dialog subsidy', false), { ...item('x', true), kind: 'field' }],
    );
    expect(g[0]?.edges).toEqual([
      { to: 'medical', dialog: false, reached: true, file: 'f', line: 1 },
      { to: 'subsidy', dialog: true, reached: false, file: 'f', line: 1 },
    ]);
    expect(g[1]?.edges).toEqual([]);
  });

  it('lists what was not reached, statements first', () => {
    const item = (kind: CoverageItem['kind'], line: number, reached = false): CoverageItem => ({ kind, what: '', file: 'f', line, reached });
    const report = { totals: {} as never, files: [], page_modals: [], items: [item('transition', 1), item('statement', 9), item('statement', 3), item('field', 1, true)] };
    expect(missed(report).map((i) => `${i.kind}:${i.line}`)).toEqual(['statement:3', 'statement:9', 'transition:1']);
  });
});

describe('the approval helpers', () => {
  it("names Michigan's zone, standard or daylight time", () => {
    expect(michiganTime('2024-11-20T10:01:00Z')).toBe('Nov 20, 2024, 5:01 AM EST');
    expect(michiganTime('2024-07-20T10:01:00Z')).toBe('Jul 20, 2024, 6:01 AM EDT');
    expect(michiganTime('not a date')).toBe('not a date');
  });

  it('reads a datetime-local value as the wall clock it is', () => {
    expect(wallTime('2024-11-21T05:00')).toBe('Nov 21, 2024, 5:00 AM');
    expect(wallTime('2025-03-09T14:30')).toBe('Mar 9, 2025, 2:30 PM');
  });

  it("tells a unified diff's added and removed lines from its headers, hunks and context", () => {
    const lines = diffLines('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n same\n-old\n+new\n--- not a header\n\\ No newline at end of file\n');
    expect(lines.map((l) => l.kind)).toEqual(['header', 'header', 'hunk', 'context', 'removed', 'added', 'removed', 'header']);
    expect(diffCounts(lines)).toEqual({ added: 1, removed: 2 });
  });

  it('finds the publication serving: the last in effect, neither cancelled nor still scheduled', () => {
    const p = (id: number, effective: string, over: Partial<Publication> = {}): Publication => ({
      id,
      hash: `h${id}`,
      engine_hash: 'e',
      action: 'publish',
      author: 'a',
      note: null,
      published_at: effective,
      effective_at: effective,
      cancelled_at: null,
      approver: null,
      proposal_id: null,
      ...over,
    });
    const scheduled = p(4, '2025-01-01T05:00:00Z');
    const cancelled = p(3, '2024-11-20T12:00:00Z', { cancelled_at: '2024-11-20T11:00:00Z' });
    // Approved at once after 4 was scheduled, but before it takes effect.
    const now = p(5, '2024-11-20T11:00:00Z');
    const publications = [now, scheduled, cancelled, p(2, '2024-11-10T10:00:00Z'), p(1, '2024-11-01T10:00:00Z')];
    expect(servingPublication(publications, [scheduled])).toBe(5);
    expect(servingPublication(publications.slice(1), [scheduled])).toBe(2);
    expect(servingPublication([], [])).toBeNull();
  });
});
