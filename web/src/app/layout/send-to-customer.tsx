import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { Trans } from '@lingui/react';
import { useApplicationStore } from '@/features/application/stores/application-store';

// The dialog loads when it is first opened: a step page's bundle does without it.
const HandoffModal = lazy(async () => ({ default: (await import('@/features/dashboard/components/handoff-modal')).HandoffModal }));

/**
 * "Send to customer" under an agent's wizard step: the same dialog as the Quoting
 * row's. Once sent, the application is the customer's to finish, so closing the dialog goes to
 * Quoting, where the row shows the hand-off.
 */
export function SendToCustomer({ applicationId }: { applicationId: string }) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const navigate = useNavigate();
  const close = () => {
    setOpen(false);
    if (sent) {
      useApplicationStore.getState().clear();
      void navigate('/dashboard/quoting');
    }
  };
  return (
    <div className="ef-save-later">
      {/* The design system's classes, not its Button (see bundle-budget.mjs). */}
      <button type="button" className="ds-c-button ds-c-button--ghost" onClick={() => setOpen(true)}>
        <Trans id="Send to customer" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <HandoffModal applicationId={applicationId} email="" onClose={close} onChanged={() => setSent(true)} />
        </Suspense>
      )}
    </div>
  );
}
