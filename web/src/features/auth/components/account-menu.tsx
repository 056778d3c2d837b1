import { Link } from 'react-router';
import { DisclosureMenu } from '@/components/disclosure-menu';

interface AccountMenuProps {
  isAuthorized: boolean;
  userName: string | null;
  onLogout: () => void;
}

/** Agent Login for visitors; for agents a name dropdown (more entries arrive with the account features). */
export function AccountMenu({ isAuthorized, userName, onLogout }: AccountMenuProps) {
  if (!isAuthorized) {
    return (
      <Link className="ds-c-button ds-c-button--solid ds-c-button--small" to="/login">
        Agent Login
      </Link>
    );
  }

  return (
    <DisclosureMenu label={userName || 'Account'}>
      {(close) => (
        <li>
          <button
            type="button"
            className="ds-c-button ds-c-button--ghost ds-c-button--small"
            onClick={() => {
              close();
              onLogout();
            }}
          >
            Log out
          </button>
        </li>
      )}
    </DisclosureMenu>
  );
}
