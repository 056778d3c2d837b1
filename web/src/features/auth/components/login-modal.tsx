import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Dialog, TextField } from '@cmsgov/design-system';
import type { LoggedIn } from '@/types/api';
import { login } from '../api/login';
import { useServerForm } from '../hooks/use-server-form';
import { FormAlert } from './form-alert';

export interface LoginModalProps {
  productName: string;
  /** After a successful login: reload what depends on the session, then leave the page. */
  onLoggedIn: (result: LoggedIn) => Promise<void>;
  onForgotPassword: (email: string) => void;
  onClose: () => void;
}

const KEYS = { login_email: 'email', email: 'email', login_password: 'password', password: 'password' } as const;

/** Agent Login (spec part 1, 2.5): email, password, Forgot Password link, terms note. */
export function LoginModal({ productName, onLoggedIn, onForgotPassword, onClose }: LoginModalProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { fieldErrors, formErrors, busy, run, topRef } = useServerForm(KEYS);
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const result = await login(email.trim(), password);
      await onLoggedIn(result);
      return result;
    });
  };

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="Agent Login"
      actions={
        <>
          <Button type="submit" form={formId} variation="solid" disabled={busy}>
            Log In
          </Button>
          <Button variation="ghost" onClick={onClose}>
            Cancel
          </Button>
        </>
      }
    >
      <div ref={topRef}>
        <FormAlert messages={formErrors} />
      </div>
      <form id={formId} onSubmit={submit} noValidate className="ef-account-form">
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
      </form>
    </Dialog>
  );
}
