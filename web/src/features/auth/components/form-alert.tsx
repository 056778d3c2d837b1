import type { ReactNode } from 'react';
import { Alert } from '@cmsgov/design-system';

/** The errors of a modal form that belong to no field (spec part 1, 8: shown as a list). */
export function FormAlert({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert variation="error" role="alert" className="ds-u-margin-bottom--2">
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <ul className="ds-u-margin-y--0">
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/** A success message in a modal (the server's words). */
export function SuccessAlert({ children }: { children: ReactNode }) {
  return (
    <Alert variation="success" role="status" className="ds-u-margin-bottom--2">
      {children}
    </Alert>
  );
}
