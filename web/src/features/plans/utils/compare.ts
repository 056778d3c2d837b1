// Compare checkboxes (spec part 1, 2.7, 2.8 and 5): 2 to 6 plans.

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 6;
export const COMPARE_LIMIT_WARNING = /*i18n*/ {
  id: 'You selected the maximum number of plans to compare ({max}).',
  values: { max: MAX_COMPARE },
};

interface HasId {
  id: number;
}

/** Ticks or unticks a plan; a seventh plan is refused (the list comes back unchanged). */
export function toggleCompare<T extends HasId>(list: readonly T[], plan: T, on: boolean): T[] {
  const rest = list.filter((p) => p.id !== plan.id);
  if (!on) return rest;
  if (rest.length >= MAX_COMPARE) return [...list];
  return list.some((p) => p.id === plan.id) ? [...list] : [...rest, plan];
}

/** The Compare Selected Plans button is enabled from two plans. */
export function canCompare(list: readonly HasId[]): boolean {
  return list.length >= MIN_COMPARE;
}

/** At six plans the warning shows. */
export function atCompareLimit(list: readonly HasId[]): boolean {
  return list.length >= MAX_COMPARE;
}

/** At six plans the other checkboxes are disabled. */
export function compareDisabled(list: readonly HasId[], planId: number): boolean {
  return atCompareLimit(list) && !list.some((p) => p.id === planId);
}
