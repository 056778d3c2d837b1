// Wire types of the plan APIs (server/src/http/plans.rs, print.rs and quoting.rs), generated from
// the server's OpenAPI document into src/types/openapi.gen.ts; here they get the names the plan
// pages use. Amounts are dollars (the server computes in cents and sends dollars).

import type { components } from '@/types/openapi.gen';

type Schema<K extends keyof components['schemas']> = components['schemas'][K];

/** Plan type ids of the plan pages: 1 medical, 2 dental, 3 vision. */
export type PlanType = 1 | 2 | 3;

/** One member's part of a plan's monthly premium. */
export type MemberRate = Schema<'PlanMemberRate'>;
export type Rates = Schema<'PlanRates'>;
/** A plan as the plan pages show it (spec part 1, section 3 "Plan"). */
export type PlanView = Schema<'PlanView'>;
/** The price slider's bounds in whole dollars (multiples of `step`). */
export type PriceRange = Schema<'PriceRange'>;
/** GET /api/plans/{type}/allPlans */
export type PlanList = Schema<'PlanList'>;
/** An option of a filter group: carriers, networks and metals have numeric ids, attributes token ids. */
export type FilterOption = Schema<'FilterOption'>;

export type FilterList = 'carriers' | 'metals' | 'networks' | 'attributes';

export type FilterOptions = Record<FilterList, FilterOption[]>;

/** GET /api/plans/{type} */
export type StoredSelection = Schema<'StoredSelection'>;
/** PUT /api/plans/{type} */
export type SelectionBody = Schema<'Selection'>;
/** The answer to a selection: where to go next and the application's new flags. */
export type SelectionSaved = Schema<'Selected'>;
/** A chosen plan as the application stores it (GET /api/plans/planInfo). */
export type PlanSnapshot = Schema<'PlanSnapshot'>;
/** GET /api/plans/planInfo */
export type PlanInfo = Schema<'PlanInfo'>;
/** A medical plan's estimated total for the year (its parts add up to `total`). */
export type YearlyCost = Schema<'YearlyCostView'>;
/** A member's expected use of care. */
export type CareUse = 'low' | 'medium' | 'high';

/** A doctor or facility found by GET /api/coverage/providers?q= (a name of 2+ characters or a 10-digit NPI; at most 10). */
export type ProviderHit = Schema<'ProviderHit'>;
/** A drug found by GET /api/coverage/drugs?q= (at most 10). */
export type DrugHit = Schema<'DrugHit'>;
/** GET /api/care: each member's expected use of care (in the household's order), the household's doctors and drugs. */
export type CareNeeds = Omit<Schema<'CareNeeds'>, 'uses'> & { uses: CareUse[] };
/** PUT /api/care: the whole list (422 `{errors}` for an unknown id or a `uses` of the wrong length). */
export type CareInput = Omit<Schema<'CareInput'>, 'uses' | 'doctors' | 'drugs'> & { uses: CareUse[]; doctors: string[]; drugs: string[] };
/** The answer to PUT /api/care. */
export type CareSaved = Omit<Schema<'CareSaved'>, 'care'> & { care: CareNeeds };
/** GET /api/plans/1/coverage: which of the household's doctors and drugs each medical plan covers. */
export type PlanCoverage = Schema<'PlanCoverage'>;
export type PlanCoverageList = Schema<'PlanCoverageList'>;

/** A doctor's network status in one plan. */
export type DoctorCoverage = PlanCoverage['doctors'][number];
/** A drug's place in one plan's formulary. */
export type DrugCoverage = PlanCoverage['drugs'][number];
