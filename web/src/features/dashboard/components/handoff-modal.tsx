import { Alert, Button, Dialog, Spinner } from '@cmsgov/design-system';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { EmailField } from '@/components/email-field';
import { SOURCE_LANGUAGE } from '@/i18n/languages';
import { ApiError } from '@/lib/api-client';
import { getHandoff, revokeHandoff, sendHandoff } from '../api/handoff';
import type { Handoff } from '../types';
import { handoffSentence } from '../utils/handoff';
import { DASHBOARD_ERROR } from './texts';
import { EmailLanguage } from './email-language';

/**
 * Send to Customer: e-mails the customer a link to review the application, give the
 * details only they should type (SSNs, signatures), upload documents and purchase. Shows where the
 * last hand-off stands; Send Again replaces it, Withdraw Link stops an unopened one.
 */
export function HandoffModal({
  applicationId,
  email: suggested,
  onClose,
  onChanged,
}: {
  applicationId: string;
  /** The row's e-mail address, which the agent entered. */
  email: string;
  onClose: () => void;
  /** After a send or a withdrawal: the list shows the new state. */
  onChanged?: () => void;
}) {
  const [handoff, setHandoff] = useState<Handoff | null | undefined>(undefined);
  const [email, setEmail] = useState(suggested);
  // The customer's language for the e-mail; the link then opens in their browser's.
  const [language, setLanguage] = useState<string>(SOURCE_LANGUAGE);
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const formId = useId();

  useEffect(() => {
    let active = true;
    getHandoff(applicationId).then(
      (h) => active && setHandoff(h),
      () => active && setProblem(DASHBOARD_ERROR),
    );
    return () => {
      active = false;
    };
  }, [applicationId]);

  const act = async (call: () => Promise<Handoff | null>, said: (h: Handoff | null) => string) => {
    setBusy(true);
    setFieldError(undefined);
    setProblem(null);
    setDone(null);
    try {
      const h = await call();
      setHandoff(h);
      setDone(said(h));
      onChanged?.();
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors?.email?.[0]) setFieldError(e.fieldErrors.email[0]);
      else setProblem(e instanceof ApiError && e.status !== 500 ? e.message : DASHBOARD_ERROR);
    } finally {
      setBusy(false);
    }
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    void act(
      () => sendHandoff(applicationId, email.trim(), language),
      () => `Sent to ${email.trim()}. The link works once, for 14 days.`,
    );
  };
  const withdraw = () => void act(() => revokeHandoff(applicationId), () => 'The link was withdrawn: it no longer opens the application.');

  const open = handoff?.state === 'sent' || handoff?.state === 'opened';
  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="Send to Customer"
      actions={
        <>
          <Button type="submit" form={formId} variation="solid" disabled={busy || handoff === undefined} className="ds-u-margin-right--1">
            {handoff ? 'Send Again' : 'Send'}
          </Button>
          {handoff?.state === 'sent' && (
            <Button disabled={busy} onClick={withdraw} className="ds-u-margin-right--1">
              Withdraw Link
            </Button>
          )}
          <Button variation="ghost" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {handoff === undefined && !problem ? (
        <Spinner aria-valuetext="Loading" role="status" />
      ) : (
        <form id={formId} onSubmit={send} noValidate>
          <div role="status" aria-live="polite">
            {done && <Alert variation="success">{done}</Alert>}
          </div>
          {problem && (
            <Alert variation="error" role="alert">
              {problem}
            </Alert>
          )}
          <p className="ds-u-margin-top--0">
            The customer gets a link to review this application, give the details only they should type (such as Social Security
            numbers), upload documents, sign as the subscriber and purchase.
          </p>
          {handoff && <p className="ef-handoff__state">{handoffSentence(handoff)}</p>}
          {open && <p>Sending again replaces the link the customer has.</p>}
          <EmailField label="Customer's Email" value={email} onChange={setEmail} error={fieldError} autoComplete="off" />
          <EmailLanguage value={language} onChange={setLanguage} />
        </form>
      )}
    </Dialog>
  );
}
