import { useLayoutEffect, useRef, type MouseEvent } from 'react';
import type { UiSchema } from '@rjsf/utils';
import { useLingui } from '@lingui/react';
import { Alert } from '@cmsgov/design-system';
import type { FieldErrorsAt } from '../utils/error-keys';
import { getAt, isRecord, type FieldPath } from '../utils/paths';

// The error summary of a refused save (the CMS Design System's pattern): at the top of the step,
// each field's error as a link to the field; focus comes here after a failed Continue.

/** The element RJSF draws for a field (`idPrefix` "ef"): the input, or the first of a group. */
export function fieldIdOf(path: FieldPath): string {
  return ['ef', ...path.map(String)].join('_');
}

const CONTROL = 'input:not([type="hidden"]), select, textarea, button, [tabindex]';

/**
 * The control a field's link leads to: the element with the field's id (or the first control in it:
 * a card), else the first control whose id starts with it (the CMS choice lists name their inputs
 * `<id>__choice--0`, …; a group's nested fields are `<id>_<name>`).
 */
function findControl(id: string): HTMLElement | null {
  const own = document.getElementById(id);
  if (own) return own.matches(CONTROL) ? own : (own.querySelector<HTMLElement>(CONTROL) ?? own);
  const quoted = id.replace(/["\\]/g, '\\$&');
  for (const sep of ['__', '-', '_']) {
    const found = document.querySelector<HTMLElement>(
      ['input:not([type="hidden"])', 'select', 'textarea'].map((tag) => `${tag}[id^="${quoted}${sep}"]`).join(', '),
    );
    if (found) return found;
  }
  return null;
}

function focusField(id: string) {
  const target = findControl(id);
  if (!target) return;
  target.scrollIntoView?.({ block: 'center' });
  target.focus({ preventScroll: true });
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
  const { i18n } = useLingui();
  // Each link's href names the control it leads to once the fields are drawn (a radio group has no
  // element of its own id: its first choice has); the links are written with the field's id.
  const list = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    for (const a of list.current?.querySelectorAll<HTMLAnchorElement>('a[data-field]') ?? []) {
      const field = a.dataset.field ?? '';
      const target = findControl(field)?.id || field;
      if (a.getAttribute('href') !== `#${target}`) a.setAttribute('href', `#${target}`);
    }
  });
  return (
    <Alert variation="error" role="alert" alertRef={summaryRef} className="ds-u-margin-bottom--3 ef-error-summary">
      <p className="ds-c-alert__text">{heading}</p>
      {fields.length > 0 && (
        <ul ref={list} className="ds-c-alert__text ef-error-summary__list">
          {fields.map((f) => {
            const id = fieldIdOf(f.path);
            const card = cardOf(uiSchema, formData, f.path);
            return f.messages.map((m) => (
              <li key={`${id}:${m}`}>
                <a
                  href={`#${id}`}
                  data-field={id}
                  onClick={(e: MouseEvent<HTMLAnchorElement>) => {
                    e.preventDefault();
                    focusField(id);
                  }}
                >
                  {card ? i18n._('{card}: {message}', { card, message: m }) : m}
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
