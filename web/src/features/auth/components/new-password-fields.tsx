import type { ChangeEvent } from 'react';
import { TextField } from '@cmsgov/design-system';

export interface NewPasswordFieldsProps {
  /** The fields' names as the server's keys (`password`, `new_password`). */
  names: [string, string];
  labels: [string, string];
  hint?: string;
  values: [string, string];
  onChange: (password: string, confirmation: string) => void;
  errors: [string | undefined, string | undefined];
}

/** A new password and its confirmation, both `new-password` for password managers. */
export function NewPasswordFields({ names, labels, hint, values, onChange, errors }: NewPasswordFieldsProps) {
  const [password, confirmation] = values;
  return (
    <>
      <TextField
        name={names[0]}
        type="password"
        label={labels[0]}
        hint={hint}
        autoComplete="new-password"
        value={password}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value, confirmation)}
        errorMessage={errors[0]}
      />
      <TextField
        name={names[1]}
        type="password"
        label={labels[1]}
        autoComplete="new-password"
        value={confirmation}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(password, e.target.value)}
        errorMessage={errors[1]}
      />
    </>
  );
}
