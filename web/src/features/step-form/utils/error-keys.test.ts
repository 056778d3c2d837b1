import { describe, expect, it } from 'vitest';
import { errorKeyPaths, placeErrors } from './error-keys';

// Shapes of forms/census.form.yaml, forms/pcp.form.yaml and forms/other_questions.form.yaml.
const census = {
  type: 'object',
  properties: {
    sub_first_name: { type: 'string' },
    residential_county_id: { type: 'integer' },
    medicare_eligible: { type: 'integer' },
    spouse: { type: 'object', 'x-error-prefix': 'spouse_', properties: { gender: {}, birth_date: {}, tobacco: {} } },
    dependents: {
      type: 'array',
      'x-error-prefix': 'dependent{n}_',
      items: { type: 'object', properties: { gender: {}, birth_date: {}, tobacco: {} } },
    },
  },
};

const pcp = {
  type: 'object',
  properties: {
    subscriber: { type: 'object', 'x-error-prefix': 'subscriber_', properties: { pcp_npi: {} } },
    dependents: {
      type: 'array',
      'x-error-prefix': 'dependent_{member_id}_',
      items: { type: 'object', properties: { member_id: {}, pcp_first_name: {} } },
    },
  },
};

describe('error keys', () => {
  it('maps the spec keys back to fields', () => {
    const keys = errorKeyPaths(census, { dependents: [{}, {}, {}] });
    expect(keys.get('sub_first_name')).toEqual(['sub_first_name']);
    expect(keys.get('spouse_gender')).toEqual(['spouse', 'gender']);
    expect(keys.get('dependent3_birth_date')).toEqual(['dependents', 2, 'birth_date']);
    expect(keys.get('dependent1_tobacco')).toEqual(['dependents', 0, 'tobacco']);
    expect(keys.get('dependents')).toEqual(['dependents']);
    expect(keys.has('dependent4_gender')).toBe(false);
  });

  it('names dependents by a field of the item ({member_id})', () => {
    const keys = errorKeyPaths(pcp, { dependents: [{ member_id: 77 }, { member_id: 91 }] });
    expect(keys.get('subscriber_pcp_npi')).toEqual(['subscriber', 'pcp_npi']);
    expect(keys.get('dependent_91_pcp_first_name')).toEqual(['dependents', 1, 'pcp_first_name']);
  });

  it('puts messages under their fields, and the rest in the banner', () => {
    const placed = placeErrors(
      {
        sub_first_name: ['The First Name may not be greater than 30 characters.'],
        dependent1_birth_date: ['The Birth Date field is required.'],
        medicare_eligible: ["We're sorry – this agent does not support Dental/Vision Only coverage at this time."],
        form: ['Something else.'],
      },
      census,
      { dependents: [{ gender: 'M' }] },
      (path) => path[0] !== 'medicare_eligible',
    );
    expect(placed.errorSchema).toEqual({
      sub_first_name: { __errors: ['The First Name may not be greater than 30 characters.'] },
      dependents: { 0: { birth_date: { __errors: ['The Birth Date field is required.'] } } },
    });
    expect(placed.unplaced).toEqual([
      "We're sorry – this agent does not support Dental/Vision Only coverage at this time.",
      'Something else.',
    ]);
  });
});
