import { useState, type ChangeEvent } from 'react';
import { TextField } from '@cmsgov/design-system';
import { changePassword } from '../api/change-password';
import { useServerForm } from '../hooks/use-server-form';
import { AccountFormDialog } from './account-form-dialog';
import { NewPasswordFields } from './new-password-fields';

export interface ChangePasswordModalProps {
  isOpen: boolean;
  onClose: () => void;
  /**
   * An admin acting as an agent: the admin's own password is changed (the agent's is never learnt
   * or set), and the dialog says so.
   */
  impersonating?: boolean;
}

export const IMPERSONATING_NOTE =
  'You are acting as an agent: this changes your own (admin) password, not the agent’s. Enter your admin password as the current password.';

const KEYS = {
  current_password: 'current',
  new_password: 'next',
  new_password_confirmation: 'confirmation',
} as const;

/** Change Password (spec part 1, 2.5): current, new, confirmation; after success only Close remains. */
export function ChangePasswordModal({ isOpen, onClose, impersonating = false }: ChangePasswordModalProps) {
  const [current, setCurrent] = useState('');
  const [[next, confirmation], setNew] = useState<[string, string]>(['', '']);
  const [message, setMessage] = useState<string | null>(null);
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);

  const submit = () => {
    void run(() => changePassword({ current_password: current, new_password: next, new_password_confirmation: confirmation }))
      .then((r) => {
        if (r) setMessage(r.message);
      });
  };

  return (
    <AccountFormDialog
      isOpen={isOpen}
      onClose={onClose}
      heading="Change Password"
      submitLabel="Change Password"
      busy={busy}
      formErrors={formErrors}
      topRef={topRef}
      onSubmit={submit}
      done={message}
      closeVariation="solid"
    >
      {impersonating && <p className="ds-c-hint">{IMPERSONATING_NOTE}</p>}
      <TextField
        name="current_password"
        type="password"
        label="Current password"
        autoComplete="current-password"
        value={current}
        onChange={(e: ChangeEvent<HTMLInputElement>) => setCurrent(e.target.value)}
        errorMessage={fieldErrors.current}
      />
      <NewPasswordFields
        names={['new_password', 'new_password_confirmation']}
        labels={['New password', 'Confirm new password']}
        hint="At least 8 characters; a long phrase is easiest to remember."
        values={[next, confirmation]}
        onChange={(a, b) => setNew([a, b])}
        errors={[fieldErrors.next, fieldErrors.confirmation]}
      />
    </AccountFormDialog>
  );
}
