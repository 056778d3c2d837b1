// The account modals, loaded on demand (React.lazy) so that the landing page's bundle does not
// carry them: the login, register and reset-password routes open one over the landing page; the
// top bar opens Change Password, Signed-in devices and Share your custom site.
import { useState } from 'react';
import type { LoggedIn } from '@/types/api';
import { ForgotPasswordModal } from './forgot-password-modal';
import { LoginModal } from './login-modal';
import { RegisterModal } from './register-modal';
import { ResetPasswordModal } from './reset-password-modal';
import './account.css';

export { ChangePasswordModal } from './change-password-modal';
export { DevicesModal } from './devices-modal';
export { ShareSiteModal } from './share-site-modal';
export { TwoStepModal } from './two-step-modal';

/** Which modal an account route opens (spec part 1, 2.1). */
export type LandingModalKind =
  | { kind: 'login' }
  | { kind: 'register'; token: string }
  | { kind: 'reset'; email: string; token: string };

export interface LandingAccountModalProps {
  modal: LandingModalKind;
  productName: string;
  onLoggedIn: (result: LoggedIn) => Promise<void>;
  onClose: () => void;
}

/** The modal over the landing page: Agent Login (and its Forgot Password), Create Your Account or Reset Password. */
export function LandingAccountModal({ modal, productName, onLoggedIn, onClose }: LandingAccountModalProps) {
  const [forgotEmail, setForgotEmail] = useState<string | null>(null);
  switch (modal.kind) {
    case 'login':
      return forgotEmail === null ? (
        <LoginModal productName={productName} onLoggedIn={onLoggedIn} onForgotPassword={setForgotEmail} onClose={onClose} />
      ) : (
        <ForgotPasswordModal initialEmail={forgotEmail} onClose={onClose} />
      );
    case 'register':
      return <RegisterModal token={modal.token} onClose={onClose} />;
    case 'reset':
      return <ResetPasswordModal email={modal.email} token={modal.token} onClose={onClose} />;
  }
}
