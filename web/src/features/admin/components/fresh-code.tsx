import { useId, useState, type FormEvent } from 'react';
import { Button } from '@cmsgov/design-system';
import { CodeField } from '@/components/code-field';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';

/** What waits for a fresh code: a sentence saying what it is for, and the call to make again. */
export interface Pending {
  purpose: string;
  retry: () => void;
}

/** Whether a refusal asks for a fresh authenticator code (403 `{"second_factor": "required"}`). */
export function needsFreshCode(error: unknown): boolean {
  return error instanceof ApiError && error.secondFactorNeeded;
}

/**
 * The admin's code for a powerful action (acting as an agent, disabling an account, the agents'
 * two-step requirement): asked when the server says the last one is older than 15 minutes, then
 * the action is tried again.
 */
export function FreshCodeForm({
  pending,
  verifyCode,
  onDone,
  submitLabel,
}: {
  pending: Pending;
  verifyCode: (code: string) => Promise<void>;
  onDone: () => void;
  submitLabel: string;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    verifyCode(code.trim())
      .then(() => {
        onDone();
        pending.retry();
      })
      .catch((e: unknown) => {
        setBusy(false);
        setError(e instanceof ApiError && e.fieldErrors ? Object.values(e.fieldErrors).flat().join(' ') : GENERIC_ERROR.id);
      });
  };
  return (
    <form id={formId} onSubmit={submit} noValidate className="ef-account-form ds-u-margin-top--3">
      <p>{pending.purpose}, enter a code from your authenticator app (asked at most every 15 minutes).</p>
      <CodeField value={code} onChange={setCode} errorMessage={error} />
      <Button type="submit" variation="solid" disabled={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
