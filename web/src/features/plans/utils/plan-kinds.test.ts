import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n';
import '@/test/render'; // the catalogs, English active
import { plan } from '../testing/fixtures';
import { householdOopLabel, PLAN_KINDS, planDetails, planTypeOf } from './plan-kinds';

describe('plan kinds', () => {
  it('reads the plan type from the view params', () => {
    expect(planTypeOf({ plan_type: 2 })).toBe(2);
    expect(planTypeOf({ plan_type: 9 })).toBeNull();
    expect(planTypeOf(null)).toBeNull();
  });

  it('labels the out-of-pocket maximum by household size', () => {
    expect(householdOopLabel(1)).toBe('individual');
    expect(householdOopLabel(2)).toBe('two-person');
    expect(householdOopLabel(7)).toBe('family');
  });

  it('compares medical plans on deductibles, coinsurance, out-of-pocket, the yearly estimate and premium', () => {
    const cols = PLAN_KINDS[1].compare(3, i18n);
    expect(cols.map((c) => c.header)).toEqual([
      'In-network deductible (individual / family)',
      'Out-of-network deductible (individual / family)',
      'Coinsurance',
      'Out-of-pocket maximum (family)',
      'Estimated yearly cost',
      'Monthly premium',
    ]);
    const yearly = { premium: 4948.08, deductible: 1133.66, cost_sharing: 336.13, total: 6417.87, worst_case: 14148.08 };
    expect(cols.map((c) => c.value(plan({ yearly_cost: yearly })))).toEqual([
      '$5,000 / $10,000',
      '$10,000 / $20,000',
      '30%',
      '$9,200',
      '$6,417.87',
      '$412.34',
    ]);
    // A plan without an estimate says so rather than $0.
    expect(cols[4]!.value(plan())).toBe('N/A');
  });

  it('compares vision plans on exam copay, allowance, frequency and premium', () => {
    const v = plan({ eye_exam_copay: 10, frames_contact_allowance: 130, eye_exam_frequency: 'Once every 12 months' });
    expect(PLAN_KINDS[3].compare(1, i18n).map((c) => c.value(v))).toEqual(['$10', '$130', 'Once every 12 months', '$412.34']);
  });

  it('reads an out-of-network deductible of $0 / $0 (an HMO or EPO) as no out-of-network coverage, not free care', () => {
    const hmo = plan({ network_name: 'HMO', ded_out_ind: 0, ded_out_fam: 0, out_of_network_not_covered: true });
    const details = (p: typeof hmo) => planDetails(p, 1, i18n).find((r) => r.label === 'Out-of-network deductible')?.value;
    expect(details(hmo)).toBe('Not covered (in-network care only)');
    expect(PLAN_KINDS[1].compare(1, i18n)[1]!.value(hmo)).toBe('Not covered (in-network care only)');
    expect(details(plan({ ded_out_ind: 15000, ded_out_fam: 30000 }))).toBe('$15,000 / $30,000');
    // The server decides from the catalog's network; a $0 deductible it does not flag is shown.
    expect(details(plan({ ded_out_ind: 0, ded_out_fam: 0 }))).toBe('$0 / $0');
  });

  it('lists only the details a plan has', () => {
    const rows = planDetails(plan({ ded_out_ind: null, ded_out_fam: null, is_hsa: true }), 1, i18n);
    expect(rows.map((r) => r.label)).toEqual([
      'Network',
      'Metal level',
      'In-network deductible',
      'Coinsurance',
      'Out-of-pocket maximum (individual)',
      'HSA eligible',
    ]);
  });
});
