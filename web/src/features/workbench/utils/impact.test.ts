import { describe, expect, it } from 'vitest';
import {
  changeLine,
  groupTotals,
  moneyChange,
  parseMoney,
  planGroup,
  planName,
  planNames,
  signedPercent,
  totalsLine,
} from './impact';

const catalog = `plan_year: 2025
plans:
  - id: 520
    name: "Blue Cross Premier PPO Catastrophic"
    carrier: 1
  - id: 521   # the bronze
    name: 'Blue Cross Premier PPO Bronze'
    rates: { 1: 224.70 }
  - { id: 530, name: Silver Flow Plan, carrier: 2 }
`;

describe('the impact in business terms', () => {
  it("reads the plans' names from the set's catalogs, by kind and by id", () => {
    const names = planNames([
      { path: 'rules/catalog/2025/medical.yaml', text: catalog },
      { path: 'rules/catalog/2025/dental.yaml', text: 'plans:\n  - id: 620\n    name: "Blue Dental PPO Basic"\n' },
      { path: 'rules/catalog/2025/limits.yaml', text: 'plans:\n  - id: 1\n    name: "not a plan"\n' },
      { path: 'rules/flows/x.yaml', text: '  - id: 2\n    name: other' },
    ]);
    expect(names.get('medical:521')).toBe('Blue Cross Premier PPO Bronze');
    expect(names.get('520')).toBe('Blue Cross Premier PPO Catastrophic');
    expect(names.get('medical:530')).toBe('Silver Flow Plan');
    expect(names.get('dental:620')).toBe('Blue Dental PPO Basic');
    expect(names.has('1')).toBe(false);
    expect(names.has('2')).toBe(false);
  });

  it("names a group's plan, or says \"plan 521\" when no catalog names it", () => {
    const g = planGroup('medical: plan 521 premium');
    expect(g).toEqual({ step: 'medical', id: '521', what: 'premium' });
    expect(planName(g!, new Map([['medical:521', 'Bronze']]))).toBe('Bronze');
    expect(planName(g!, new Map([['521', 'Bronze']]))).toBe('Bronze');
    expect(planName(g!, new Map())).toBe('plan 521');
    expect(planGroup('dental: flag skip_dental')).toBeNull();
  });

  it('reads amounts, and nothing else, as dollars', () => {
    expect(parseMoney('$412.50')).toBe(412.5);
    expect(parseMoney('$1,097.26')).toBe(1097.26);
    expect(parseMoney('226.19')).toBe(226.19);
    expect(parseMoney('$48,103.00')).toBe(48103);
    for (const t of ['—', 'not charged', '174.65, 174.65', 'true', '', '$1,00.00']) expect(parseMoney(t)).toBeNull();
  });

  it('says each change in dollars and percent', () => {
    expect(changeLine('$412.50', '$255.60')).toBe('$412.50 → $255.60 (\u2212$156.90, \u221238.0 %)');
    expect(changeLine('$100.00', '$112.00')).toBe('$100.00 → $112.00 (+$12.00, +12.0 %)');
    expect(changeLine('$0.00', '$5.00')).toBe('$0.00 → $5.00 (+$5.00)');
    expect(changeLine('$5.00', '$5.00')).toBe('$5.00 → $5.00 ($0.00, 0.0 %)');
    expect(changeLine('—', '$255.60')).toBe('— → $255.60');
    const cents = moneyChange('$1,000.00', '$1,000.10');
    expect(cents).toMatchObject({ before: 1000, after: 1000.1, delta: 0.1 });
    expect(cents?.percent).toBeCloseTo(0.01, 5);
    expect(signedPercent(-0.04)).toBe('0.0 %');
  });

  it("totals a group: households affected, the average change, those who gain or lose the amount", () => {
    const t = groupTotals([
      { application: 'household 17', before: '$412.50', after: '$255.60' },
      { application: 'household 204', before: '$388.10', after: '$240.00' },
      { application: 'household 9', before: '—', after: '$100.00' },
      { application: 'household 12', before: '$90.00', after: '—' },
    ]);
    expect(t).toMatchObject({ households: 4, compared: 2, gained: 1, lost: 1 });
    expect(t.average).toBeCloseTo(-152.5, 5);
    expect(totalsLine(t)).toBe('4 households affected; average change \u2212$152.50 (\u221238.1 %); 1 newly quoted; 1 no longer quoted');
    expect(totalsLine(groupTotals([{ application: 'household 1', before: 'false', after: 'true' }]))).toBe('1 household affected');
  });
});
