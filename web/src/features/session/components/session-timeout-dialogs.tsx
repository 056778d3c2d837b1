import { useState } from 'react';
import { Button, Dialog } from '@cmsgov/design-system';
import type { SessionPhase } from '../utils/session-phase';

interface SessionTimeoutDialogsProps {
  phase: SessionPhase;
  onContinue: () => Promise<void>;
  onExpiredContinue: () => void;
}

/** Warning (with countdown) and expiry modals of spec part 1, 4.1. */
export function SessionTimeoutDialogs({ phase, onContinue, onExpiredContinue }: SessionTimeoutDialogsProps) {
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
        heading="Your session is about to expire"
        actions={
          <Button variation="solid" onClick={keepAlive} disabled={busy}>
            Continue
          </Button>
        }
      >
        <p>
          For your security, your session will end in{' '}
          <strong>
            {seconds} {seconds === 1 ? 'second' : 'seconds'}
          </strong>{' '}
          because of inactivity. Select Continue to keep working.
        </p>
      </Dialog>
      <Dialog
        alert
        isOpen={phase.kind === 'expired'}
        onExit={onExpiredContinue}
        heading="Your session has expired"
        actions={
          <Button variation="solid" onClick={onExpiredContinue}>
            Continue
          </Button>
        }
      >
        <p>For your security, your session ended after 30 minutes of inactivity. Select Continue to go to the home page.</p>
      </Dialog>
    </>
  );
}
