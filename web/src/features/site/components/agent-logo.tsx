import { useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react';
import type { Branding } from '@/types/api';

interface AgentLogoProps {
  agent: Branding;
  className?: string;
  /** Shown instead when the agent has no logo or it cannot be loaded. */
  fallback?: ReactNode;
  /** Empty when the logo sits next to the agent's name (decorative). */
  alt?: string;
}

/** The agent's logo image, with alt text naming the agency. */
export function AgentLogo({ agent, className, fallback = null, alt }: AgentLogoProps) {
  const { i18n } = useLingui();
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (!agent.logo_url || failedUrl === agent.logo_url) return <>{fallback}</>;
  return (
    <img
      className={className}
      src={agent.logo_url}
      alt={alt ?? i18n._('{name} logo', { name: agent.agency_name || agent.agent_name })}
      onError={() => setFailedUrl(agent.logo_url)}
    />
  );
}
