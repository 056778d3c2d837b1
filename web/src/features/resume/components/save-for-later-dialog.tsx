import { Alert, Button, Dialog } from '@cmsgov/design-system';
import { useId, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { EmailField } from '@/components/email-field';
import { languageTag } from '@/i18n';
import { ApiError, errorText } from '@/lib/api-client';
import { saveForLater } from '../api/save-for-later';
import { untilDate } from './save-for-later';

const TOO_MANY_LINKS = /*i18n*/ { id: 'Too many links were sent for this application today. Please try again tomorrow.' };

/**
 * "Save and finish later": asks where to send a link that opens the application in any
 * browser for 14 days, once.
 */
export function SaveForLaterDialog({ onClose }: { onClose: () => void }) {
  const { i18n } = useLingui();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  /** A refusal above the form (said when drawn: `errorText`). */
  const [formError, setFormError] = useState<{ error: unknown } | null>(null);
  /** When the link stops working (ISO), once it was sent: written out in the page's language. */
  const [sentUntil, setSentUntil] = useState<string | null>(null);
  const formId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFieldError(undefined);
    setFormError(null);
    try {
      const saved = await saveForLater(email.trim());
      setSentUntil(saved.expires_at);
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors?.email?.[0]) setFieldError(e.fieldErrors.email[0]);
      else setFormError({ error: e });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading={i18n._('Save and Finish Later')}
      actions={
        sentUntil ? (
          <Button variation="solid" onClick={onClose}>
            <Trans id="Close" />
          </Button>
        ) : (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy} className="ds-u-margin-right--1">
              <Trans id="Email Me a Link" />
            </Button>
            <Button variation="ghost" onClick={onClose}>
              <Trans id="Cancel" />
            </Button>
          </>
        )
      }
    >
      {sentUntil ? (
        <Alert variation="success" role="status" heading={i18n._('Your link is on its way')}>
          <Trans
            id="We sent a link to {email}. It opens your application once, in any browser, until {date}."
            values={{ email: email.trim(), date: untilDate(sentUntil, languageTag(i18n.locale)) }}
          />
        </Alert>
      ) : (
        <form id={formId} onSubmit={(e) => void submit(e)} noValidate>
          {formError && (
            <Alert variation="error" role="alert">
              {formError.error instanceof ApiError && formError.error.status === 429
                ? i18n._(TOO_MANY_LINKS)
                : errorText(formError.error, i18n)}
            </Alert>
          )}
          <p className="ds-u-margin-top--0">
            <Trans id="Your answers are saved. We will e-mail you a link that opens your application where you left off, in any browser, for 14 days. Before you continue, we tell you if anything changed, such as a premium." />
          </p>
          <EmailField label={i18n._('Email')} value={email} onChange={setEmail} error={fieldError} />
        </form>
      )}
    </Dialog>
  );
}
