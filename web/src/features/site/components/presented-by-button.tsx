import { useCallback, useState } from 'react';
import { Button, Dialog } from '@cmsgov/design-system';
import type { Branding } from '@/types/api';
import { AgentContact } from './agent-contact';
import { AgentLogo } from './agent-logo';

/** "Presented by" the agent; opens a modal with the agency's contact details (spec part 1, 2.3). */
export function PresentedByButton({ agent }: { agent: Branding }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button type="button" className="ef-presented-by" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <span className="ef-presented-by__label">Presented by</span>
        <AgentLogo agent={agent} alt="" className="ef-presented-by__logo" />
        <span className="ef-presented-by__name">{agent.agent_name}</span>
      </button>
      <Dialog
        isOpen={open}
        onExit={close}
        heading={agent.agency_name || agent.agent_name}
        actions={
          <Button variation="solid" onClick={close}>
            Close
          </Button>
        }
      >
        {agent.agent_name && <p className="ds-u-margin-top--0">{agent.agent_name}</p>}
        <AgentContact agent={agent} showAgency={false} />
      </Dialog>
    </>
  );
}
