import { useNavigate } from 'react-router';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { LandingPage } from '@/features/landing/components/landing-page';
import { AgentCard } from '@/features/site/components/agent-card';
import { useSiteStore } from '@/features/site/stores/site-store';
import { stepById } from '@/lib/steps';

/** Root, and the login / register / reset-password routes whose modals open over it. */
export function LandingRoute() {
  const site = useSiteStore((s) => s.site);
  const siteError = useSiteStore((s) => s.error);
  const application = useApplicationStore((s) => s.application);
  const navigate = useNavigate();
  return (
    <LandingPage
      site={site}
      siteError={siteError}
      application={application}
      agentCard={site?.agent ? <AgentCard agent={site.agent} /> : null}
      onRestart={async () => {
        await useApplicationStore.getState().reset();
        await navigate(stepById('whyApplying').path);
      }}
    />
  );
}
