import { lazy, Suspense } from 'react';
import { Outlet, useMatches } from 'react-router';
import { selectIsAuthorized, useAuthStore } from '@/features/auth/stores/auth-store';
import { ProgressSidebar } from '@/features/progress/components/progress-sidebar';
import { SaveForLater, offersSaveForLater } from '@/features/resume';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useFlowStore } from '@/lib/flow';
import { isStepRouteData } from '../route-handle';

// An agent's "Send to customer" loads only for agents (a consumer's step pages do without it).
const SendToCustomer = lazy(async () => ({ default: (await import('./send-to-customer')).SendToCustomer }));
// Whose application an agent opened from the dashboard: for agents only, too.
const WorkingOn = lazy(async () => ({ default: (await import('./working-on')).WorkingOn }));

/**
 * Default layout: progress sidebar (the flow as last read) beside the step page, and under it, from
 * the flow's `save_for_later_from` step on, "Save and finish later" for a consumer or "Send to
 * customer" for an agent.
 */
export function StepLayout() {
  const flow = useFlowStore((s) => s.flow);
  const isAgent = useAuthStore(selectIsAuthorized);
  const applicationId = useApplicationStore((s) => s.application?.applicationId ?? null);
  const data = useMatches().at(-1)?.data;
  const current = isStepRouteData(data) ? data.step.id : null;
  const number = isStepRouteData(data) ? data.step.number : null;
  return (
    <div className="ds-l-container ef-steps">
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-md-col--3">
          <ProgressSidebar flow={flow} currentStep={current} />
        </div>
        <div className="ds-l-col--12 ds-l-md-col--9">
          {isAgent && (
            <Suspense fallback={null}>
              <WorkingOn applicationId={applicationId} />
            </Suspense>
          )}
          <Outlet />
          {offersSaveForLater(flow, number, isAgent) && <SaveForLater />}
          {isAgent && applicationId && offersSaveForLater(flow, number, false) && (
            <Suspense fallback={null}>
              <SendToCustomer applicationId={applicationId} />
            </Suspense>
          )}
        </div>
      </div>
    </div>
  );
}
