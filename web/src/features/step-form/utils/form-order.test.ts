import { describe, expect, it } from 'vitest';
import { formRank, inFormOrder } from './form-order';

// A slice of forms/census.form.yaml: the server sends the schema's properties in any order (here
// alphabetical); the page shows them in `ui:order`.
const schema = {
  type: 'object',
  properties: {
    dependents: { type: 'array', items: { type: 'object', properties: { birth_date: {}, first_name: {} } } },
    email: { type: 'string' },
    residential_zip: { type: 'string' },
    spouse: { type: 'object', properties: { gender: {}, birth_date: {} } },
    sub_first_name: { type: 'string' },
    sub_gender: { type: 'string' },
  },
};
const ui = {
  'ui:order': ['sub_first_name', 'email', 'sub_gender', 'residential_zip', 'spouse', '*'],
  spouse: { 'ui:order': ['birth_date', 'gender'] },
  dependents: { items: { 'ui:order': ['first_name', 'birth_date'] } },
};

describe('the order of the fields on the page', () => {
  it('follows ui:order level by level, `*` standing for the rest, items by index', () => {
    const paths = [
      ['dependents', 1, 'first_name'],
      ['email'],
      ['spouse', 'gender'],
      ['dependents', 0, 'birth_date'],
      ['residential_zip'],
      ['sub_gender'],
      ['spouse', 'birth_date'],
      ['sub_first_name'],
      ['dependents', 0, 'first_name'],
    ].map((path) => ({ path }));
    expect(inFormOrder(paths, schema, ui).map((p) => p.path.join('.'))).toEqual([
      'sub_first_name',
      'email',
      'sub_gender',
      'residential_zip',
      'spouse.birth_date',
      'spouse.gender',
      'dependents.0.first_name',
      'dependents.0.birth_date',
      'dependents.1.first_name',
    ]);
  });

  it('keeps the schema order without ui:order, and puts unknown fields last', () => {
    expect(formRank(schema, {}, ['email'])).toEqual([1]);
    expect(formRank(schema, {}, ['nope'])).toEqual([6]);
  });
});
