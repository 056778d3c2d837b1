import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { useClickOutside } from './use-click-outside';

interface DisclosureMenuProps {
  /** The button's content (its accessible name). */
  label: ReactNode;
  /** The list items; `close` hides the list (call it when an entry is chosen). */
  children: (close: () => void) => ReactNode;
}

/**
 * A top-bar dropdown in the disclosure pattern: a button with aria-expanded that shows or hides a
 * list of links and buttons. Escape closes it and returns focus to the button; so does a click outside.
 */
export function DisclosureMenu({ label, children }: DisclosureMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useClickOutside(rootRef, open, useCallback(() => setOpen(false), []));

  return (
    <div
      className="ef-menu"
      ref={rootRef}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
    >
      <button
        type="button"
        ref={buttonRef}
        className="ds-c-button ds-c-button--ghost ds-c-button--small"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      <ul id={menuId} className="ef-menu__list" hidden={!open}>
        {children(() => setOpen(false))}
      </ul>
    </div>
  );
}
