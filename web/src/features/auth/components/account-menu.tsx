import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

interface AccountMenuProps {
  isAuthorized: boolean;
  userName: string | null;
  onLogout: () => void;
}

/** Agent Login for visitors; for agents a name dropdown (more entries arrive with the account features). */
export function AccountMenu({ isAuthorized, userName, onLogout }: AccountMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDocClick = (event: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('click', onDocClick);
    return () => document.removeEventListener('click', onDocClick);
  }, [open]);

  if (!isAuthorized) {
    return (
      <Link className="ds-c-button ds-c-button--solid ds-c-button--small" to="/login">
        Agent Login
      </Link>
    );
  }

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
        {userName || 'Account'} <span aria-hidden="true">▾</span>
      </button>
      <ul id={menuId} className="ef-menu__list" hidden={!open}>
        <li>
          <button
            type="button"
            className="ds-c-button ds-c-button--ghost ds-c-button--small"
            onClick={() => {
              setOpen(false);
              onLogout();
            }}
          >
            Log out
          </button>
        </li>
      </ul>
    </div>
  );
}
