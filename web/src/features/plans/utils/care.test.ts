import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n';
import '@/test/render'; // the catalogs, English active
import { plan } from '../testing/fixtures';
import type { CareNeeds, PlanCoverage } from '../types';
import { careInput, coverageByPlan, hasDoctorsOrDrugs, plansCoveringAll, sameUses } from './care';
import { fullUses, isProviderQuery, withDoctor, withoutDrug } from './care-edits';
import { tierWords } from '../components/plan-coverage';

const LEE = { npi: '1234567893', name: 'Dr. Dana Lee', specialty: null, city: null, kind: 'individual' as const };
const CARE: CareNeeds = { uses: ['low'], doctors: [LEE], drugs: [{ rxnorm_id: '861007', name: 'metformin' }] };

describe('care list helpers', () => {
  it('says each tier in words, and an unknown tier as given', () => {
    expect(tierWords('GENERIC', i18n)).toBe('Generic');
    expect(tierWords('PREFERRED-GENERIC', i18n)).toBe('Preferred generic');
    expect(tierWords('NON-PREFERRED-GENERIC', i18n)).toBe('Non-preferred generic');
    expect(tierWords('BRAND', i18n)).toBe('Brand');
    expect(tierWords('PREFERRED-BRAND', i18n)).toBe('Preferred brand');
    expect(tierWords('NON-PREFERRED-BRAND', i18n)).toBe('Non-preferred brand');
    expect(tierWords('SPECIALTY', i18n)).toBe('Specialty');
    expect(tierWords('ZERO-COST-SHARE-PREVENTIVE', i18n)).toBe('No cost (preventive)');
    expect(tierWords('preferred_brand', i18n)).toBe('Preferred brand');
    expect(tierWords('MEDICAL-SERVICE', i18n)).toBe('MEDICAL-SERVICE');
  });

  it('makes the PUT body of ids and tells the lists apart', () => {
    expect(careInput(CARE)).toEqual({ uses: ['low'], doctors: ['1234567893'], drugs: ['861007'] });
    expect(hasDoctorsOrDrugs(CARE)).toBe(true);
    expect(hasDoctorsOrDrugs({ uses: [], doctors: [], drugs: [] })).toBe(false);
    expect(hasDoctorsOrDrugs(null)).toBe(false);
    expect(withDoctor(CARE, LEE)).toBe(CARE);
    expect(withoutDrug(CARE, '861007').drugs).toEqual([]);
    expect(sameUses(CARE, { ...CARE, uses: ['high'] })).toBe(false);
    expect(fullUses(['high'], 3)).toEqual(['high', 'medium', 'medium']);
  });

  it('searches providers by a name of 2 characters or more or by a whole NPI', () => {
    expect(isProviderQuery('a')).toBe(false);
    expect(isProviderQuery(' le ')).toBe(true);
    expect(isProviderQuery('12345')).toBe(false);
    expect(isProviderQuery('1234567893')).toBe(true);
    expect(isProviderQuery('12345678931')).toBe(false);
  });

  it('keeps the plans whose coverage covers all, in their order', () => {
    const cover = (plan_id: number, covers_all: boolean): PlanCoverage => ({ plan_id, doctors: [], drugs: [], covers_all });
    const byPlan = coverageByPlan({ as_of: [], plans: [cover(1, true), cover(2, false), cover(3, true)] });
    const plans = [3, 2, 1, 4].map((id) => plan({ id }));
    expect(plansCoveringAll(plans, byPlan).map((p) => p.id)).toEqual([3, 1]);
  });
});
