import { DisclosureMenu } from '@/components/disclosure-menu';

interface AccountMenuProps {
  userName: string | null;
  /**
   * An admin is acting as this user: Switch back to Admin as well. Change Password stays (spec part
   * 1, 2.3) and changes the admin's own password, never the agent's.
   */
  impersonating: boolean;
  onChangePassword: () => void;
  /** Opens Signed-in devices (the person's sessions, any of which can be signed out). */
  onDevices: () => void;
  /** Opens Two-step verification (not while acting as an agent: the agent's is theirs). */
  onTwoStep: () => void;
  onSwitchBack: () => void;
  onLogout: () => void;
}

/**
 * The logged-in user's name dropdown (spec part 1, 2.3): Change Password, Signed-in devices,
 * Two-step verification, Switch back to Admin (only while impersonating), Log out. (Visitors get the top bar's Agent
 * Login link instead.)
 */
export function AccountMenu({ userName, impersonating, onChangePassword, onDevices, onTwoStep, onSwitchBack, onLogout }: AccountMenuProps) {
  const item = (label: string, action: () => void, close: () => void) => (
    <li>
      <button
        type="button"
        className="ds-c-button ds-c-button--ghost ds-c-button--small"
        onClick={() => {
          close();
          action();
        }}
      >
        {label}
      </button>
    </li>
  );

  return (
    <DisclosureMenu label={userName || 'Account'}>
      {(close) => (
        <>
          {item('Change Password', onChangePassword, close)}
          {item('Signed-in devices', onDevices, close)}
          {!impersonating && item('Two-step verification', onTwoStep, close)}
          {impersonating && item('Switch back to Admin', onSwitchBack, close)}
          {item('Log out', onLogout, close)}
        </>
      )}
    </DisclosureMenu>
  );
}
