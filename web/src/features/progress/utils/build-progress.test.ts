import { describe, expect, it } from 'vitest';
import { testFlow } from '@/testing/flow';
import { buildProgress } from './build-progress';

const items = (sections: ReturnType<typeof buildProgress>) => sections.flatMap((s) => s.items);
const enabledIds = (sections: ReturnType<typeof buildProgress>) =>
  items(sections)
    .filter((i) => !i.disabled)
    .map((i) => i.id);

describe('buildProgress', () => {
  it('groups the steps by their sections: Get Started, Select & Quote Plans and Apply for Coverage', () => {
    const sections = buildProgress(testFlow({ lastStep: 1 }), null);
    expect(sections.map((s) => s.heading)).toEqual([null, 'Select & Quote Plans', 'Apply for Coverage']);
    expect(sections.map((s) => s.items.map((i) => i.label))).toEqual([
      ['Get Started'],
      ['Basic Info', 'Medical', 'Dental', 'Vision', 'Review Selections'],
      ['Subscriber Info', 'Other Questions', 'Review and Purchase'],
    ]);
  });

  it('without an application only Get Started is enabled (last step counts as 1)', () => {
    expect(enabledIds(buildProgress(testFlow(), 'whyApplying'))).toEqual(['whyApplying']);
  });

  it('disables steps the application has not reached', () => {
    expect(enabledIds(buildProgress(testFlow({ lastStep: 4 }), 'dental'))).toEqual(['whyApplying', 'census', 'medical', 'dental']);
  });

  it('disables skipped steps even when reached', () => {
    const flow = testFlow({ lastStep: 10, skipped: ['medical', 'vision', 'other', 'pcp'], hmo: true });
    expect(enabledIds(buildProgress(flow, 'rap'))).toEqual(['whyApplying', 'census', 'dental', 'review', 'subInfo', 'rap']);
  });

  it('lists only the steps the flow lists (PCP Selection for an HMO medical plan)', () => {
    const hmo = buildProgress(testFlow({ lastStep: 10, hmo: true }), null)[2]!.items;
    expect(hmo.map((i) => [i.label, i.number, i.disabled, i.path])).toEqual([
      ['Subscriber Info', 7, false, '/subInfo'],
      ['Other Questions', 8, false, '/other'],
      ['PCP Selection', 9, false, '/pcp'],
      ['Review and Purchase', 10, false, '/rap'],
    ]);
    expect(items(buildProgress(testFlow({ lastStep: 10 }), null)).some((i) => i.id === 'pcp')).toBe(false);
  });

  it('takes a new step, title or section from the flow as it comes', () => {
    const flow = testFlow({ lastStep: 9 });
    const at = flow.steps.findIndex((s) => s.id === 'pcp');
    flow.steps.splice(at, 0, { ...flow.steps[at]!, id: 'payment', number: 9, route: '/payment', title: 'Payment Method', nav: 'Payment', listed: true, skipped: false });
    const apply = buildProgress(flow, 'payment')[2]!.items;
    expect(apply.map((i) => i.label)).toEqual(['Subscriber Info', 'Other Questions', 'Payment', 'Review and Purchase']);
    expect(apply.find((i) => i.current)?.path).toBe('/payment');
  });

  it('marks only the current step, and lists nothing without a flow', () => {
    const current = items(buildProgress(testFlow({ lastStep: 3 }), 'census')).filter((i) => i.current);
    expect(current.map((i) => i.id)).toEqual(['census']);
    expect(buildProgress(null, null)).toEqual([]);
  });
});
