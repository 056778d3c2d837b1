import { Link } from 'react-router';
import { DisclosureMenu } from '@/components/disclosure-menu';

/**
 * The Admin dropdown (spec part 1, 2.3): Manage Messages, Log in as an agent, the audit log,
 * security settings, the rules workbench, and the demo's outbox.
 */
export function AdminMenu({ onLoginAsAgent, onSecurity }: { onLoginAsAgent: () => void; onSecurity: () => void }) {
  return (
    <DisclosureMenu label="Admin">
      {(close) => (
        <>
          <li>
            <Link to="/manageMessages" className="ef-menu__link" onClick={close}>
              Manage Messages
            </Link>
          </li>
          <li>
            <DialogButton label="Log in as an agent" onOpen={() => {
              close();
              onLoginAsAgent();
            }} />
          </li>
          <li>
            <Link to="/admin/audit" className="ef-menu__link" onClick={close}>
              Audit log
            </Link>
          </li>
          <li>
            <DialogButton label="Security settings" onOpen={() => {
              close();
              onSecurity();
            }} />
          </li>
          <li>
            <Link to="/dashboard/rules" className="ef-menu__link" onClick={close}>
              Rules workbench
            </Link>
          </li>
          <li>
            <Link to="/admin/outbox" className="ef-menu__link" onClick={close}>
              Outbox
            </Link>
          </li>
        </>
      )}
    </DisclosureMenu>
  );
}

/** A menu item that opens a dialog. */
function DialogButton({ label, onOpen }: { label: string; onOpen: () => void }) {
  return (
    <button type="button" className="ds-c-button ds-c-button--ghost ds-c-button--small" aria-haspopup="dialog" onClick={onOpen}>
      {label}
    </button>
  );
}
