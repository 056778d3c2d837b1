import { getDefaultRegistry } from '@rjsf/core';
import type { RegistryWidgetsType, UiSchema } from '@rjsf/utils';

// The forms name widgets of the CMS-themed renderer that is still to come (`us-date`, `zip`, …).
// RJSF throws on a widget name it does not know, so the preview maps each one to a default widget:
// a few to the closest built-in one, any other to the text widget.

/** RJSF's own widget names (for some schema type); they are left to RJSF. */
const BUILT_IN = new Set([
  'text',
  'password',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'data-url',
  'radio',
  'select',
  'textarea',
  'hidden',
  'date',
  'datetime',
  'date-time',
  'alt-date',
  'alt-datetime',
  'time',
  'color',
  'file',
  'files',
  'updown',
  'range',
  'checkbox',
  'checkboxes',
]);

type DefaultWidget = 'TextWidget' | 'RadioWidget' | 'SelectWidget' | 'CheckboxWidget';

/** The forms' own widget names that have a closer default than the text widget. */
export const CUSTOM_WIDGETS: Readonly<Record<string, DefaultWidget>> = {
  tobacco: 'RadioWidget',
  'qle-list': 'SelectWidget',
  terms: 'CheckboxWidget',
};

/** Every `ui:widget` name used anywhere in a UI schema. */
export function widgetNames(ui: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(ui)) {
    for (const item of ui) widgetNames(item, found);
  } else if (typeof ui === 'object' && ui !== null) {
    for (const [key, value] of Object.entries(ui)) {
      if (key === 'ui:widget' && typeof value === 'string') found.add(value);
      else widgetNames(value, found);
    }
  }
  return found;
}

/** Which default widget stands in for each name RJSF does not know. */
export function widgetStandIns(ui: unknown): Record<string, DefaultWidget> {
  const standIns: Record<string, DefaultWidget> = {};
  for (const name of widgetNames(ui)) {
    if (!BUILT_IN.has(name)) standIns[name] = CUSTOM_WIDGETS[name] ?? 'TextWidget';
  }
  return standIns;
}

/** The `widgets` prop of the preview form for this UI schema. */
export function previewWidgets(ui: unknown): RegistryWidgetsType {
  const defaults = getDefaultRegistry().widgets;
  const widgets: RegistryWidgetsType = {};
  for (const [name, standIn] of Object.entries(widgetStandIns(ui))) {
    const widget = defaults[standIn];
    if (widget) widgets[name] = widget;
  }
  return widgets;
}

/** The server's UI schema for the preview: no submit button (the Validate button asks the server). */
export function previewUiSchema(ui: Record<string, unknown> | null | undefined): UiSchema {
  const base = ui && typeof ui === 'object' ? ui : {};
  return { ...base, 'ui:submitButtonOptions': { norender: true } } as UiSchema;
}
