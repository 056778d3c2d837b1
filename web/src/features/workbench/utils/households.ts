// Households an analyst can try a step with, without writing JSON: each is the application context
// the preview sends (the census answers of forms/census.form.yaml under `census`, with the flags of
// the default context). Counties are the catalog's (rules/catalog/zips.yaml, counties.yaml).
import { DEFAULT_APP } from './build-preview-request';

type Gender = 'M' | 'F';

interface Person {
  gender: Gender;
  /** Age on the coverage's effective date (the rules measure ages there). */
  age: number;
  tobacco?: boolean;
}

export interface HouseholdPreset {
  id: string;
  label: string;
  first: string;
  last: string;
  subscriber: Person;
  spouse?: Person;
  dependents?: Person[];
  zip: string;
  countyId: number;
  /** The county's name (rules/catalog/counties.yaml). */
  county: string;
}

export const HOUSEHOLDS: readonly HouseholdPreset[] = [
  { id: 'single-40', label: 'Single adult, 40, Washtenaw 48104', first: 'Jordan', last: 'Rivera', subscriber: { gender: 'F', age: 40 }, zip: '48104', countyId: 161, county: 'Washtenaw' },
  {
    id: 'couple-two-children',
    label: 'Couple 45/43 with two children, Kent 49503',
    first: 'Sam',
    last: 'Novak',
    subscriber: { gender: 'M', age: 45 },
    spouse: { gender: 'F', age: 43 },
    dependents: [
      { gender: 'F', age: 12 },
      { gender: 'M', age: 9 },
    ],
    zip: '49503',
    countyId: 81,
    county: 'Kent',
  },
  {
    id: 'family-of-six',
    label: 'Family of six, Detroit 48201',
    first: 'Dana',
    last: 'Washington',
    subscriber: { gender: 'F', age: 38 },
    spouse: { gender: 'M', age: 36 },
    dependents: [
      { gender: 'M', age: 14 },
      { gender: 'F', age: 11 },
      { gender: 'F', age: 8 },
      { gender: 'M', age: 3 },
    ],
    zip: '48201',
    countyId: 163,
    county: 'Wayne',
  },
  {
    id: 'tobacco-63',
    label: 'Adult 63, tobacco user, Marquette 49855',
    first: 'Lee',
    last: 'Koskinen',
    subscriber: { gender: 'M', age: 63, tobacco: true },
    zip: '49855',
    countyId: 103,
    county: 'Marquette',
  },
  { id: 'child-15', label: 'Child only, 15, Ingham 48933', first: 'Riley', last: 'Chen', subscriber: { gender: 'F', age: 15 }, zip: '48933', countyId: 65, county: 'Ingham' },
];

/** A birth date (YYYY-MM-DD) that makes a person `age` on `on`: half a year past that birthday. */
export function birthDateFor(age: number, on: string): string {
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y - age, m - 1 - 6, Math.min(d, 28)));
  return at.toISOString().slice(0, 10);
}

/** Tobacco use is asked from 18 (forms/census.form.yaml `tobacco_age`): 1 yes, 0 no; younger people are not asked. */
const TOBACCO_AGE = 18;
const tobacco = (p: Person) => (p.age >= TOBACCO_AGE ? { tobacco: p.tobacco ? 1 : 0 } : {});

/**
 * The application context of a household: the default context's flags and effective date, and
 * the census answers (the subscriber's name, e-mail, gender, birth date, tobacco use, ZIP and
 * county; spouse and dependents with gender, birth date and tobacco use; tobacco from 18 only).
 */
export function householdApp(h: HouseholdPreset, effectiveDate = DEFAULT_APP.effective_date): Record<string, unknown> {
  const member = (p: Person) => ({ gender: p.gender, birth_date: birthDateFor(p.age, effectiveDate), ...tobacco(p) });
  const census: Record<string, unknown> = {
    sub_first_name: h.first,
    sub_last_name: h.last,
    email: `${h.first}.${h.last}@example.com`.toLowerCase(),
    sub_gender: h.subscriber.gender,
    sub_birth_date: birthDateFor(h.subscriber.age, effectiveDate),
    ...(h.subscriber.age >= TOBACCO_AGE ? { sub_tobacco: h.subscriber.tobacco ? 1 : 0 } : {}),
    residential_zip: h.zip,
    residential_county_id: h.countyId,
  };
  if (h.spouse) census.spouse = member(h.spouse);
  if (h.dependents?.length) census.dependents = h.dependents.map(member);
  return { ...DEFAULT_APP, effective_date: effectiveDate, census };
}

/** The preset's context as the JSON field shows it. */
export const householdJson = (h: HouseholdPreset) => JSON.stringify(householdApp(h), null, 2);

/** The preset whose JSON this is, if the text was not changed since it was chosen. */
export function presetOf(appText: string): HouseholdPreset | null {
  return HOUSEHOLDS.find((h) => householdJson(h) === appText) ?? null;
}

const GENDER: Record<Gender, string> = { M: 'male', F: 'female' };

/** The household in words: "Jordan Rivera: female, 40, no tobacco; ZIP 48104, Washtenaw County (161). Ages on …" */
export function describeHousehold(h: HouseholdPreset): string {
  const person = (p: Person) => `${GENDER[p.gender]}, ${p.age}${p.age >= TOBACCO_AGE ? (p.tobacco ? ', tobacco user' : ', no tobacco') : ''}`;
  const parts = [`${h.first} ${h.last}: ${person(h.subscriber)}`];
  if (h.spouse) parts.push(`spouse: ${person(h.spouse)}`);
  if (h.dependents?.length) parts.push(`${h.dependents.length} dependent${h.dependents.length === 1 ? '' : 's'}: ${h.dependents.map((d) => `${GENDER[d.gender]} ${d.age}`).join(', ')}`);
  parts.push(`ZIP ${h.zip}, ${h.county} County (${h.countyId})`);
  return `${parts.join('; ')}. Ages on the effective date, ${DEFAULT_APP.effective_date}.`;
}
