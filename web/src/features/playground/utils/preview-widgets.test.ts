import { describe, expect, it } from 'vitest';
import { getDefaultRegistry } from '@rjsf/core';
import { previewUiSchema, previewWidgets, widgetNames, widgetStandIns } from './preview-widgets';

const ui = {
  'ui:order': ['a'],
  sub_birth_date: { 'ui:widget': 'us-date' },
  sub_tobacco: { 'ui:widget': 'tobacco', 'ui:options': { minAge: 18 } },
  zip: { 'ui:widget': 'zip' },
  flag: { 'ui:widget': 'hidden' },
  kind: { 'ui:widget': 'radio' },
  dependents: { items: { birth_date: { 'ui:widget': 'us-date' }, note: { 'ui:widget': 'sparkly-new' } } },
  agree_tc: { 'ui:widget': 'terms' },
};

describe('preview widgets', () => {
  it('finds widget names at any depth', () => {
    expect([...widgetNames(ui)].sort()).toEqual(['hidden', 'radio', 'sparkly-new', 'terms', 'tobacco', 'us-date', 'zip']);
  });

  it('stands in for the forms’ own widgets and unknown ones; RJSF keeps its own', () => {
    expect(widgetStandIns(ui)).toEqual({
      'us-date': 'TextWidget',
      tobacco: 'RadioWidget',
      zip: 'TextWidget',
      'sparkly-new': 'TextWidget',
      terms: 'CheckboxWidget',
    });
    const { widgets } = getDefaultRegistry();
    const mapped = previewWidgets(ui);
    expect(mapped['us-date']).toBe(widgets.TextWidget);
    expect(mapped.tobacco).toBe(widgets.RadioWidget);
    expect(mapped.radio).toBeUndefined();
  });

  it('hides the preview form’s submit button', () => {
    expect(previewUiSchema({ a: 1 })).toEqual({ a: 1, 'ui:submitButtonOptions': { norender: true } });
    expect(previewUiSchema(null)).toEqual({ 'ui:submitButtonOptions': { norender: true } });
  });
});
