import { useState } from 'react';
import { Link } from 'react-router';
import { resetPassword } from '../api/reset-password';
import { useServerForm } from '../hooks/use-server-form';
import { AccountFormDialog } from './account-form-dialog';
import { NewPasswordFields } from './new-password-fields';

export interface ResetPasswordModalProps {
  /** From the link: empty for /reset-password/token/{token} (the e-mailed one), else the spec's /reset-password/email/{email}/token/{token}. */
  email: string;
  token: string;
  onClose: () => void;
}

const KEYS = { password: 'password', password_confirmation: 'confirmation' } as const;

/** Reset Password (spec part 1, 2.5): new password, type again; then "Your password has been reset." with a login link. */
export function ResetPasswordModal({ email, token, onClose }: ResetPasswordModalProps) {
  const [[password, confirmation], setNew] = useState<[string, string]>(['', '']);
  const [message, setMessage] = useState<string | null>(null);
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);

  const submit = () => {
    void run(() => resetPassword({ email, token, password, password_confirmation: confirmation })).then((r) => {
      if (r) setMessage(r.message);
    });
  };

  return (
    <AccountFormDialog
      onClose={onClose}
      heading="Reset Password"
      submitLabel="Reset Password"
      busy={busy}
      formErrors={formErrors}
      topRef={topRef}
      onSubmit={submit}
      done={message}
      afterDone={
        <p>
          <Link to="/login">Log in with your new password</Link>
        </p>
      }
    >
      <p className="ds-u-margin-top--0">
        Choose a new password for <strong>{email}</strong>. Use at least 8 characters; a long phrase is easiest to
        remember.
      </p>
      <NewPasswordFields
        names={['password', 'password_confirmation']}
        labels={['New password', 'Type your new password again']}
        values={[password, confirmation]}
        onChange={(a, b) => setNew([a, b])}
        errors={[fieldErrors.password, fieldErrors.confirmation]}
      />
    </AccountFormDialog>
  );
}
