import { Trans } from '@lingui/react';
import { formatPhone, telHref } from '@/lib/phone';
import type { Branding } from '@/types/api';

/** Agency name, address, phone, fax and email, as shown in the Presented by modal and card. */
export function AgentContact({ agent, showAgency = true }: { agent: Branding; showAgency?: boolean }) {
  return (
    <div className="ef-agent-contact">
      {showAgency && <p className="ds-u-font-weight--bold ds-u-margin-y--0">{agent.agency_name}</p>}
      {/* The server escapes the address and returns safe HTML (line breaks). */}
      <address className="ef-agent-contact__address" dangerouslySetInnerHTML={{ __html: agent.address }} />
      <dl className="ef-agent-contact__list">
        <dt>
          <Trans id="Phone" />
        </dt>
        <dd>
          <a href={telHref(agent.phone_number)}>{formatPhone(agent.phone_number)}</a>
        </dd>
        {agent.fax_number && (
          <>
            <dt>
              <Trans id="Fax" />
            </dt>
            <dd>
              <a href={telHref(agent.fax_number)}>{formatPhone(agent.fax_number)}</a>
            </dd>
          </>
        )}
        {agent.email && (
          <>
            <dt>
              <Trans id="Email" />
            </dt>
            <dd>
              <a href={`mailto:${agent.email}`}>{agent.email}</a>
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
