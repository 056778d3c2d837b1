// What differs between the medical, dental and vision pages (spec part 1, 2.7-2.10): labels,
// premium notes and the compare table's columns. Which plans and filters exist is the server's.

import type { PlanType, PlanView } from '../types';
import { formatAmount, formatPair, formatPercent, formatPremium, NOT_AVAILABLE } from '@/lib/money';

export interface CompareColumn {
  header: string;
  value: (plan: PlanView) => string;
}

export interface PlanKind {
  type: PlanType;
  /** "Medical", "Dental", "Vision". */
  label: string;
  /** Premium notes shown above the plans. */
  notes: readonly string[];
  /** Compare table columns after the plan name (premium last). */
  compare: (householdSize: number) => CompareColumn[];
}

/** "individual", "two-person" or "family", as the out-of-pocket maximum shown (spec part 1, 4.4). */
export function householdOopLabel(householdSize: number): string {
  if (householdSize <= 1) return 'individual';
  if (householdSize === 2) return 'two-person';
  return 'family';
}

const premium: CompareColumn = { header: 'Monthly premium', value: (p) => formatPremium(p.rates.total) };

function benefitColumns(householdSize: number): CompareColumn[] {
  return [
    { header: 'In-network deductible (individual / family)', value: (p) => formatPair(p.ded_ind, p.ded_fam) },
    { header: 'Out-of-network deductible (individual / family)', value: (p) => formatPair(p.ded_out_ind, p.ded_out_fam) },
    { header: 'Coinsurance', value: (p) => formatPercent(p.coins) },
    { header: `Out-of-pocket maximum (${householdOopLabel(householdSize)})`, value: (p) => formatAmount(p.max_oop) },
    premium,
  ];
}

const visionColumns = (): CompareColumn[] => [
  { header: 'Eye exam copay', value: (p) => formatAmount(p.eye_exam_copay) },
  { header: 'Frames and contact lens allowance', value: (p) => formatAmount(p.frames_contact_allowance) },
  { header: 'Adult eye exam frequency', value: (p) => p.eye_exam_frequency ?? NOT_AVAILABLE },
  premium,
];

const MONTHLY = 'Premiums are monthly totals for everyone in your household; the carrier confirms the final rate at enrollment.';

export const PLAN_KINDS: Record<PlanType, PlanKind> = {
  1: {
    type: 1,
    label: 'Medical',
    notes: [
      'Premiums are charged for the subscriber, the spouse, all adult children 21 and older, and the three oldest dependent children under 21.',
      'Child-only policies are available on all plans.',
      'Pediatric vision coverage is included in all medical plans.',
      'Provider networks differ by carrier: check that your doctors are in a plan’s network before you choose it.',
    ],
    compare: benefitColumns,
  },
  2: { type: 2, label: 'Dental', notes: [MONTHLY], compare: benefitColumns },
  3: { type: 3, label: 'Vision', notes: [MONTHLY], compare: visionColumns },
};

/** The plan type of a step view's params (`{ plan_type: 1 }`), or null. */
export function planTypeOf(params: unknown): PlanType | null {
  const t = params && typeof params === 'object' ? (params as { plan_type?: unknown }).plan_type : undefined;
  return t === 1 || t === 2 || t === 3 ? t : null;
}

export interface DetailRow {
  label: string;
  value: string;
}

/** A plan card's details: every benefit the plan has, none it lacks. */
export function planDetails(plan: PlanView, householdSize: number): DetailRow[] {
  const rows: DetailRow[] = [];
  const add = (label: string, value: string | null) => {
    if (value !== null) rows.push({ label, value });
  };
  add('Network', plan.network_name);
  add('Metal level', plan.metal_name);
  add('In-network deductible', plan.ded_ind == null && plan.ded_fam == null ? null : formatPair(plan.ded_ind, plan.ded_fam));
  add(
    'Out-of-network deductible',
    plan.ded_out_ind == null && plan.ded_out_fam == null ? null : formatPair(plan.ded_out_ind, plan.ded_out_fam),
  );
  add('Coinsurance', plan.coins == null ? null : formatPercent(plan.coins));
  add(`Out-of-pocket maximum (${householdOopLabel(householdSize)})`, plan.max_oop == null ? null : formatAmount(plan.max_oop));
  add('Annual benefit maximum', plan.annual_max == null ? null : formatAmount(plan.annual_max));
  add('Eye exam copay', plan.eye_exam_copay == null ? null : formatAmount(plan.eye_exam_copay));
  add(
    'Frames and contact lens allowance',
    plan.frames_contact_allowance == null ? null : formatAmount(plan.frames_contact_allowance),
  );
  add('Adult eye exam frequency', plan.eye_exam_frequency);
  if (plan.is_hsa) add('HSA eligible', 'Yes');
  if (plan.include_vision) add('Includes vision', 'Yes');
  return rows;
}
