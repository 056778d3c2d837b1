import { useEffect, type RefObject } from 'react';

/** While `active`, a click outside `root` calls `onOutside` (menus close on it). */
export function useClickOutside(root: RefObject<HTMLElement | null>, active: boolean, onOutside: () => void): void {
  useEffect(() => {
    if (!active) return;
    const onDocClick = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) onOutside();
    };
    document.addEventListener('click', onDocClick);
    return () => document.removeEventListener('click', onDocClick);
  }, [root, active, onOutside]);
}
