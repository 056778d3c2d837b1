import type { ChangeEvent } from 'react';
import { useLingui } from '@lingui/react';
import { TextField } from '@cmsgov/design-system';

/** A second-factor code field: six digits from the authenticator app (a numeric keyboard on phones). */
export function CodeField({
  value,
  onChange,
  errorMessage,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  errorMessage?: string;
  /** "Authentication code" unless given. */
  label?: string;
}) {
  const { i18n } = useLingui();
  return (
    <TextField
      name="code"
      label={label ?? i18n._('Authentication code')}
      hint={i18n._('The 6-digit code your authenticator app shows now.')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      errorMessage={errorMessage}
    />
  );
}
