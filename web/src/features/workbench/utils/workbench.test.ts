import { describe, expect, it } from 'vitest';
import type { CoverageItem } from '@/types/api';
import { draftFiles, flowGraph, linesAround, missed, parseProblem, percent, uploadedPaths } from './workbench';

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
      message: 'syntax error: expecting a name',
    });
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
