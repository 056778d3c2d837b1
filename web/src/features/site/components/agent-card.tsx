import { Trans } from '@lingui/react';
import type { Branding } from '@/types/api';
import { AgentContact } from './agent-contact';
import { AgentLogo } from './agent-logo';

/** Presented by card on the landing page. */
export function AgentCard({ agent }: { agent: Branding }) {
  return (
    <section className="ef-agent-card" aria-labelledby="agent-card-heading">
      <h2 id="agent-card-heading" className="ds-text-heading--lg ds-u-margin-top--0">
        <Trans id="Presented by" />
      </h2>
      <AgentLogo agent={agent} alt="" className="ef-agent-card__logo" />
      <p className="ds-text-heading--md ds-u-margin-y--1">{agent.agent_name}</p>
      <AgentContact agent={agent} />
    </section>
  );
}
