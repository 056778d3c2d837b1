import { useCallback, useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Button, Dialog, Spinner, TextField } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import type { Enrolment, SecondFactorStatus } from '@/types/api';
import {
  disableSecondFactor,
  enableSecondFactor,
  getSecondFactor,
  renewRecoveryCodes,
  setupSecondFactor,
} from '../api/second-factor';
import { useServerForm } from '../hooks/use-server-form';
import { FormAlert, SuccessAlert } from './form-alert';
import { AppSetup, CodeField, RecoveryCodeList } from './second-factor-parts';

export interface TwoStepModalProps {
  isOpen: boolean;
  onClose: () => void;
}

export const TURNED_OFF = 'Two-step verification is off.';

type View =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'status'; status: SecondFactorStatus; notice?: string }
  | { kind: 'setup'; enrolment: Enrolment; replacing: boolean }
  | { kind: 'renew' }
  | { kind: 'disable' }
  | { kind: 'codes'; codes: string[] };

const KEYS = { password: 'password', code: 'code', current_code: 'current_code' } as const;

/**
 * Two-step verification (the name dropdown): whether it is on, and what the person can do: set up
 * an authenticator app with their password and the app's first code (replacing one also takes a
 * code from the current app or a recovery code), get new recovery codes with a code, or turn it
 * off with their password and a current code when their account may.
 */
export function TwoStepModal({ isOpen, onClose }: TwoStepModalProps) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [currentCode, setCurrentCode] = useState('');
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);
  const formId = useId();

  const read = useCallback((notice?: string): Promise<void> => {
    return getSecondFactor().then(
      (status) => setView({ kind: 'status', status, notice }),
      (error: unknown) => setView({ kind: 'error', message: error instanceof Error && error.message ? error.message : GENERIC_ERROR.id }),
    );
  }, []);
  const load = (notice?: string) => {
    setView({ kind: 'loading' });
    void read(notice);
  };

  useEffect(() => {
    if (isOpen) void read();
  }, [isOpen, read]);

  const startSetup = (replacing: boolean) => {
    setPassword('');
    setCode('');
    setCurrentCode('');
    void run(async () => {
      const enrolment = await setupSecondFactor();
      setView({ kind: 'setup', enrolment, replacing });
      return enrolment;
    });
  };

  const open = (kind: 'renew' | 'disable') => {
    setPassword('');
    setCode('');
    setCurrentCode('');
    setView({ kind });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (view.kind === 'setup') {
      void run(async () => {
        const r = await enableSecondFactor(password, code.trim(), view.replacing ? currentCode.trim() : undefined);
        setView({ kind: 'codes', codes: r.recovery_codes });
        return r;
      });
    } else if (view.kind === 'renew') {
      void run(async () => {
        const r = await renewRecoveryCodes(code.trim());
        setView({ kind: 'codes', codes: r.recovery_codes });
        return r;
      });
    } else if (view.kind === 'disable') {
      void run(async () => {
        await disableSecondFactor(password, currentCode.trim());
        load(TURNED_OFF);
        return true;
      });
    }
  };

  const passwordField = (
    <TextField
      name="password"
      type="password"
      label="Your password"
      autoComplete="current-password"
      value={password}
      onChange={(e: ChangeEvent<HTMLInputElement>) => setPassword(e.target.value)}
      errorMessage={fieldErrors.password}
    />
  );

  const currentCodeField = (
    <TextField
      name="current_code"
      label="Code from your current app, or a recovery code"
      hint="Six digits from the authenticator app you use now; without it, one of your recovery codes."
      autoComplete="one-time-code"
      value={currentCode}
      onChange={(e: ChangeEvent<HTMLInputElement>) => setCurrentCode(e.target.value)}
      errorMessage={fieldErrors.current_code}
    />
  );

  const back = (
    <Button variation="ghost" onClick={() => load()}>
      Back
    </Button>
  );
  const actions = (() => {
    switch (view.kind) {
      case 'setup':
      case 'renew':
      case 'disable':
        return (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy}>
              {view.kind === 'setup' ? 'Turn on' : view.kind === 'renew' ? 'Get new codes' : 'Turn off'}
            </Button>
            {back}
          </>
        );
      case 'codes':
        return (
          <Button variation="solid" onClick={() => load()}>
            I have saved them
          </Button>
        );
      default:
        return (
          <Button variation="ghost" onClick={onClose}>
            Close
          </Button>
        );
    }
  })();

  return (
    <Dialog isOpen={isOpen} onExit={onClose} heading="Two-step verification" actions={actions}>
      <div ref={topRef}>
        <FormAlert messages={formErrors} />
      </div>
      {view.kind === 'loading' && <Spinner aria-valuetext="Loading" role="status" />}
      {view.kind === 'error' && (
        <Alert variation="error" role="alert">
          {view.message}
        </Alert>
      )}
      {view.kind === 'status' && (
        <div aria-live="polite">
          {view.notice && <SuccessAlert>{view.notice}</SuccessAlert>}
          {view.status.enabled ? (
            <>
              <p>
                <strong>On.</strong> Logging in asks for a code from your authenticator app.{' '}
                {view.status.recovery_codes_left} of your recovery codes are left.
              </p>
              <div className="ef-two-step__actions">
                <Button size="small" onClick={() => open('renew')}>
                  New recovery codes
                </Button>
                <Button size="small" onClick={() => startSetup(true)} disabled={busy}>
                  Use another phone
                </Button>
                {!view.status.required && (
                  <Button size="small" variation="ghost" onClick={() => open('disable')}>
                    Turn off
                  </Button>
                )}
              </div>
              {view.status.required && (
                <p className="ds-c-hint">Your account must keep two-step verification.</p>
              )}
            </>
          ) : (
            <>
              <p>
                <strong>Off.</strong> Besides your password, ask for a code from an app on your phone when you log in: a
                stolen password alone then opens nothing.
              </p>
              <div className="ef-two-step__actions">
                <Button variation="solid" onClick={() => startSetup(false)} disabled={busy}>
                  Set up
                </Button>
              </div>
            </>
          )}
        </div>
      )}
      {(view.kind === 'setup' || view.kind === 'renew' || view.kind === 'disable') && (
        <form id={formId} onSubmit={submit} noValidate className="ef-account-form">
          {view.kind === 'setup' && <AppSetup enrolment={view.enrolment} />}
          {view.kind !== 'renew' && passwordField}
          {((view.kind === 'setup' && view.replacing) || view.kind === 'disable') && currentCodeField}
          {view.kind !== 'disable' && <CodeField value={code} onChange={setCode} errorMessage={fieldErrors.code} />}
          {view.kind === 'renew' && <p className="ds-c-hint">Your old recovery codes stop working.</p>}
        </form>
      )}
      {view.kind === 'codes' && <RecoveryCodeList codes={view.codes} />}
    </Dialog>
  );
}
