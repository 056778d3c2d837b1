// What differs between the medical, dental and vision pages (spec part 1, 2.7-2.10): labels,
// premium notes and the compare table's columns. Which plans and filters exist is the server's.

import type { I18n, MessageDescriptor } from '@lingui/core';
import type { PlanType, PlanView } from '../types';
import { formatAmount, formatPair, formatPercent, formatPremium, NOT_AVAILABLE } from '@/lib/money';

export interface CompareColumn {
  header: string;
  value: (plan: PlanView) => string;
  /** The monthly premium: first on a phone's plan cards, whatever the table's order. */
  premium?: true;
}

export interface PlanKind {
  type: PlanType;
  /** The texts that name the kind ("Medical"), each a whole message: a language words each its own way. */
  compareHeading: MessageDescriptor;
  printComparison: MessageDescriptor;
  continueWithout: MessageDescriptor;
  /** Premium notes shown above the plans. */
  notes: readonly MessageDescriptor[];
  /** Compare table columns after the plan name (premium last), in the active language. */
  compare: (householdSize: number, i18n: I18n) => CompareColumn[];
}

/** "individual", "two-person" or "family", as the out-of-pocket maximum shown (spec part 1, 4.4). */
export function householdOopLabel(householdSize: number): 'individual' | 'two-person' | 'family' {
  if (householdSize <= 1) return 'individual';
  if (householdSize === 2) return 'two-person';
  return 'family';
}

/** "Out-of-pocket maximum (family)": one whole message per household. */
const OOP_MAXIMUM = {
  individual: /*i18n*/ { id: 'Out-of-pocket maximum (individual)' },
  'two-person': /*i18n*/ { id: 'Out-of-pocket maximum (two-person)' },
  family: /*i18n*/ { id: 'Out-of-pocket maximum (family)' },
} as const;

function oopMaximumLabel(householdSize: number, i18n: I18n): string {
  return i18n._(OOP_MAXIMUM[householdOopLabel(householdSize)]);
}

function premiumColumn(i18n: I18n): CompareColumn {
  return { header: i18n._('Monthly premium'), value: (p) => formatPremium(p.rates.total), premium: true };
}

/** A plan without out-of-network coverage (an HMO's or EPO's, as the server says). */
export const NO_OUT_OF_NETWORK = /*i18n*/ { id: 'Not covered (in-network care only)' };

/** The out-of-network deductible as read: "Not covered" where the plan has no such coverage. */
function outOfNetworkDeductible(p: PlanView, i18n: I18n): string | null {
  if (p.out_of_network_not_covered) return i18n._(NO_OUT_OF_NETWORK);
  if (p.ded_out_ind == null && p.ded_out_fam == null) return null;
  return formatPair(p.ded_out_ind, p.ded_out_fam);
}

function benefitColumns(householdSize: number, i18n: I18n): CompareColumn[] {
  return [
    { header: i18n._('In-network deductible (individual / family)'), value: (p) => formatPair(p.ded_ind, p.ded_fam) },
    {
      header: i18n._('Out-of-network deductible (individual / family)'),
      value: (p) => outOfNetworkDeductible(p, i18n) ?? formatPair(p.ded_out_ind, p.ded_out_fam),
    },
    { header: i18n._('Coinsurance'), value: (p) => formatPercent(p.coins) },
    { header: oopMaximumLabel(householdSize, i18n), value: (p) => formatAmount(p.max_oop) },
    premiumColumn(i18n),
  ];
}

/** Medical plans: the benefits, the yearly estimate, then the premium. */
function medicalColumns(householdSize: number, i18n: I18n): CompareColumn[] {
  const columns = benefitColumns(householdSize, i18n);
  columns.splice(columns.length - 1, 0, {
    header: i18n._('Estimated yearly cost'),
    value: (p) => (p.yearly_cost ? formatPremium(p.yearly_cost.total) : i18n._(NOT_AVAILABLE)),
  });
  return columns;
}

