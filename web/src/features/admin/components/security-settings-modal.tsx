import { useEffect, useState } from 'react';
import type { ChangeEvent } from 'react';
import { Alert, Button, ChoiceList, Dialog, Spinner } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import { getSecuritySettings, putSecuritySettings } from '../api/security';
import { FreshCodeForm, needsFreshCode, type Pending } from './fresh-code';

export const SAVED = 'Saved.';
export const REQUIRE_NOTE =
  'Agents who have not used two-step verification in their current session are signed out and set it up at their next login. Admins always use it.';

/**
 * Security settings (admins): whether every agent must use two-step verification. Changing it
 * needs the admin's code from the last 15 minutes, asked for when the server says so.
 */
export function SecuritySettingsModal({
  isOpen,
  onClose,
  verifyCode,
}: {
  isOpen: boolean;
  onClose: () => void;
  verifyCode: (code: string) => Promise<void>;
}) {
  const [waiting, setWaiting] = useState<Pending | null>(null);
  const [required, setRequired] = useState<boolean | null>(null);
  const [saved, setSaved] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    getSecuritySettings().then(
      (s) => {
        setRequired(s.second_factor_required_for_agents);
        setSaved(s.second_factor_required_for_agents);
      },
      (e: unknown) => setMessage({ ok: false, text: e instanceof Error && e.message ? e.message : GENERIC_ERROR.id }),
    );
  }, [isOpen]);

  const save = () => {
    if (required === null) return;
    setBusy(true);
    setMessage(null);
    putSecuritySettings({ second_factor_required_for_agents: required })
      .then((s) => {
        setSaved(s.second_factor_required_for_agents);
        setMessage({ ok: true, text: SAVED });
      })
      .catch((e: unknown) => {
        if (needsFreshCode(e)) setWaiting({ purpose: 'To change the agents’ two-step verification', retry: save });
        else setMessage({ ok: false, text: e instanceof Error && e.message ? e.message : GENERIC_ERROR.id });
      })
      .finally(() => setBusy(false));
  };

  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      heading="Security settings"
      actions={
        <>
          <Button variation="solid" onClick={save} disabled={busy || required === null || required === saved}>
            Save
          </Button>
          <Button variation="ghost" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      <div aria-live="polite">
        {message && (
          <Alert variation={message.ok ? 'success' : 'error'} role={message.ok ? 'status' : 'alert'} className="ds-u-margin-bottom--2">
            {message.text}
          </Alert>
        )}
      </div>
      {required === null && !message && <Spinner aria-valuetext="Loading" role="status" />}
      {required !== null && (
        <ChoiceList
          name="second_factor_required_for_agents"
          type="checkbox"
          label="Two-step verification"
          hint={REQUIRE_NOTE}
          choices={[{ label: 'Require two-step verification for all agents', value: '1', checked: required }]}
          onChange={(e: ChangeEvent<HTMLInputElement>) => setRequired(e.target.checked)}
        />
      )}
      {waiting && <FreshCodeForm pending={waiting} verifyCode={verifyCode} onDone={() => setWaiting(null)} submitLabel="Verify and save" />}
    </Dialog>
  );
}
