import { Alert, Button, Dialog } from '@cmsgov/design-system';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { languageTag } from '@/i18n';
import { ApiError, errorText } from '@/lib/api-client';
import { saveForLater, saveForLaterAddress } from '../api/save-for-later';
import { untilDate } from './save-for-later';

const TOO_MANY_LINKS = /*i18n*/ { id: 'Too many links were sent for this application today. Please try again tomorrow.' };

/**
 * "Save and finish later": e-mails a link that opens the application in any browser for 14 days,
 * once, to the address the application holds (About You's), which the dialog shows first. It is
 * never sent elsewhere: a link reaches only the person the application names.
 */
export function SaveForLaterDialog({ onClose }: { onClose: () => void }) {
  const { i18n } = useLingui();
  /** The application's address; undefined while it loads, null when it has none. */
  const [email, setEmail] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  /** A refusal above the form (said when drawn: `errorText`). */
  const [formError, setFormError] = useState<{ error: unknown } | null>(null);
  /** When the link stops working (ISO), once it was sent: written out in the page's language. */
  const [sentUntil, setSentUntil] = useState<string | null>(null);
  const formId = useId();

  useEffect(() => {
    const abort = new AbortController();
    saveForLaterAddress(abort.signal).then(
      (a) => setEmail(a.email ?? null),
      (e: unknown) => {
        if (!abort.signal.aborted) setFormError({ error: e });
      },
    );
    return () => abort.abort();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFormError(null);
    try {
      const saved = await saveForLater();
      setEmail(saved.email);
      setSentUntil(saved.expires_at);
    } catch (e) {
      setFormError({ error: e });
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
            <Button type="submit" form={formId} variation="solid" disabled={busy || !email} className="ds-u-margin-right--1">
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
            values={{ email: email ?? '', date: untilDate(sentUntil, languageTag(i18n.locale)) }}
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
            <Trans id="The steps you completed are saved. We will e-mail you a link that opens your application where you left off, in any browser, for 14 days. Before you continue, we tell you if anything changed, such as a premium." />
          </p>
          {email === undefined && !formError && <span className="ds-c-spinner" role="status" aria-valuetext={i18n._('Loading')} />}
          {email && (
            <p className="ef-save-later__address">
              <Trans id="The link goes to the e-mail address on your application: <0>{email}</0>" values={{ email }} components={{ 0: <strong /> }} />
            </p>
          )}
          {email === null && (
            <p className="ef-save-later__address">
              <Trans id="Your application has no e-mail address yet: add it on About You, then save for later." />
            </p>
          )}
        </form>
      )}
    </Dialog>
  );
}
