import { lazy, Suspense, useState } from 'react';
import { Trans } from '@lingui/react';
import type { Flow } from '@/lib/flow';

/**
 * "December 4, 2024" ("4 de diciembre de 2024" for `es`): when the link stops working, in Michigan,
 * in the language of `locale` (a BCP 47 tag: `languageTag(i18n.locale)`).
 */
export function untilDate(iso: string, locale = 'en-US'): string {
  return new Date(iso).toLocaleDateString(locale, { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'America/Detroit' });
}

/**
 * Whether a step offers "Save and finish later": from the flow's `save_for_later_from` step on, for
 * a consumer's application that is not submitted (an agent's applications stay on the dashboard).
 */
export function offersSaveForLater(flow: Flow | null, stepNumber: number | null, isAgent: boolean): boolean {
  if (!flow || stepNumber === null || isAgent || flow.submitted) return false;
  const from = flow.save_for_later_from;
  return from !== null && from !== undefined && stepNumber >= from && flow.last_step >= from;
}

// The dialog (a text field, the call) loads when it is first opened: a step page's bundle does
// without it (scripts/bundle-budget.mjs).
const SaveForLaterDialog = lazy(async () => ({ default: (await import('./save-for-later-dialog')).SaveForLaterDialog }));

/**
 * "Save and finish later": a button under the step that opens the dialog asking where to
 * send the link. The answers so far are already saved with each step.
 */
export function SaveForLater() {
  const [open, setOpen] = useState(false);
  return (
    <div className="ef-save-later">
      {/* The design system's classes, not its Button: see the dialog's import above. */}
      <button type="button" className="ds-c-button ds-c-button--ghost" onClick={() => setOpen(true)}>
        <Trans id="Save and finish later" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <SaveForLaterDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
