import type { ReactNode } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { stepContext } from '../form-context';
import { fillTemplate } from '../../utils/template';
import type { EfOptions } from '../../utils/ui-schema';

/** The field's label, with the required marker when the form asks for one. */
export function labelOf(props: WidgetProps): ReactNode {
  const text = props.label || (typeof props.schema.title === 'string' ? props.schema.title : props.name);
  if (!props.required || !stepContext(props.registry).markRequired) return text;
  return (
    <>
      {text}
      <span className="ef-required" aria-hidden="true">
        {' '}
        *
      </span>
    </>
  );
}

/**
 * The field's hint: `ui:description` (else the schema's description), then `ui:help`, then an extra
 * hint (a mask's shape). `{placeholders}` in the UI schema's texts take the view's extras
 * (`Open enrollment ends {oep.end_date}.`).
 */
export function hintOf(props: WidgetProps, extra?: string): ReactNode | undefined {
  const { extras } = stepContext(props.registry);
  const ui = props.uiSchema ?? {};
  const fromUi = (v: unknown) => (typeof v === 'string' && v !== '' ? fillTemplate(v, extras) : null);
  const parts: string[] = [];
  const description = fromUi(ui['ui:description']) ?? (typeof props.schema.description === 'string' ? props.schema.description : null);
  if (description) parts.push(description);
  const help = fromUi(ui['ui:help']);
  if (help) parts.push(help);
  if (extra) parts.push(extra);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : parts.map((p) => <span key={p} className="ef-hint-line">{p}</span>);
}

/** The server's messages for the field (RJSF `rawErrors`, from the errors map). */
export function errorOf(props: Pick<WidgetProps, 'rawErrors'>): ReactNode | undefined {
  const list = (props.rawErrors ?? []).filter((m) => typeof m === 'string' && m !== '');
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list.map((m) => <span key={m} className="ef-error-line">{m}</span>);
}

export function efOptions(props: Pick<WidgetProps, 'options'>): EfOptions & Record<string, unknown> {
  return props.options as EfOptions & Record<string, unknown>;
}

/** The key Continue waits on for this field. */
export function busyKey(props: Pick<WidgetProps, 'options' | 'id'>): string {
  const path = efOptions(props).efPath;
  return path ? path.join('.') : props.id;
}

/** `<input name>`: RJSF's html name when it has one, else the field's id. */
export function nameOf(props: WidgetProps): string {
  return props.htmlName || props.id;
}
