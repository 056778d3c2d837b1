import { Trans } from '@lingui/react';
import { Button, Dialog } from '@cmsgov/design-system';
import type { Branding } from '@/types/api';
import { AgentContact } from './agent-contact';

/** The agency's contact details (spec part 1, 2.3), opened by the Presented by button. */
export function PresentedByDialog({ agent, onClose }: { agent: Branding; onClose: () => void }) {
  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading={agent.agency_name || agent.agent_name}
      actions={
        <Button variation="solid" onClick={onClose}>
          <Trans id="Close" />
        </Button>
      }
    >
      {agent.agent_name && <p className="ds-u-margin-top--0">{agent.agent_name}</p>}
      <AgentContact agent={agent} showAgency={false} />
    </Dialog>
  );
}
