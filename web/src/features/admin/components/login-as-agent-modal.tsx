import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Button, Dialog, TextField } from '@cmsgov/design-system';
import type { AgentUser, LoggedIn } from '@/types/api';
import { fabricateAgent } from '../api/fabricate-agent';
import { getUsersByNpn } from '../api/get-users-by-npn';
import './admin.css';

/** The longest NPN (spec part 1, 9). */
export const NPN_MAX = 10;
export const AGENT_NOT_FOUND = 'Agent not found';
export const NO_USERS = 'No user accounts were found for the provided NPN.';

type Result = { kind: 'none' } | { kind: 'searching' } | { kind: 'not-found' } | { kind: 'users'; users: AgentUser[] };

export interface LoginAsAgentModalProps {
  isOpen: boolean;
  onClose: () => void;
  /** After the login-as call: load the agent's branding and go to dashboard-home. */
  onImpersonated: (result: LoggedIn) => Promise<void>;
}

/**
 * Log in as an agent (spec part 1, 2.5, admins): search by NPN (at most 10 characters; Search is
 * disabled while empty), then "Agent not found", the agent's users with Log In, or "No user
 * accounts were found for the provided NPN." A failed login-as is only logged (spec part 1, 8).
 */
export function LoginAsAgentModal({ isOpen, onClose, onImpersonated }: LoginAsAgentModalProps) {
  const [npn, setNpn] = useState('');
  const [result, setResult] = useState<Result>({ kind: 'none' });
  const [pending, setPending] = useState<string | null>(null);
  const formId = useId();
  const trimmed = npn.trim();

  const search = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    setResult({ kind: 'searching' });
    getUsersByNpn(trimmed).then(
      (users) => setResult({ kind: 'users', users }),
      () => setResult({ kind: 'not-found' }),
    );
  };

  const logInAs = (user: AgentUser) => {
    setPending(user.id);
    fabricateAgent(user.id)
      .then(onImpersonated)
      .catch((error: unknown) => console.error('Log in as an agent failed', error))
      .finally(() => setPending(null));
  };

  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      heading="Log in as an agent"
      actions={
        <Button variation="ghost" onClick={onClose}>
          Close
        </Button>
      }
    >
      <form id={formId} onSubmit={search} className="ef-npn-search">
        <TextField
          name="npn"
          label="Agent NPN"
          hint="The agent's National Producer Number (up to 10 characters)."
          maxLength={NPN_MAX}
          value={npn}
          onChange={(e: ChangeEvent<HTMLInputElement>) => setNpn(e.target.value.slice(0, NPN_MAX))}
          autoComplete="off"
        />
        <Button type="submit" variation="solid" disabled={!trimmed || result.kind === 'searching'}>
          Search
        </Button>
      </form>
      <div aria-live="polite" className="ds-u-margin-top--3">
        {result.kind === 'not-found' && (
          <Alert variation="error" role="alert">
            {AGENT_NOT_FOUND}
          </Alert>
        )}
        {result.kind === 'users' && result.users.length === 0 && <Alert role="status">{NO_USERS}</Alert>}
        {result.kind === 'users' && result.users.length > 0 && (
          <ul className="ef-agent-users" aria-label="The agent's user accounts">
            {result.users.map((user) => (
              <li key={user.id} className="ef-agent-users__item">
                <div>
                  <strong>
                    {user.first_name} {user.last_name}
                  </strong>
                  <br />
                  {user.email}
                </div>
                <Button variation="solid" size="small" disabled={pending !== null} onClick={() => logInAs(user)}>
                  Log In<span className="ds-u-visibility--screen-reader"> as {user.first_name} {user.last_name}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
