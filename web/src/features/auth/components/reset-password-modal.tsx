import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, Dialog, TextField } from '@cmsgov/design-system';
import { resetPassword } from '../api/reset-password';
import { useServerForm } from '../hooks/use-server-form';
import { FormAlert, SuccessAlert } from './form-alert';

export interface ResetPasswordModalProps {
  /** From the link: empty for /reset-password/token/{token} (the e-mailed one), else the spec's /reset-password/email/{email}/token/{token}. */
  email: string;
  token: string;
  onClose: () => void;
}

const KEYS = { password: 'password', password_confirmation: 'confirmation' } as const;

/** Reset Password (spec part 1, 2.5): new password, type again; then "Your password has been reset." with a login link. */
export function ResetPasswordModal({ email, token, onClose }: ResetPasswordModalProps) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => resetPassword({ email, token, password, password_confirmation: confirmation })).then((r) => {
      if (r) setMessage(r.message);
    });
  };

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="Reset Password"
      actions={
        message ? (
          <Button variation="ghost" onClick={onClose}>
            Close
          </Button>
        ) : (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy}>
              Reset Password
            </Button>
            <Button variation="ghost" onClick={onClose}>
              Cancel
            </Button>
          </>
        )
      }
    >
      <div ref={topRef}>
        <FormAlert messages={formErrors} />
      </div>
      {message ? (
        <>
          <SuccessAlert>{message}</SuccessAlert>
          <p>
            <Link to="/login">Log in with your new password</Link>
          </p>
        </>
      ) : (
        <form id={formId} onSubmit={submit} noValidate className="ef-account-form">
          <p className="ds-u-margin-top--0">
            Choose a new password for <strong>{email}</strong>. Use at least 8 characters; a long phrase is easiest to
            remember.
          </p>
          <TextField
            name="password"
            type="password"
            label="New password"
            autoComplete="new-password"
            value={password}
            onChange={(e: ChangeEvent<HTMLInputElement>) => setPassword(e.target.value)}
            errorMessage={fieldErrors.password}
          />
          <TextField
            name="password_confirmation"
            type="password"
            label="Type your new password again"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e: ChangeEvent<HTMLInputElement>) => setConfirmation(e.target.value)}
            errorMessage={fieldErrors.confirmation}
          />
        </form>
      )}
    </Dialog>
  );
}
