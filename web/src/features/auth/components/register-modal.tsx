import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Choice, Spinner } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { UserByToken } from '@/types/api';
import { getUserByToken } from '../api/get-user-by-token';
import { register } from '../api/register';
import { useServerForm } from '../hooks/use-server-form';
import { AccountFormDialog } from './account-form-dialog';
import { NewPasswordFields } from './new-password-fields';

export const LINK_NO_LONGER_VALID = 'Sorry, the link you used is no longer valid.';

export interface RegisterModalProps {
  /** From the invitation link: /register/token/{token}/. */
  token: string;
  onClose: () => void;
}

type Invitee = { state: 'loading' } | { state: 'invalid'; message: string } | { state: 'ready'; user: UserByToken };

const KEYS = { password: 'password', password_confirmation: 'confirmation', tos_agree: 'tos' } as const;

/**
 * Create Your Account (spec part 1, 2.5): a greeting with the invitee's name, password twice, the
 * Terms of Use checkbox; then "Thank you for creating your account." with a login link. A used or
 * expired link says "Sorry, the link you used is no longer valid."
 */
export function RegisterModal({ token, onClose }: RegisterModalProps) {
  const [invitee, setInvitee] = useState<Invitee>({ state: 'loading' });
  const [[password, confirmation], setNew] = useState<[string, string]>(['', '']);
  const [agreed, setAgreed] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);

  useEffect(() => {
    let live = true;
    getUserByToken(token).then(
      (user) => live && setInvitee({ state: 'ready', user }),
      (error: unknown) => {
        if (!live) return;
        // A 404 is the server's "no longer valid"; anything else is a failure of ours.
        const invalid = error instanceof ApiError && error.status === 404;
        setInvitee({ state: 'invalid', message: invalid ? LINK_NO_LONGER_VALID : GENERIC_ERROR.id });
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  const submit = () => {
    if (invitee.state !== 'ready') return;
    void run(() =>
        register({ token, email: invitee.user.email, password, password_confirmation: confirmation, tos_agree: agreed }),
      )
      .then((r) => {
        if (r) setMessage(r.message);
      });
  };

  return (
    <AccountFormDialog
      onClose={onClose}
      heading="Create Your Account"
      submitLabel="Create Account"
      busy={busy}
      formErrors={formErrors}
      topRef={topRef}
      onSubmit={submit}
      done={message}
      afterDone={
        <p>
          <Link to="/login">Log in to your account</Link>
        </p>
      }
      instead={
        invitee.state === 'loading' ? (
          <Spinner aria-valuetext="Loading" role="status" />
        ) : invitee.state === 'invalid' ? (
          <Alert variation="error" role="alert">
            {invitee.message}
          </Alert>
        ) : undefined
      }
    >
      {invitee.state === 'ready' && (
        <p className="ds-u-margin-top--0">
          Welcome, {invitee.user.firstName} {invitee.user.lastName}! Choose a password for your account{' '}
          <strong>{invitee.user.email}</strong>. Use at least 8 characters; a long phrase is easiest to remember.
        </p>
      )}
      <NewPasswordFields
        names={['password', 'password_confirmation']}
        labels={['Password', 'Type your password again']}
        values={[password, confirmation]}
        onChange={(a, b) => setNew([a, b])}
        errors={[fieldErrors.password, fieldErrors.confirmation]}
      />
      <Choice
        name="tos_agree"
        type="checkbox"
        value="1"
        label="I agree to the Terms of Use"
        checked={agreed}
        onChange={(e) => setAgreed(e.target.checked)}
        errorMessage={fieldErrors.tos}
        className="ds-u-margin-top--3"
      />
    </AccountFormDialog>
  );
}
