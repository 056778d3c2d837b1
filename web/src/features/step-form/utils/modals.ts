// Dialogs of a step (forms/*.form.yaml `modals:`), passed through by the server in the view:
//
//   child_only: { title, body, buttons: [{ label: Close, action: close }] }
//   subsidy:    { title, body_extra: subsidy_statement, buttons: [{ label: "Yes", action: submit, set: { wants_subsidy: 1 } }] }
//
// - `body` is text with `{placeholders}` (a field of the answers, an extra, or a value the dialog
//   was opened with, e.g. `{zip}`); `body_extra` names an extra whose text (or list of paragraphs)
//   is shown too;
// - a button's `label` may hold `{placeholders}` like `body`;
// - a button `close`s the dialog, `submit`s the answers again with `set` merged in, opens a
//   `link` in a new tab (`href`, or `href_extra` naming an extra; a link whose address is missing,
//   e.g. an extra given only to consumers, is not shown), or goes `home`: the server lets go of the
//   application and the site root (or `href`) loads afresh (Return Home after a purchase);
// - `requires: <extra>`: the button is disabled while that extra is falsy, with the extra
//   `requires_message` names (by default `<name without _available>_unavailable_message`);
// - `clear: [field, …]` on a button or on the dialog: those answers are cleared when it closes.

import { fillTemplate, lookup } from './template';
import { isRecord } from './paths';
import { translate, type Translate } from './translate';

/** A button of the form file without a `label`. */
const OK = /*i18n*/ { id: 'OK' };
/** The button of a dialog that names none. */
const CLOSE = /*i18n*/ { id: 'Close' };

export type ModalAction = 'close' | 'submit' | 'link' | 'home';

export interface ModalButton {
  label: string;
  action: ModalAction;
  set: Record<string, unknown>;
  href: string | null;
  disabled: boolean;
  /** Why the button is disabled, if it is. */
  disabledMessage: string | null;
  clear: string[];
}

export interface ModalView {
  title: string;
  paragraphs: string[];
  buttons: ModalButton[];
  /** Answers cleared however the dialog closes. */
  clear: string[];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function asAction(v: unknown): ModalAction {
  return v === 'submit' || v === 'link' || v === 'home' ? v : 'close';
}

/**
 * A dialog definition resolved for the page: texts filled in from `values` (the answers, the
 * extras and what the dialog was opened with), buttons with their state; the app's own labels
 * through `t`, the page's translation function (English without one). Null when the definition is
 * not a dialog.
 */
export function resolveModal(
  definition: unknown,
  extras: Record<string, unknown>,
  values: Record<string, unknown>,
  t?: Translate,
): ModalView | null {
  if (!isRecord(definition)) return null;
  const all = { ...extras, ...values };
  const paragraphs: string[] = [];
  if (typeof definition.body === 'string') paragraphs.push(fillTemplate(definition.body, all));
  if (typeof definition.body_extra === 'string') {
    // A text, or a list of paragraphs.
    const extra = lookup(extras, definition.body_extra);
    paragraphs.push(...(Array.isArray(extra) ? extra : [extra]).filter((p): p is string => typeof p === 'string' && p !== ''));
  }
  const buttons = (Array.isArray(definition.buttons) ? definition.buttons : []).filter(isRecord).map((b): ModalButton => {
    const requires = typeof b.requires === 'string' ? b.requires : null;
    const disabled = requires !== null && !lookup(extras, requires);
    const messageKey =
      typeof b.requires_message === 'string'
        ? b.requires_message
        : requires !== null
          ? `${requires.replace(/_available$/, '')}_unavailable_message`
          : null;
    const message = disabled && messageKey ? lookup(extras, messageKey) : null;
    const hrefExtra = typeof b.href_extra === 'string' ? lookup(extras, b.href_extra) : undefined;
    const action = asAction(b.action);
    const href = typeof b.href === 'string' ? b.href : typeof hrefExtra === 'string' && hrefExtra !== '' ? hrefExtra : null;
    return {
      // A label may name an extra too: "{marketplace_continue_label}".
      label: typeof b.label === 'string' ? fillTemplate(b.label, all) : translate(t, OK),
      action,
      set: isRecord(b.set) ? b.set : {},
      href: action === 'home' ? (href?.startsWith('/') && !href.startsWith('//') ? href : '/') : href,
      disabled,
      disabledMessage: typeof message === 'string' ? message : null,
      clear: strings(b.clear),
    };
  });
  const shown = buttons.filter((b) => b.action !== 'link' || b.href !== null);
  return {
    title: typeof definition.title === 'string' ? definition.title : '',
    paragraphs,
    buttons: shown.length > 0 ? shown : [{ label: translate(t, CLOSE), action: 'close', set: {}, href: null, disabled: false, disabledMessage: null, clear: [] }],
    clear: strings(definition.clear),
  };
}
