import type { ChangeEvent } from 'react';
import { TextField } from '@cmsgov/design-system';

/** A second-factor code field: six digits from the authenticator app (a numeric keyboard on phones). */
export function CodeField({
  value,
  onChange,
  errorMessage,
  label = 'Authentication code',
}: {
  value: string;
  onChange: (value: string) => void;
  errorMessage?: string;
  label?: string;
}) {
  return (
    <TextField
      name="code"
      label={label}
      hint="The 6-digit code your authenticator app shows now."
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      errorMessage={errorMessage}
    />
  );
}

