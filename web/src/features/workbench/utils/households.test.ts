import { describe, expect, it } from 'vitest';
import { buildPreviewRequest, DEFAULT_INPUTS } from './build-preview-request';
import { birthDateFor, describeHousehold, householdApp, householdJson, HOUSEHOLDS, presetOf } from './households';

// The plan catalog's ZIP and county lists, read from the repository (Node's fs: the app's types
// leave Node out, so it is imported by a name TypeScript does not resolve).
type Fs = { readFileSync(path: URL, encoding: 'utf8'): string };
const fs = (await import(/* @vite-ignore */ ['node', 'fs'].join(':'))) as Fs;
const repository = import.meta.url.replace(/\/web\/src\/.*$/, '/');
const catalog = (name: string) => fs.readFileSync(new URL(`rules/catalog/${name}`, repository), 'utf8');
const zips = catalog('zips.yaml');
const counties = catalog('counties.yaml');

/** Age on `on` of someone born on `born` (YYYY-MM-DD), as the rules count it. */
function ageOn(born: string, on: string): number {
  const [by, bm, bd] = born.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

const census = (app: Record<string, unknown>) => app.census as Record<string, unknown> & {
  spouse?: { birth_date: string; tobacco?: number };
  dependents?: { birth_date: string; tobacco?: number }[];
};

describe('the preview households', () => {
  it('are born half a year past the birthday that makes them their age on the effective date', () => {
    expect(birthDateFor(40, '2025-01-01')).toBe('1984-07-01');
    expect(ageOn(birthDateFor(40, '2025-01-01'), '2025-01-01')).toBe(40);
    expect(ageOn(birthDateFor(15, '2025-03-31'), '2025-03-31')).toBe(15);
  });

  it('fill the census answers: the people at their ages, tobacco from 18, the ZIP and its county', () => {
    const family = census(householdApp(HOUSEHOLDS.find((h) => h.label === 'Family of six, Detroit 48201')!));
    expect(family).toMatchObject({ sub_gender: 'F', sub_tobacco: 0, residential_zip: '48201', residential_county_id: 163 });
    expect(ageOn(family.sub_birth_date as string, '2025-01-01')).toBe(38);
    expect(ageOn(family.spouse!.birth_date, '2025-01-01')).toBe(36);
    expect(family.dependents!.map((d) => ageOn(d.birth_date, '2025-01-01'))).toEqual([14, 11, 8, 3]);
    expect(family.dependents!.some((d) => 'tobacco' in d)).toBe(false);

    const smoker = census(householdApp(HOUSEHOLDS.find((h) => h.id === 'tobacco-63')!));
    expect(smoker).toMatchObject({ sub_tobacco: 1, residential_zip: '49855', residential_county_id: 103 });
    expect(ageOn(smoker.sub_birth_date as string, '2025-01-01')).toBe(63);
    expect(smoker.spouse).toBeUndefined();

    const child = census(householdApp(HOUSEHOLDS.find((h) => h.id === 'child-15')!));
    expect(ageOn(child.sub_birth_date as string, '2025-01-01')).toBe(15);
    expect('sub_tobacco' in child).toBe(false);
  });

  it('keep the default context: its flags and effective date', () => {
    const app = householdApp(HOUSEHOLDS[0]!);
    expect(app).toMatchObject({ medical_carrier_id: 1, enrollment_type: 'oe', effective_date: '2025-01-01' });
    const built = buildPreviewRequest({ ...DEFAULT_INPUTS, step: 'medical', app: householdJson(HOUSEHOLDS[1]!) }, false);
    expect(built.ok && (built.request.app?.census as { dependents: unknown[] }).dependents).toHaveLength(2);
  });

  it("live in the ZIP's county of the plan catalog, named as the catalog names it", () => {
    for (const h of HOUSEHOLDS) {
      const line = new RegExp(`^\\s*"${h.zip}": \\[([\\d, ]+)\\]`, 'm').exec(zips);
      expect(line, h.label).not.toBeNull();
      expect(line![1]!.split(',').map((s) => Number(s.trim())), h.label).toContain(h.countyId);
      expect(counties, h.label).toMatch(new RegExp(`\\{ id: ${h.countyId}, fips: "\\d+", name: ${h.county},`));
      expect(h.label).toContain(h.zip);
    }
  });

  it('say who they are in words, and are known again from their JSON until it is edited', () => {
    const couple = HOUSEHOLDS.find((h) => h.id === 'couple-two-children')!;
    expect(describeHousehold(couple)).toBe(
      'Sam Novak: male, 45, no tobacco; spouse: female, 43, no tobacco; 2 dependents: female 12, male 9; ZIP 49503, Kent County (81). Ages on the effective date, 2025-01-01.',
    );
    expect(presetOf(householdJson(couple))).toBe(couple);
    expect(presetOf(householdJson(couple).replace('49503', '49504'))).toBeNull();
    expect(new Set(HOUSEHOLDS.map((h) => h.id)).size).toBe(HOUSEHOLDS.length);
  });
});
