import type { ChangeEvent } from 'react';
import { TextField } from '@cmsgov/design-system';

export { CodeField } from '@/components/code-field';
import type { Enrolment } from '@/types/api';

/** A recovery code instead of the app's code. */
export function RecoveryCodeField({
  value,
  onChange,
  errorMessage,
}: {
  value: string;
  onChange: (value: string) => void;
  errorMessage?: string;
}) {
  return (
    <TextField
      name="recovery_code"
      label="Recovery code"
      hint="One of the ten codes you saved when you set up two-step verification. Each works once."
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      errorMessage={errorMessage}
    />
  );
}

/** The secret grouped by four, easier to type by hand. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** Adding the account to an authenticator app: the QR code, or the secret to type. */
export function AppSetup({ enrolment }: { enrolment: Enrolment }) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`;
  return (
    <div className="ef-app-setup">
      <ol className="ef-app-setup__steps">
        <li>Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password).</li>
        <li>Scan this QR code with it.</li>
        <li>Enter the 6-digit code the app then shows.</li>
      </ol>
      <img className="ef-app-setup__qr" src={src} width={200} height={200} alt="QR code to add your account to an authenticator app" />
      <p className="ds-text-body--sm">
        Cannot scan? Enter this key in the app instead: <code className="ef-app-setup__secret">{groupedSecret(enrolment.secret)}</code>
      </p>
    </div>
  );
}

/** The recovery codes, shown once. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <div className="ef-recovery-codes">
      <p>
        <strong>Save these recovery codes now.</strong> If you lose your phone, each one lets you log in once. They
        are not shown again.
      </p>
      <ol className="ef-recovery-codes__list" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}
