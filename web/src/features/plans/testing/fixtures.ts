// Test data of the plans feature (used by the unit tests only).

import type { StepView } from '@/types/api';
import type { PlanList, PlanView } from '../types';

export function plan(overrides: Partial<PlanView> = {}): PlanView {
  return {
    id: 531,
    name: 'Blue Cross Premier PPO Silver',
    plan_type: 1,
    plan_year: 2025,
    carrier: 1,
    carrier_name: 'Blue Cross Blue Shield of Michigan',
    network: 1,
    network_name: 'PPO',
    metal: 4,
    metal_name: 'Silver',
    is_hsa: false,
    include_vision: false,
    compare: false,
    selected: false,
    sbc: 'https://example.com/sbc.pdf',
    baag: 'https://example.com/plan',
    drug_list: null,
    out_of_network_not_covered: false,
    rates: { total: 412.34, members: [] },
    ded_ind: 5000,
    ded_fam: 10000,
    ded_out_ind: 10000,
    ded_out_fam: 20000,
    coins: 30,
    max_ind_oop: 9200,
    max_2p_oop: 18400,
    max_fam_oop: 18400,
    max_oop: 9200,
    annual_max: null,
    eye_exam_copay: null,
    frames_contact_allowance: null,
    eye_exam_frequency: null,
    yearly_cost: null,
    ...overrides,
  };
}

/** A step view of kind `plans`. */
export function plansView(id: 'medical' | 'dental' | 'vision', planType: 1 | 2 | 3, extras: Record<string, unknown> = {}): StepView {
  const info = { medical: [3, 'Medical Plans'], dental: [4, 'Dental Plans'], vision: [5, 'Vision Plans'] } as const;
  const [number, title] = info[id];
  return {
    step: { id, number, route: `/${id}`, title },
    kind: 'plans',
    params: { plan_type: planType },
    skipped: false,
    previous: { id: 'census', number: 2, route: '/census', title: 'About You' },
    next: null,
    schema: null,
    ui: {},
    data: null,
    extras,
    modals: {},
    refresh_on: [],
    revision: 0,
  };
}

/** A quoted list of `n` plans, cheapest first. */
export function planList(n: number, overrides: Partial<PlanList> = {}): PlanList {
  const plans = Array.from({ length: n }, (_, i) =>
    plan({ id: 520 + i, name: `Plan ${i + 1}`, rates: { total: 300 + i * 25, members: [] } }),
  );
  return { plans, price_range: { min: 300, max: 300 + n * 25, step: 10 }, household_size: 1, selected_plan_id: null, ...overrides };
}
