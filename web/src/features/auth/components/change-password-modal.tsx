import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Dialog, TextField } from '@cmsgov/design-system';
import { changePassword } from '../api/change-password';
import { useServerForm } from '../hooks/use-server-form';
import { FormAlert, SuccessAlert } from './form-alert';

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
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() =>
      changePassword({ current_password: current, new_password: next, new_password_confirmation: confirmation }),
    ).then((r) => {
      if (r) setMessage(r.message);
    });
  };

  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      heading="Change Password"
      actions={
        message ? (
          <Button variation="solid" onClick={onClose}>
            Close
          </Button>
        ) : (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy}>
              Change Password
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
          <TextField
            name="new_password"
            type="password"
            label="New password"
            hint="At least 8 characters; a long phrase is easiest to remember."
            autoComplete="new-password"
            value={next}
            onChange={(e: ChangeEvent<HTMLInputElement>) => setNext(e.target.value)}
            errorMessage={fieldErrors.next}
          />
          <TextField
            name="new_password_confirmation"
            type="password"
            label="Confirm new password"
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
