// The household's care list (each member's expected use, doctors, drugs) and each plan's coverage
// of it: pure helpers of the plan page and the cards (the panel's edits: care-edits.ts).

import type { CareInput, CareNeeds, PlanCoverage, PlanCoverageList, PlanView } from '../types';

/** The household lists at least one doctor or drug. */
export function hasDoctorsOrDrugs(care: CareNeeds | null | undefined): boolean {
  return !!care && (care.doctors.length > 0 || care.drugs.length > 0);
}

/** PUT /api/care's body for a list: the ids of the doctors and drugs. */
export function careInput(care: CareNeeds): CareInput {
  return { uses: [...care.uses], doctors: care.doctors.map((d) => d.npi), drugs: care.drugs.map((d) => d.rxnorm_id) };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether two lists have the same uses. */
export function sameUses(a: CareNeeds, b: CareNeeds): boolean {
  return sameList(a.uses, b.uses);
}

/** Each plan's coverage by its id. */
export function coverageByPlan(list: PlanCoverageList | null): ReadonlyMap<number, PlanCoverage> {
  return new Map((list?.plans ?? []).map((p) => [p.plan_id, p]));
}

/** The plans that cover all the household's doctors and drugs, in their order (a plan the coverage does not list is left out). */
export function plansCoveringAll(plans: readonly PlanView[], coverage: ReadonlyMap<number, PlanCoverage>): readonly PlanView[] {
  return plans.filter((p) => coverage.get(p.id)?.covers_all === true);
}
