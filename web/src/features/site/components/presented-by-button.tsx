import { lazy, Suspense, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { Trans } from '@lingui/react';
import type { Branding } from '@/types/api';
import { AgentLogo } from './agent-logo';

// The modal (and the dialog component) load when first opened: the landing page stays small.
const PresentedByDialog = lazy(async () => ({ default: (await import('./presented-by-dialog')).PresentedByDialog }));

/** "Presented by" the agent; opens a modal with the agency's contact details (spec part 1, 2.3). */
export function PresentedByButton({ agent }: { agent: Branding }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const close = useCallback(() => setOpen(false), []);
  // The dialog unmounts on close: once it is gone, focus goes back to the button that opened it.
  useLayoutEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <button ref={button} type="button" className="ef-presented-by" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <span className="ef-presented-by__label">
          <Trans id="Presented by" />
        </span>
        <AgentLogo agent={agent} alt="" className="ef-presented-by__logo" />
        <span className="ef-presented-by__name">{agent.agent_name}</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <PresentedByDialog agent={agent} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
