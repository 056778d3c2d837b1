import { Outlet, useMatches } from 'react-router';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { ProgressSidebar } from '@/features/progress/components/progress-sidebar';
import { isRouteHandle } from '../route-handle';

/** Default layout: progress sidebar beside the step page. */
export function StepLayout() {
  const application = useApplicationStore((s) => s.application);
  const handle = useMatches()
    .map((m) => m.handle)
    .filter(isRouteHandle)
    .at(-1);
  return (
    <div className="ds-l-container ef-steps">
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-md-col--3">
          <ProgressSidebar application={application} currentStep={handle?.step ?? null} />
        </div>
        <div className="ds-l-col--12 ds-l-md-col--9">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