function visionColumns(_householdSize: number, i18n: I18n): CompareColumn[] {
  return [
    { header: i18n._('Eye exam copay'), value: (p) => formatAmount(p.eye_exam_copay) },
    { header: i18n._('Frames and contact lens allowance'), value: (p) => formatAmount(p.frames_contact_allowance) },
    // The frequency is the carrier's wording, as published.
    { header: i18n._('Adult eye exam frequency'), value: (p) => p.eye_exam_frequency ?? i18n._(NOT_AVAILABLE) },
    premiumColumn(i18n),
  ];
}

const MONTHLY = /*i18n*/ {
  id: 'Premiums are monthly totals for everyone in your household; the carrier confirms the final rate at enrollment.',
};

export const PLAN_KINDS: Record<PlanType, PlanKind> = {
  1: {
    type: 1,
    compareHeading: /*i18n*/ { id: 'Compare Medical Plans' },
    printComparison: /*i18n*/ { id: 'Print Medical Comparison' },
    continueWithout: /*i18n*/ { id: 'Continue without Medical Coverage' },
    notes: [
      /*i18n*/ {
        id: 'Premiums are charged for the subscriber, the spouse, all adult children 21 and older, and the three oldest dependent children under 21.',
      },
      /*i18n*/ { id: 'Child-only policies are available on all plans.' },
      /*i18n*/ { id: 'Pediatric vision coverage is included in all medical plans.' },
      /*i18n*/ { id: 'Provider networks differ by carrier: check that your doctors are in a plan’s network before you choose it.' },
    ],
    compare: medicalColumns,
  },
  2: {
    type: 2,
    compareHeading: /*i18n*/ { id: 'Compare Dental Plans' },
    printComparison: /*i18n*/ { id: 'Print Dental Comparison' },
    continueWithout: /*i18n*/ { id: 'Continue without Dental Coverage' },
    notes: [MONTHLY],
    compare: benefitColumns,
  },
  3: {
    type: 3,
    compareHeading: /*i18n*/ { id: 'Compare Vision Plans' },
    printComparison: /*i18n*/ { id: 'Print Vision Comparison' },
    continueWithout: /*i18n*/ { id: 'Continue without Vision Coverage' },
    notes: [MONTHLY],
    compare: visionColumns,
  },
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

/** A plan card's details in the active language: every benefit the plan has, none it lacks. */
export function planDetails(plan: PlanView, householdSize: number, i18n: I18n): DetailRow[] {
  const rows: DetailRow[] = [];
  const add = (label: string, value: string | null) => {
    if (value !== null) rows.push({ label, value });
  };
  // The network and metal names and the exam frequency are the carrier's, as published.
  add(i18n._('Network'), plan.network_name);
  add(i18n._('Metal level'), plan.metal_name);
  add(i18n._('In-network deductible'), plan.ded_ind == null && plan.ded_fam == null ? null : formatPair(plan.ded_ind, plan.ded_fam));
  add(i18n._('Out-of-network deductible'), outOfNetworkDeductible(plan, i18n));
  add(i18n._('Coinsurance'), plan.coins == null ? null : formatPercent(plan.coins));
  add(oopMaximumLabel(householdSize, i18n), plan.max_oop == null ? null : formatAmount(plan.max_oop));
  add(i18n._('Annual benefit maximum'), plan.annual_max == null ? null : formatAmount(plan.annual_max));
  add(i18n._('Eye exam copay'), plan.eye_exam_copay == null ? null : formatAmount(plan.eye_exam_copay));
  add(
    i18n._('Frames and contact lens allowance'),
    plan.frames_contact_allowance == null ? null : formatAmount(plan.frames_contact_allowance),
  );
  add(i18n._('Adult eye exam frequency'), plan.eye_exam_frequency);
  if (plan.is_hsa) add(i18n._('HSA eligible'), i18n._('Yes'));
  if (plan.include_vision) add(i18n._('Includes vision'), i18n._('Yes'));
  return rows;
}
