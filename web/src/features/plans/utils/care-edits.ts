// The changes "Your care" makes to the household's list (loaded with it, on demand).

import type { CareNeeds, CareUse, DrugHit, ProviderHit } from '../types';

/** One use for each of `count` members (medium where none is stored yet), as PUT /api/care wants them. */
export function fullUses(uses: readonly CareUse[], count: number): CareUse[] {
  return Array.from({ length: Math.max(count, uses.length) }, (_, i) => uses[i] ?? 'medium');
}

/** The list with a doctor added at the end (unchanged when already listed). */
export function withDoctor(care: CareNeeds, hit: ProviderHit): CareNeeds {
  return care.doctors.some((d) => d.npi === hit.npi) ? care : { ...care, doctors: [...care.doctors, hit] };
}

export function withoutDoctor(care: CareNeeds, npi: string): CareNeeds {
  return { ...care, doctors: care.doctors.filter((d) => d.npi !== npi) };
}

/** The list with a drug added at the end (unchanged when already listed). */
export function withDrug(care: CareNeeds, hit: DrugHit): CareNeeds {
  return care.drugs.some((d) => d.rxnorm_id === hit.rxnorm_id) ? care : { ...care, drugs: [...care.drugs, hit] };
}

export function withoutDrug(care: CareNeeds, rxnormId: string): CareNeeds {
  return { ...care, drugs: care.drugs.filter((d) => d.rxnorm_id !== rxnormId) };
}

/**
 * What a provider search may be asked: a name of at least 2 characters, or an NPI's 10 digits (a
 * shorter run of digits is an NPI being typed, not a name).
 */
export function isProviderQuery(q: string): boolean {
  const text = q.trim();
  return /^\d+$/.test(text) ? text.length === 10 : text.length >= 2;
}
