import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Dialog, TextField } from '@cmsgov/design-system';
import { forgotPassword } from '../api/forgot-password';
import { useServerForm } from '../hooks/use-server-form';
import { FormAlert, SuccessAlert } from './form-alert';

export interface ForgotPasswordModalProps {
  initialEmail?: string;
  onClose: () => void;
}

const KEYS = { email: 'email' } as const;

/** Forgot Password (spec part 1, 2.5): an e-mail address; shows the server's message. */
export function ForgotPasswordModal({ initialEmail = '', onClose }: ForgotPasswordModalProps) {
  const [email, setEmail] = useState(initialEmail);
  const [message, setMessage] = useState<string | null>(null);
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => forgotPassword(email.trim())).then((r) => {
      if (r) setMessage(r.message);
    });
  };

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="Forgot Password"
      actions={
        message ? (
          <Button variation="solid" onClick={onClose}>
            Close
          </Button>
        ) : (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy}>
              Send Reset Link
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
        <SuccessAlert>{message}</SuccessAlert>
      ) : (
        <form id={formId} onSubmit={submit} noValidate className="ef-account-form">
          <p className="ds-u-margin-top--0">Enter the e-mail address of your account and we will send you a link to reset your password.</p>
          <TextField
            name="email"
            type="email"
            label="Email"
            autoComplete="username"
            value={email}
            onChange={(e: ChangeEvent<HTMLInputElement>) => setEmail(e.target.value)}
            errorMessage={fieldErrors.email}
          />
        </form>
      )}
    </Dialog>
  );
}
