import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Button, Dialog } from '@cmsgov/design-system';
import type { SessionPhase } from '../utils/session-phase';

interface SessionTimeoutDialogsProps {
  phase: SessionPhase;
  onContinue: () => Promise<void>;
  onExpiredContinue: () => void;
}

/** Warning (with countdown) and expiry modals of spec part 1, 4.1. */
export function SessionTimeoutDialogs({ phase, onContinue, onExpiredContinue }: SessionTimeoutDialogsProps) {
  const { i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  const keepAlive = () => {
    setBusy(true);
    onContinue().finally(() => setBusy(false));
  };
  const seconds = phase.kind === 'warning' ? phase.secondsLeft : 0;
  return (
    <>
      <Dialog
        alert
        isOpen={phase.kind === 'warning'}
        onExit={keepAlive}
        heading={i18n._('Your session is about to expire')}
        actions={
          <Button variation="solid" onClick={keepAlive} disabled={busy}>
            <Trans id="Continue" />
          </Button>
        }
      >
        <p>
          <Trans
            id="For your security, your session will end in <0>{seconds, plural, one {# second} other {# seconds}}</0> because of inactivity. Select Continue to keep working."
            values={{ seconds }}
            components={{ 0: <strong /> }}
          />
        </p>
      </Dialog>
      <Dialog
        alert
        isOpen={phase.kind === 'expired'}
        onExit={onExpiredContinue}
        heading={i18n._('Your session has expired')}
        actions={
          <Button variation="solid" onClick={onExpiredContinue}>
            <Trans id="Continue" />
          </Button>
        }
      >
        <p>
          <Trans id="For your security, your session ended after 30 minutes of inactivity. Select Continue to go to the home page." />
        </p>
      </Dialog>
    </>
  );
}
