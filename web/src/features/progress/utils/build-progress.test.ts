import { describe, expect, it } from 'vitest';
import { buildProgress, type ProgressApplication } from './build-progress';

const app = (over: Partial<ProgressApplication> = {}): ProgressApplication => ({
  lastStep: 1,
  medicalNetworkTypeId: 1,
  skipMedical: false,
  skipDental: false,
  skipVision: false,
  skipOther: false,
  skipPcp: false,
  ...over,
});

const items = (sections: ReturnType<typeof buildProgress>) => sections.flatMap((s) => s.items);
const enabledIds = (sections: ReturnType<typeof buildProgress>) =>
  items(sections)
    .filter((i) => !i.disabled)
    .map((i) => i.id);

describe('buildProgress', () => {
  it('groups the steps as Get Started, Select & Quote Plans and Apply for Coverage', () => {
    const sections = buildProgress(app(), null);
    expect(sections.map((s) => s.heading)).toEqual([null, 'Select & Quote Plans', 'Apply for Coverage']);
    expect(sections.map((s) => s.items.map((i) => i.label))).toEqual([
      ['Get Started'],
      ['Basic Info', 'Medical', 'Dental', 'Vision', 'Review Selections'],
      ['Subscriber Info', 'Other Questions', 'Review and Purchase'],
    ]);
  });

  it('without an application only Get Started is enabled (last step counts as 1)', () => {
    expect(enabledIds(buildProgress(null, 'whyApplying'))).toEqual(['whyApplying']);
  });

  it('disables steps later than the last step', () => {
    expect(enabledIds(buildProgress(app({ lastStep: 4 }), 'dental'))).toEqual(['whyApplying', 'census', 'medical', 'dental']);
  });

  it('disables skipped steps even when reached', () => {
    const sections = buildProgress(
      app({ lastStep: 10, skipMedical: 1, skipVision: true, skipOther: true, medicalNetworkTypeId: 2, skipPcp: true }),
      'rap',
    );
    expect(enabledIds(sections)).toEqual(['whyApplying', 'census', 'dental', 'review', 'subInfo', 'rap']);
  });

  it('disables dental when skipDental is set', () => {
    const dental = items(buildProgress(app({ lastStep: 6, skipDental: 1 }), null)).find((i) => i.id === 'dental');
    expect(dental?.disabled).toBe(true);
  });

  it('lists PCP Selection (step 9) only for an HMO medical plan', () => {
    const hmo = buildProgress(app({ medicalNetworkTypeId: 2, lastStep: 10 }), null)[2]!.items;
    expect(hmo.map((i) => [i.label, i.number, i.disabled])).toEqual([
      ['Subscriber Info', 7, false],
      ['Other Questions', 8, false],
      ['PCP Selection', 9, false],
      ['Review and Purchase', 10, false],
    ]);
    expect(items(buildProgress(app({ medicalNetworkTypeId: 3 }), null)).some((i) => i.id === 'pcp')).toBe(false);
    expect(items(buildProgress(null, null)).some((i) => i.id === 'pcp')).toBe(false);
  });

  it('marks only the current step', () => {
    const current = items(buildProgress(app({ lastStep: 3 }), 'census')).filter((i) => i.current);
    expect(current.map((i) => i.id)).toEqual(['census']);
  });
});
