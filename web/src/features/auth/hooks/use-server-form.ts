import { useCallback, useRef, useState } from 'react';
import { shownErrors } from '../utils/server-errors';

/** Scrolls a modal back to its top (where the errors are): every scrolled box from `el` up to its dialog. */
export function scrollModalToTop(el: HTMLElement | null): void {
  for (let node: HTMLElement | null = el; node; node = node.parentElement) {
    node.scrollTop = 0;
    if (node.tagName === 'DIALOG') break;
  }
}

/**
 * A modal form that sends one call: busy while it runs; on failure the server's errors go under
 * their fields (`keys` maps the server's keys to fields) or above the form, and the modal scrolls
 * to its top (spec part 1, 8).
 */
export function useServerForm<F extends string>(keys: Record<string, F>) {
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<F, string>>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const topRef = useRef<HTMLDivElement>(null);
  const keysRef = useRef(keys);

  const run = useCallback(async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setFieldErrors({});
    setFormErrors([]);
    try {
      return await call();
    } catch (error) {
      const shown = shownErrors(error, keysRef.current);
      setFieldErrors(shown.fields);
      setFormErrors(shown.other);
      scrollModalToTop(topRef.current);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);

  return { fieldErrors, formErrors, busy, run, topRef };
}
