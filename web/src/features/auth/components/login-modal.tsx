import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Dialog, TextField } from '@cmsgov/design-system';
import type { Enrolment, LoggedIn } from '@/types/api';
import { login } from '../api/login';
import { loginSetup, loginWithCode } from '../api/second-factor';
import { useServerForm } from '../hooks/use-server-form';
import { FormAlert } from './form-alert';
import { AppSetup, CodeField, RecoveryCodeField, RecoveryCodeList } from './second-factor-parts';

export interface LoginModalProps {
  productName: string;
  /** After a successful login: reload what depends on the session, then leave the page. */
  onLoggedIn: (result: LoggedIn) => Promise<void>;
  onForgotPassword: (email: string) => void;
  onClose: () => void;
}

const KEYS = {
  login_email: 'email',
  email: 'email',
  login_password: 'password',
  password: 'password',
  code: 'code',
  recovery_code: 'recovery',
} as const;

/**
 * Where the login is: the password; then, for an account with two-step verification, its code (or
 * a recovery code); for one that must set it up first, the QR code and its first code; after a
 * setup, the recovery codes to save before going on.
 */
type Step =
  | { kind: 'password' }
  | { kind: 'code'; recovery: boolean }
  | { kind: 'setup'; enrolment: Enrolment | null }
  | { kind: 'codes'; result: LoggedIn };

const HEADINGS: Record<Step['kind'], string> = {
  password: 'Agent Login',
  code: 'Two-step verification',
  setup: 'Set up two-step verification',
  codes: 'Save your recovery codes',
};

/** Agent Login (spec part 1, 2.5): email, password, Forgot Password link, terms note; then the second factor. */
export function LoginModal({ productName, onLoggedIn, onForgotPassword, onClose }: LoginModalProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);
  const formId = useId();

  const finish = async (result: LoggedIn) => {
    if (result.recovery_codes?.length) setStep({ kind: 'codes', result });
    else await onLoggedIn(result);
    return result;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    switch (step.kind) {
      case 'password':
        void run(async () => {
          const result = await login(email.trim(), password);
          if (result.second_factor === 'code') setStep({ kind: 'code', recovery: false });
          else if (result.second_factor === 'setup') {
            setStep({ kind: 'setup', enrolment: null });
            setStep({ kind: 'setup', enrolment: await loginSetup() });
          } else await onLoggedIn(result);
          return result;
        });
        return;
      case 'code':
        void run(async () =>
          finish(await loginWithCode(step.recovery ? { recovery_code: recovery.trim() } : { code: code.trim() })),
        );
        return;
      case 'setup':
        void run(async () => finish(await loginWithCode({ code: code.trim() })));
        return;
      case 'codes':
        void run(async () => {
          await onLoggedIn(step.result);
          return step.result;
        });
    }
  };

  const submitLabel = step.kind === 'password' ? 'Log In' : step.kind === 'codes' ? 'Continue' : 'Verify';

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading={HEADINGS[step.kind]}
      actions={
        <>
          <Button type="submit" form={formId} variation="solid" disabled={busy || (step.kind === 'setup' && !step.enrolment)}>
            {submitLabel}
          </Button>
          {step.kind !== 'codes' && (
            <Button variation="ghost" onClick={onClose}>
              Cancel
            </Button>
          )}
        </>
      }
    >
      <div ref={topRef}>
        <FormAlert messages={formErrors} />
      </div>
      <form id={formId} onSubmit={submit} noValidate className="ef-account-form">
        {step.kind === 'password' && (
          <>
            <TextField
              name="email"
              type="email"
              label="Email"
              autoComplete="username"
              value={email}
              onChange={(e: ChangeEvent<HTMLInputElement>) => setEmail(e.target.value)}
              errorMessage={fieldErrors.email}
            />
            <TextField
              name="password"
              type="password"
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e: ChangeEvent<HTMLInputElement>) => setPassword(e.target.value)}
              errorMessage={fieldErrors.password}
            />
            <p className="ds-u-margin-bottom--0">
              <Button variation="ghost" size="small" className="ef-account-form__link" onClick={() => onForgotPassword(email.trim())}>
                Forgot Password?
              </Button>
            </p>
            <p className="ds-text-body--sm">
              By logging in you agree to the {productName} Terms of Use, linked at the bottom of every page.
            </p>
          </>
        )}
        {step.kind === 'code' && (
          <>
            {step.recovery ? (
              <RecoveryCodeField value={recovery} onChange={setRecovery} errorMessage={fieldErrors.recovery} />
            ) : (
              <CodeField value={code} onChange={setCode} errorMessage={fieldErrors.code} />
            )}
            <p className="ds-u-margin-bottom--0">
              <Button
                variation="ghost"
                size="small"
                className="ef-account-form__link"
                onClick={() => setStep({ kind: 'code', recovery: !step.recovery })}
              >
                {step.recovery ? 'Use the code from my app instead' : 'Lost your phone? Use a recovery code'}
              </Button>
            </p>
          </>
        )}
        {step.kind === 'setup' && (
          <>
            <p>Your account must use two-step verification: besides your password, a code from an app on your phone.</p>
            {step.enrolment && <AppSetup enrolment={step.enrolment} />}
            <CodeField value={code} onChange={setCode} errorMessage={fieldErrors.code} />
          </>
        )}
        {step.kind === 'codes' && step.result.recovery_codes && <RecoveryCodeList codes={step.result.recovery_codes} />}
      </form>
    </Dialog>
  );
}
