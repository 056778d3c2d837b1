import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useClickOutside } from '@/components/use-click-outside';

export type RowMenuItem =
  | { kind: 'button'; label: string; onSelect: () => void }
  | { kind: 'link'; label: string; href: string; newTab?: boolean };

interface RowMenuProps {
  /** The button's accessible name, e.g. "Actions for Ann Lee". */
  label: string;
  items: RowMenuItem[];
}

/**
 * A row's action menu (WAI-ARIA menu button): the button has aria-haspopup and aria-expanded;
 * Enter, Space or ArrowDown open it on the first item, ArrowUp on the last; arrows, Home and End
 * move between items; Escape closes it and returns focus to the button; Tab or a click outside closes it.
 */
export function RowMenu({ label, items }: RowMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);
  // Where the open menu sits: fixed to the window beside its button, so a table that scrolls in its
  // own container (the lists at narrow widths) does not cut it off; above the button when there is
  // no room below.
  const [place, setPlace] = useState<CSSProperties>({});

  useLayoutEffect(() => {
    if (!open) return;
    itemRefs.current[focusIndex]?.focus({ preventScroll: true });
  }, [open, focusIndex]);

  // A fixed menu would stay behind while the page or the table scrolls: it closes instead.
  useEffect(() => {
    if (!open) return;
    const closeMenu = () => setOpen(false);
    window.addEventListener('scroll', closeMenu, true);
    window.addEventListener('resize', closeMenu);
    return () => {
      window.removeEventListener('scroll', closeMenu, true);
      window.removeEventListener('resize', closeMenu);
    };
  }, [open]);

  useClickOutside(rootRef, open, useCallback(() => setOpen(false), []));

  const openAt = (index: number) => {
    const r = buttonRef.current?.getBoundingClientRect();
    if (r) {
      const needed = items.length * 40 + 16;
      const below = window.innerHeight - r.bottom >= needed || r.top < needed;
      setPlace(
        below
          ? { position: 'fixed', left: r.left, top: r.bottom }
          : { position: 'fixed', left: r.left, bottom: window.innerHeight - r.top },
      );
    }
    setFocusIndex(index);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const last = items.length - 1;
    const move = (to: number) => {
      event.preventDefault();
      setFocusIndex(to);
      itemRefs.current[to]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        move(focusIndex >= last ? 0 : focusIndex + 1);
        break;
      case 'ArrowUp':
        move(focusIndex <= 0 ? last : focusIndex - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(last);
        break;
      case 'Escape':
        event.preventDefault();
        close(true);
        break;
      case 'Tab':
        close(false);
        break;
      default:
    }
  };

  return (
    <div className="ef-row-menu" ref={rootRef}>
      <button
        type="button"
        id={buttonId}
        ref={buttonRef}
        className="ds-c-button ds-c-button--ghost ds-c-button--small ef-row-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={label}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        <span aria-hidden="true">⋮</span>
      </button>
      <ul
        id={menuId}
        role="menu"
        aria-labelledby={buttonId}
        className="ef-row-menu__list"
        style={place}
        hidden={!open}
        onKeyDown={onMenuKey}
      >
        {items.map((item, i) => (
          <li key={item.label} role="none">
            {item.kind === 'button' ? (
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                className="ef-row-menu__item"
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            ) : (
              <a
                role="menuitem"
                tabIndex={-1}
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                className="ef-row-menu__item"
                href={item.href}
                {...(item.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                onClick={() => close(false)}
              >
                {item.label}
                {item.newTab && <span className="ds-u-visibility--screen-reader"> (opens in a new tab)</span>}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
