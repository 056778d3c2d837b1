import { describe, expect, it } from 'vitest';
import { buildUiSchema, isFieldShown, isSingleChoiceSelect, showWhenHolds } from './ui-schema';

type Ui = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const census = {
  type: 'object',
  properties: {
    sub_birth_date: { type: 'string' },
    sub_tobacco: { type: 'integer' },
    residential_zip: { type: 'string' },
    residential_county_id: { type: 'integer' },
    dependents: {
      type: 'array',
      items: { type: 'object', properties: { birth_date: { type: 'string' }, tobacco: { type: 'integer' } } },
    },
  },
};
const censusUi = {
  sub_tobacco: { 'ui:widget': 'tobacco', 'ui:options': { minAge: 18 } },
  residential_county_id: { 'ui:widget': 'county', 'ui:options': { zipField: 'residential_zip', outOfStateId: 999 } },
  dependents: {
    'ui:options': { addLabel: 'Add a dependent', itemTitle: 'Dependent {n}' },
    items: { tobacco: { 'ui:widget': 'tobacco', 'ui:options': { minAge: 18 } } },
  },
};
const extras = { age_reference_date: '2025-01-01' };

describe('buildUiSchema', () => {
  it('disables tobacco until the person is 18 at the reference date', () => {
    const ui = buildUiSchema(censusUi, census, { sub_birth_date: '2007-01-01' }, { extras }) as Ui;
    expect(ui.sub_tobacco['ui:disabled']).toBeUndefined();
    const young = buildUiSchema(censusUi, census, { sub_birth_date: '2007-01-02' }, { extras }) as Ui;
    expect(young.sub_tobacco['ui:disabled']).toBe(true);
    const unknown = buildUiSchema(censusUi, census, {}, { extras }) as Ui;
    expect(unknown.sub_tobacco['ui:disabled']).toBe(true);
  });

  it('gives each item its path, title and tobacco rule', () => {
    const data = { dependents: [{ birth_date: '1990-01-01' }, { birth_date: '2015-06-01' }] };
    const ui = buildUiSchema(censusUi, census, data, { extras }) as Ui;
    const first = ui.dependents.items(data.dependents[0], 0);
    const second = ui.dependents.items(data.dependents[1], 1);
    expect(first['ui:options'].efTitle).toBe('Dependent 1');
    expect(second['ui:options'].efPath).toEqual(['dependents', 1]);
    expect(first.tobacco['ui:disabled']).toBeUndefined();
    expect(second.tobacco['ui:disabled']).toBe(true);
    expect(second.tobacco['ui:options'].efPath).toEqual(['dependents', 1, 'tobacco']);
  });

  it('hands the county widget its ZIP and hides the submit button', () => {
    const ui = buildUiSchema(censusUi, census, { residential_zip: '48104' }, { extras }) as Ui;
    expect(ui.residential_county_id['ui:options']).toMatchObject({ zipValue: '48104', zipPath: ['residential_zip'] });
    expect(ui['ui:submitButtonOptions']).toEqual({ norender: true });
  });

  it('applies ui:showWhen against the answers', () => {
    const schema = { type: 'object', properties: { enrollment_type: {}, qle_event_date: {} } };
    const ui = { qle_event_date: { 'ui:showWhen': { enrollment_type: 'qle' } } };
    expect((buildUiSchema(ui, schema, { enrollment_type: 'oe' }, { extras: {} }) as Ui).qle_event_date['ui:options'].efHidden).toBe(true);
    expect((buildUiSchema(ui, schema, { enrollment_type: 'qle' }, { extras: {} }) as Ui).qle_event_date['ui:options'].efHidden).toBeUndefined();
    expect(isFieldShown(ui, schema, { enrollment_type: 'oe' }, ['qle_event_date'])).toBe(false);
    expect(isFieldShown(ui, schema, { enrollment_type: 'qle' }, ['qle_event_date'])).toBe(true);
    expect(showWhenHolds({ a: [1, 2] }, { a: 2 }, {})).toBe(true);
  });

  it('titles a card by a field of it', () => {
    const schema = { type: 'object', properties: { subscriber: { type: 'object', title: 'Subscriber', properties: { first_name: {} } } } };
    const ui = { subscriber: { 'ui:options': { titleField: 'first_name' } } };
    expect((buildUiSchema(ui, schema, { subscriber: { first_name: 'Ann' } }, { extras: {} }) as Ui).subscriber['ui:options'].efTitle).toBe('Ann');
    expect((buildUiSchema(ui, schema, {}, { extras: {} }) as Ui).subscriber['ui:options'].efTitle).toBe('Subscriber');
  });
});

describe('isSingleChoiceSelect', () => {
  it('is a select with exactly one choice; radios and hidden fields are not', () => {
    expect(isSingleChoiceSelect({}, { oneOf: [{ const: 1 }] })).toBe(true);
    expect(isSingleChoiceSelect({}, { oneOf: [{ const: 1 }, { const: 4 }] })).toBe(false);
    expect(isSingleChoiceSelect({ 'ui:widget': 'radio' }, { oneOf: [{ const: 1 }] })).toBe(false);
    expect(isSingleChoiceSelect({ 'ui:widget': 'hidden' }, { oneOf: [{ const: 1 }] })).toBe(false);
  });
});
