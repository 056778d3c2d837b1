import { useState, type ChangeEvent } from 'react';
import { TextField } from '@cmsgov/design-system';
import { forgotPassword } from '../api/forgot-password';
import { useServerForm } from '../hooks/use-server-form';
import { AccountFormDialog } from './account-form-dialog';

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

  const submit = () => {
    void run(() => forgotPassword(email.trim())).then((r) => {
      if (r) setMessage(r.message);
    });
  };

  return (
    <AccountFormDialog
      onClose={onClose}
      heading="Forgot Password"
      submitLabel="Send Reset Link"
      busy={busy}
      formErrors={formErrors}
      topRef={topRef}
      onSubmit={submit}
      done={message}
      closeVariation="solid"
    >
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
    </AccountFormDialog>
  );
}
