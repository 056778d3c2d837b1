import { useCallback, useSyncExternalStore } from 'react';

/** Screens narrower than 768 px: phones, and tablets held upright. */
export const NARROW_SCREEN = '(max-width: 47.99em)';

/** Whether the window matches a media query, followed as it changes (a phone turned, a window resized). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}
