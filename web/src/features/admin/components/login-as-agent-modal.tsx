import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Badge, Button, Dialog, TextField } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { AgentUser, LoggedIn } from '@/types/api';
import { FreshCodeForm, needsFreshCode, type Pending } from './fresh-code';
import { fabricateAgent } from '../api/fabricate-agent';
import { getUsersByNpn } from '../api/get-users-by-npn';
import { setUserDisabled } from '../api/set-user-disabled';
import './admin.css';

/** The longest NPN (spec part 1, 9). */
export const NPN_MAX = 10;
export const AGENT_NOT_FOUND = 'Agent not found';
export const NO_USERS = 'No user accounts were found for the provided NPN.';

/** The question asked before disabling a user. */
export function disableQuestion(name: string): string {
  return `Disable ${name}? They are signed out everywhere at once and cannot log in until enabled again.`;
}

type Result = { kind: 'none' } | { kind: 'searching' } | { kind: 'not-found' } | { kind: 'users'; users: AgentUser[] };

export interface LoginAsAgentModalProps {
  isOpen: boolean;
  onClose: () => void;
  /** After the login-as call: load the agent's branding and go to dashboard-home. */
  onImpersonated: (result: LoggedIn) => Promise<void>;
  /** Proves the admin's second factor with a code (asked when the server wants a fresh one). */
  verifyCode: (code: string) => Promise<void>;
}

/**
 * Log in as an agent (spec part 1, 2.5, admins): search by NPN (at most 10 characters; Search is
 * disabled while empty), then "Agent not found", the agent's users with Log In, or "No user
 * accounts were found for the provided NPN." A failed login-as is only logged (spec part 1, 8).
 * Each user can also be disabled (after a confirmation: signed out everywhere, no login) and
 * enabled again; a refusal (e.g. the admin's own account) is shown as an alert.
 */
export function LoginAsAgentModal({ isOpen, onClose, onImpersonated, verifyCode }: LoginAsAgentModalProps) {
  const [npn, setNpn] = useState('');
  const [result, setResult] = useState<Result>({ kind: 'none' });
  const [pending, setPending] = useState<string | null>(null);
  // getUsersByNPN does not say who is disabled: each row starts "enabled" and keeps what the admin set.
  const [disabled, setDisabled] = useState<Record<string, boolean>>({});
  const [switching, setSwitching] = useState<string | null>(null);
  const [accountError, setAccountError] = useState<string | null>(null);
  // Acting as an agent, and disabling or enabling an account, need a code from the admin's app
  // within the last 15 minutes: asked for when the server says so, then the action is tried again.
  const [waiting, setWaiting] = useState<{ pending: Pending; submitLabel: string } | null>(null);
  const formId = useId();
  const trimmed = npn.trim();

  const search = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    setResult({ kind: 'searching' });
    setAccountError(null);
    getUsersByNpn(trimmed).then(
      (users) => setResult({ kind: 'users', users }),
      (error: unknown) => {
        // Spec part 1, 8: an NPN that names no agent is "Agent not found"; any other failure of
        // the user lookup is only logged.
        if (error instanceof ApiError && error.status === 404) {
          setResult({ kind: 'not-found' });
        } else {
          console.error('The user lookup failed', error);
          setResult({ kind: 'none' });
        }
      },
    );
  };

  const logInAs = (user: AgentUser) => {
    setPending(user.id);
    fabricateAgent(user.id)
      .then(onImpersonated)
      .catch((error: unknown) => {
        if (needsFreshCode(error)) {
          setWaiting({
            pending: { purpose: `To act as ${user.first_name} ${user.last_name}`, retry: () => logInAs(user) },
            submitLabel: 'Verify and log in',
          });
        } else console.error('Log in as an agent failed', error);
      })
      .finally(() => setPending(null));
  };

  const setAccount = (user: AgentUser, disable: boolean, confirmed = false) => {
    if (disable && !confirmed && !window.confirm(disableQuestion(`${user.first_name} ${user.last_name}`))) return;
    setSwitching(user.id);
    setAccountError(null);
    setUserDisabled(user.id, disable)
      .then((state) => setDisabled((d) => ({ ...d, [user.id]: state.disabled })))
      .catch((error: unknown) => {
        if (needsFreshCode(error)) {
          setWaiting({
            pending: {
              purpose: `To ${disable ? 'disable' : 'enable'} ${user.first_name} ${user.last_name}`,
              retry: () => setAccount(user, disable, true),
            },
            submitLabel: disable ? 'Verify and disable' : 'Verify and enable',
          });
        } else setAccountError(error instanceof Error && error.message ? error.message : GENERIC_ERROR.id);
      })
      .finally(() => setSwitching(null));
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
      {waiting && (
        <FreshCodeForm
          key={waiting.pending.purpose}
          pending={waiting.pending}
          verifyCode={verifyCode}
          onDone={() => setWaiting(null)}
          submitLabel={waiting.submitLabel}
        />
      )}
      <div aria-live="polite" className="ds-u-margin-top--3">
        {result.kind === 'not-found' && (
          <Alert variation="error" role="alert">
            {AGENT_NOT_FOUND}
          </Alert>
        )}
        {result.kind === 'users' && result.users.length === 0 && <Alert role="status">{NO_USERS}</Alert>}
        {accountError && (
          <Alert variation="error" role="alert" className="ds-u-margin-bottom--2">
            {accountError}
          </Alert>
        )}
        {result.kind === 'users' && result.users.length > 0 && (
          <ul className="ef-agent-users" aria-label="The agent's user accounts">
            {result.users.map((user) => {
              const name = `${user.first_name} ${user.last_name}`;
              const isDisabled = disabled[user.id] ?? false;
              return (
                <li key={user.id} className="ef-agent-users__item">
                  <div>
                    <strong>
                      {user.first_name} {user.last_name}
                    </strong>
                    {isDisabled && (
                      <>
                        {' '}
                        <Badge variation="warn" hideScreenReaderText>
                          Disabled
                        </Badge>
                      </>
                    )}
                    <br />
                    {user.email}
                  </div>
                  <div className="ef-agent-users__actions">
                    <Button variation="solid" size="small" disabled={pending !== null} onClick={() => logInAs(user)}>
                      Log In<span className="ds-u-visibility--screen-reader"> as {name}</span>
                    </Button>
                    <Button
                      size="small"
                      aria-label={`${isDisabled ? 'Enable' : 'Disable'} ${name}`}
                      disabled={switching !== null}
                      onClick={() => setAccount(user, !isDisabled)}
                    >
                      {isDisabled ? 'Enable' : 'Disable'}
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
