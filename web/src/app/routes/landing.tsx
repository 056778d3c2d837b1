import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { useLingui } from '@lingui/react';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { LandingPage } from '@/features/landing/components/landing-page';
import { AgentCard } from '@/features/site/components/agent-card';
import { useSiteStore } from '@/features/site/stores/site-store';
import { firstStep, stepOfNumber, useFlowStore } from '@/lib/flow';
import type { LandingModalName } from './landing-modal';

// Loaded on demand: the account modals stay out of the landing page's bundle.
const LandingModal = lazy(() => import('../account-ui').then((m) => ({ default: m.LandingModal })));

/** Root, and the login / register / reset-password routes whose modals open over it (spec part 1, 2.1). */
export function LandingRoute({ modal }: { modal?: LandingModalName }) {
  const { i18n } = useLingui();
  const site = useSiteStore((s) => s.site);
  const siteError = useSiteStore((s) => s.error);
  const application = useApplicationStore((s) => s.application);
  const flow = useFlowStore((s) => s.flow);
  const start = (flow && firstStep(flow)?.route) ?? '/';
  const routes = { start, resume: (flow && application && stepOfNumber(flow, application.lastStep)?.route) ?? start };
  const navigate = useNavigate();
  return (
    <>
      <LandingPage
        site={site}
        siteError={siteError && i18n._(siteError)}
        application={application}
        routes={routes}
        agentCard={site?.agent ? <AgentCard agent={site.agent} /> : null}
        onRestart={async () => {
          await useApplicationStore.getState().reset();
          const flow = await useFlowStore.getState().load();
          await navigate(flow ? (firstStep(flow)?.route ?? '/') : '/');
        }}
      />
      {modal && (
        <Suspense fallback={null}>
          <LandingModal modal={modal} productName={site?.product_name || 'Enrollflow'} />
        </Suspense>
      )}
    </>
  );
}
