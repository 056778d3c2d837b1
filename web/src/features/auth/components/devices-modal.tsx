import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Dialog } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Device } from '@/types/api';
import { endOtherSessions, endSession, listSessions } from '../api/sessions';
import './account.css';

export interface DevicesModalProps {
  isOpen: boolean;
  onClose: () => void;
}

export const SIGNED_OUT = 'Signed out.';
export const DEVICES_LOAD_ERROR = 'Your signed-in devices could not be loaded.';
export const SIGN_OUT_ERROR = 'The device could not be signed out.';

/** The agents' time zone (their business is in Michigan), as the dashboard shows its dates. */
const TIME_ZONE = 'America/Detroit';
const AT_IN_MICHIGAN = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** An RFC 3339 instant as a date and time in Michigan, e.g. "Nov 20, 2024, 5:00 AM EST". */
export function formatDeviceTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : AT_IN_MICHIGAN.format(at);
}

/** The accessible name of a row's Sign out button: rows of the same browser stay distinguishable. */
export function signOutLabel(device: Device): string {
  return `Sign out ${device.browser}, signed in ${formatDeviceTime(device.created_at)}`;
}

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : GENERIC_ERROR.id);

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; devices: Device[] };

/** Which sign-out is under way: one session's id, or every other session. */
type Busy = { kind: 'one'; id: string } | { kind: 'others' } | null;

/**
 * Signed-in devices (the name dropdown): the person's sessions, newest activity first, this one
 * marked "This device". Any other can be signed out, or all others at once; the list is then read
 * again. Times are Michigan time (America/Detroit).
 */
export function DevicesModal({ isOpen, onClose }: DevicesModalProps) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [busy, setBusy] = useState<Busy>(null);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // Only the newest read of the list is shown (a Retry or a refresh may overtake an older one).
  const reads = useRef(0);

  const load = useCallback((): Promise<void> => {
    const read = ++reads.current;
    return listSessions().then(
      (devices) => {
        if (read === reads.current) setLoaded({ state: 'ready', devices });
      },
      (error: unknown) => {
        if (read === reads.current) setLoaded({ state: 'error', message: messageOf(error) });
      },
    );
  }, []);

  useEffect(() => {
    if (isOpen) void load();
  }, [isOpen, load]);

  const retry = () => {
    setLoaded({ state: 'loading' });
    void load();
  };

  const signOut = (ending: NonNullable<Busy>) => {
    setBusy(ending);
    setFailure(null);
    setStatus('');
    (ending.kind === 'one' ? endSession(ending.id) : endOtherSessions())
      .then(
        () => {
          setStatus(SIGNED_OUT);
          // The pressed button goes away with its row: focus stays in the dialog, on the list.
          listRef.current?.focus();
          return load();
        },
        (error: unknown) => {
          setFailure(`${SIGN_OUT_ERROR} ${messageOf(error)}`);
          // Already ended elsewhere: the list is out of date.
          if (error instanceof ApiError && error.status === 404) return load();
        },
      )
      .finally(() => setBusy(null));
  };

  const others = loaded.state === 'ready' ? loaded.devices.filter((d) => !d.current).length : 0;

  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      heading="Signed-in devices"
      actions={
        <Button variation="ghost" onClick={onClose}>
          Close
        </Button>
      }
    >
      <p className="ds-u-margin-top--0">
        The browsers where you are signed in, most recently active first. Sign out of any you do not recognize or no
        longer use. Times are Michigan time.
      </p>
      {loaded.state === 'loading' && <p role="status">Loading…</p>}
      {loaded.state === 'error' && (
        <Alert variation="error" role="alert" className="ef-devices__alert">
          <p className="ds-u-margin-y--0">
            {DEVICES_LOAD_ERROR} {loaded.message}
          </p>
          <Button size="small" className="ds-u-margin-top--1" onClick={retry}>
            Retry
          </Button>
        </Alert>
      )}
      {failure && (
        <Alert variation="error" role="alert" className="ef-devices__alert">
          {failure}
        </Alert>
      )}
      <div role="status" className="ef-devices__status">
        {status}
      </div>
      {loaded.state === 'ready' && (
        <>
          {loaded.devices.length === 0 ? (
            <p>No signed-in devices were found.</p>
          ) : (
            <ul ref={listRef} tabIndex={-1} className="ef-devices" aria-label="Your signed-in devices">
              {loaded.devices.map((device) => (
                <li key={device.id} className="ef-devices__item">
                  <div className="ef-devices__details">
                    <p className="ef-devices__browser">
                      <strong>{device.browser}</strong>
                      {device.current && (
                        <>
                          {' '}
                          <Badge className="ef-devices__badge">This device</Badge>
                        </>
                      )}
                      {device.acting_as_agent && (
                        <>
                          {' '}
                          <Badge className="ef-devices__badge">Acting as an agent</Badge>
                        </>
                      )}
                    </p>
                    <p className="ef-devices__time">
                      Signed in <time dateTime={device.created_at}>{formatDeviceTime(device.created_at)}</time>
                    </p>
                    <p className="ef-devices__time">
                      Last active <time dateTime={device.last_seen_at}>{formatDeviceTime(device.last_seen_at)}</time>
                    </p>
                  </div>
                  {!device.current && (
                    <Button
                      size="small"
                      className="ef-devices__sign-out"
                      aria-label={signOutLabel(device)}
                      disabled={busy !== null}
                      onClick={() => signOut({ kind: 'one', id: device.id })}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {others > 0 ? (
            <div className="ef-devices__all">
              <Button variation="solid" disabled={busy !== null} onClick={() => signOut({ kind: 'others' })}>
                Sign out of all other devices
              </Button>
            </div>
          ) : (
            loaded.devices.length > 0 && <p className="ef-devices__only">You are not signed in anywhere else.</p>
          )}
        </>
      )}
    </Dialog>
  );
}
