import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Alert } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';

/** What an action came to: done (a status) or refused (an alert), in words. */
export interface Result {
  ok: boolean;
  heading?: string;
  text: ReactNode;
}

/** The server's reason for a refusal (403, 409, 422 `error` or the first of `errors`), else a generic text. */
export function refusal(e: unknown): string {
  return e instanceof ApiError && e.message ? e.message : GENERIC_ERROR.id;
}

/**
 * An action's result, in a live region, focused when it appears (keyboard and screen-reader users
 * land on it: the button they pressed may be gone).
 */
export function ResultAlert({ result }: { result: Result | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (result) ref.current?.focus();
  }, [result]);
  return (
    <div aria-live="polite" className="ef-workbench__result">
      {result && (
        <div ref={ref} tabIndex={-1}>
          <Alert variation={result.ok ? 'success' : 'error'} role={result.ok ? 'status' : 'alert'} heading={result.heading} headingLevel="3">
            {result.text}
          </Alert>
        </div>
      )}
    </div>
  );
}
