import { useId, type ChangeEvent } from 'react';

/**
 * An e-mail address field drawn with the design system's classes rather than its TextField: the
 * dialogs that use it load on demand from the step pages, and TextField's parts would otherwise be
 * split into a chunk every step page then loads (scripts/bundle-budget.mjs).
 */
export function EmailField({
  label,
  value,
  onChange,
  error,
  autoComplete = 'email',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete?: string;
}) {
  const id = useId();
  return (
    <div className="ds-u-clearfix ds-c-fieldset">
      <label className="ds-c-label" htmlFor={`${id}-field`}>
        {label}
      </label>
      {error && (
        <span className="ds-c-inline-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
      <input
        id={`${id}-field`}
        className={`ds-c-field${error ? ' ds-c-field--error' : ''}`}
        name="email"
        type="email"
        autoComplete={autoComplete}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      />
    </div>
  );
}
