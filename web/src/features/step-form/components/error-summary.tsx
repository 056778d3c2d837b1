import type { MouseEvent } from 'react';
import type { UiSchema } from '@rjsf/utils';
import { Alert } from '@cmsgov/design-system';
import type { FieldErrorsAt } from '../utils/error-keys';
import { getAt, isRecord, type FieldPath } from '../utils/paths';

// The error summary of a refused save (the CMS Design System's pattern): at the top of the step,
// each field's error as a link to the field; focus comes here after a failed Continue.

/** The element RJSF draws for a field (`idPrefix` "ef"): the input, or the first of a group. */
export function fieldIdOf(path: FieldPath): string {
  return ['ef', ...path.map(String)].join('_');
}

function focusField(id: string) {
  const el =
    document.getElementById(id) ??
    document.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}-"]`) ??
    document.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}_"]`);
  if (!el) return;
  const target = el.matches('input, select, textarea, button, [tabindex]') ? el : el.querySelector<HTMLElement>('input, select, textarea, button');
  (target ?? el).scrollIntoView({ block: 'center' });
  (target ?? el).focus({ preventScroll: true });
}

type ItemUi = (item: unknown, index: number) => unknown;

/** The heading of the card a nested field sits in ("Spouse", "Dependent 2"), from the built UI schema. */
function cardOf(uiSchema: UiSchema, formData: unknown, path: FieldPath): string | null {
  let node: unknown = uiSchema;
  let title: string | null = null;
  for (const [i, seg] of path.slice(0, -1).entries()) {
    if (!isRecord(node)) break;
    if (typeof seg === 'number') {
      const items = node.items;
      node = typeof items === 'function' ? (items as ItemUi)(getAt(formData, path.slice(0, i + 1)), seg) : items;
    } else node = node[seg];
    const opts = isRecord(node) && isRecord(node['ui:options']) ? node['ui:options'] : null;
    const own = opts && typeof opts.efTitle === 'string' ? opts.efTitle : null;
    if (own) title = own;
  }
  return title;
}

export interface ErrorSummaryProps {
  /** The banner's text ("There was a problem with the information you entered. …"). */
  heading: string;
  fields: FieldErrorsAt[];
  /** Messages without a field on the page to link to (unknown keys, hidden fields): listed as text. */
  unplaced?: string[];
  uiSchema: UiSchema;
  formData: unknown;
  /** The summary's element (focusable, `tabindex="-1"`): focus goes there after a failed Continue. */
  summaryRef?: (el: HTMLElement | null) => void;
}

/**
 * A red alert (`role="alert"`) at the top of the step: the banner's text, then each field's error as
 * a link to the field (`<a href="#ef_…">`; following it focuses the field).
 */
export function ErrorSummary({ heading, fields, unplaced = [], uiSchema, formData, summaryRef }: ErrorSummaryProps) {
  return (
    <Alert variation="error" role="alert" alertRef={summaryRef} className="ds-u-margin-bottom--3 ef-error-summary">
      <p className="ds-c-alert__text">{heading}</p>
      {fields.length > 0 && (
        <ul className="ds-c-alert__text ef-error-summary__list">
          {fields.map((f) => {
            const id = fieldIdOf(f.path);
            const card = cardOf(uiSchema, formData, f.path);
            return f.messages.map((m) => (
              <li key={`${id}:${m}`}>
                <a
                  href={`#${id}`}
                  onClick={(e: MouseEvent<HTMLAnchorElement>) => {
                    e.preventDefault();
                    focusField(id);
                  }}
                >
                  {card ? `${card}: ${m}` : m}
                </a>
              </li>
            ));
          })}
        </ul>
      )}
      {unplaced.length > 0 && (
        <ul className="ds-c-alert__text">
          {unplaced.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
