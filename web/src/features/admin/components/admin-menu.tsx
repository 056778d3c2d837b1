import { Link } from 'react-router';
import { DisclosureMenu } from '@/components/disclosure-menu';

/**
 * The Admin dropdown (spec part 1, 2.3): Manage Messages, Log in as an agent, the audit log,
 * security settings, and the demo's outbox.
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
            <button
              type="button"
              className="ds-c-button ds-c-button--ghost ds-c-button--small"
              aria-haspopup="dialog"
              onClick={() => {
                close();
                onLoginAsAgent();
              }}
            >
              Log in as an agent
            </button>
          </li>
          <li>
            <Link to="/admin/audit" className="ef-menu__link" onClick={close}>
              Audit log
            </Link>
          </li>
          <li>
            <button
              type="button"
              className="ds-c-button ds-c-button--ghost ds-c-button--small"
              aria-haspopup="dialog"
              onClick={() => {
                close();
                onSecurity();
              }}
            >
              Security settings
            </button>
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
