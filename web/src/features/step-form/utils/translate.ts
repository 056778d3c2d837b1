// The feature's own texts (Lingui catalogs, the English text as the message id). The pure functions
// here (sections, values, dialogs) take the page's translation function, useLingui's `_` (a new one
// when the language changes, so memoized results follow a switch); without one (their unit tests)
// they give English. Money and shown dates follow the page's language through '@/lib' (money.ts,
// dates.ts `formatDate`); dates typed in a field are mm/dd/yyyy in every language.

import type { I18n, MessageDescriptor } from '@lingui/core';

/** The page's translation function for catalog messages (useLingui's `_`). */
export type Translate = (message: MessageDescriptor) => string;

/** A message without values in the page's language; its English (the id) without a `t`. */
export function translate(t: Translate | undefined, message: MessageDescriptor): string {
  return t ? t(message) : message.id;
}

/**
 * A text to show: the server's (already in the page's language) or one of the app's catalog
 * messages, kept as its descriptor so that it follows a change of language.
 */
export type Said = string | MessageDescriptor;

export function say(i18n: I18n, text: Said): string {
  return typeof text === 'string' ? text : i18n._(text);
}
