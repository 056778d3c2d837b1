import { Alert, Button, Dialog } from '@cmsgov/design-system';
import { useId, useState, type FormEvent } from 'react';
import { EmailField } from '@/components/email-field';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import { saveForLater } from '../api/save-for-later';
import { untilDate } from './save-for-later';

/**
 * "Save and finish later" (issue 20): asks where to send a link that opens the application in any
 * browser for 14 days, once.
 */
export function SaveForLaterDialog({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [sentUntil, setSentUntil] = useState<string | null>(null);
  const formId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFieldError(undefined);
    setFormError(null);
    try {
      const saved = await saveForLater(email.trim());
      setSentUntil(untilDate(saved.expires_at));
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors?.email?.[0]) setFieldError(e.fieldErrors.email[0]);
      else if (e instanceof ApiError && e.status === 429) setFormError('Too many links were sent for this application today. Please try again tomorrow.');
      else setFormError(e instanceof ApiError ? e.message : GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="Save and Finish Later"
      actions={
        sentUntil ? (
          <Button variation="solid" onClick={onClose}>
            Close
          </Button>
        ) : (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy} className="ds-u-margin-right--1">
              Email Me a Link
            </Button>
            <Button variation="ghost" onClick={onClose}>
              Cancel
            </Button>
          </>
        )
      }
    >
      {sentUntil ? (
        <Alert variation="success" role="status" heading="Your link is on its way">
          We sent a link to {email.trim()}. It opens your application once, in any browser, until {sentUntil}.
        </Alert>
      ) : (
        <form id={formId} onSubmit={(e) => void submit(e)} noValidate>
          {formError && (
            <Alert variation="error" role="alert">
              {formError}
            </Alert>
          )}
          <p className="ds-u-margin-top--0">
            Your answers are saved. We will e-mail you a link that opens your application where you left off, in any browser, for 14
            days. Before you continue, we tell you if anything changed, such as a premium.
          </p>
          <EmailField label="Email" value={email} onChange={setEmail} error={fieldError} />
        </form>
      )}
    </Dialog>
  );
}
