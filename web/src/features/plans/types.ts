// Wire types of the plan APIs (server/src/http/plans.rs and print.rs).

import type { Application, StepInfo } from '@/types/api';

/** Plan type ids of the plan pages: 1 medical, 2 dental, 3 vision. */
export type PlanType = 1 | 2 | 3;

/** One member's part of a plan's monthly premium. */
export interface MemberRate {
  /** "Subscriber", "Spouse", "Dependent 2". */
  member: string;
  age: number;
  /** What this member adds to the total (0 when not charged), in dollars. */
  amount: number;
  /** The member's rate before the family rule, in dollars. */
  rate: number;
  charged: boolean;
}

export interface Rates {
  /** Monthly total for the household, in dollars. */
  total: number;
  /** One entry per household member. */
  members: MemberRate[];
}

/** A plan as the plan pages show it (spec part 1, section 3 "Plan"). */
export interface PlanView {
  id: number;
  /** May hold simple HTML (`<sup>&reg;</sup>`). */
  name: string;
  /** 1 medical, 2 dental, 3 vision monthly, 4 vision annual. */
  plan_type: number;
  plan_year: number;
  carrier: number;
  carrier_name: string;
  network: number | null;
  network_name: string | null;
  metal: number | null;
  metal_name: string | null;
  is_hsa: boolean;
  include_vision: boolean;
  compare: boolean;
  selected: boolean;
  sbc: string | null;
  baag: string | null;
  drug_list: string | null;
  rates: Rates;
  ded_ind: number | null;
  ded_fam: number | null;
  ded_out_ind: number | null;
  ded_out_fam: number | null;
  coins: number | null;
  max_ind_oop: number | null;
  max_2p_oop: number | null;
  max_fam_oop: number | null;
  /** The out-of-pocket maximum for this household's size. */
  max_oop: number | null;
  annual_max: number | null;
  eye_exam_copay: number | null;
  frames_contact_allowance: number | null;
  eye_exam_frequency: string | null;
}

/** The price slider's bounds in whole dollars (multiples of `step`). */
export interface PriceRange {
  min: number;
  max: number;
  step: number;
}

/** GET /api/plans/{type}/allPlans */
export interface PlanList {
  plans: PlanView[];
  /** Over the unfiltered list; null when there are no plans at all. */
  price_range: PriceRange | null;
  household_size: number;
  selected_plan_id: number | null;
}

/** An option of a filter group: carriers, networks and metals have numeric ids, attributes token ids. */
export interface FilterOption {
  id: number | string;
  name: string;
}

export type FilterList = 'carriers' | 'metals' | 'networks' | 'attributes';

export type FilterOptions = Record<FilterList, FilterOption[]>;

/** GET /api/plans/{type} */
export interface StoredSelection {
  medical_product_id: number | null;
  dental_product_id: number | null;
  vision_product_id: number | null;
  add_hsa: boolean;
  enrollmentType: string | null;
  enrollmentReasonId: number | null;
}

/** PUT /api/plans/{type} */
export interface SelectionBody {
  /** null: go on without a plan of this type. */
  selected_plan_id: number | null;
  add_hsa?: boolean;
}

/** The answer to a selection: where to go next and the application's new flags. */
export interface SelectionSaved {
  next: StepInfo;
  application: Application;
}

/** A chosen plan as the application stores it (GET /api/plans/planInfo). */
export interface PlanSnapshot {
  id: number;
  name: string;
  /** Monthly total in dollars. */
  rate: number;
  carrier: number;
  carrier_name: string | null;
  network: number | null;
  network_name: string | null;
  metal: number | null;
  metal_name: string | null;
  hsa: boolean;
  includes_vision: boolean;
  plan_type: number;
  plan_year: number;
  sbc: string | null;
}

/** GET /api/plans/planInfo */
export interface PlanInfo {
  medicalPlan: PlanSnapshot | null;
  dentalPlan: PlanSnapshot | null;
  visionPlan: PlanSnapshot | null;
  skipMedical: boolean;
  skipDental: boolean;
  skipVision: boolean;
  /** Sum of the chosen plans' monthly totals. */
  total: number;
}
