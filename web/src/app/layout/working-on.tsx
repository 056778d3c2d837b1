import { Trans } from '@lingui/react';
import { useWorkingOnStore } from '@/features/dashboard/stores/working-on-store';

/**
 * For an agent who opened a customer's application from the dashboard (Enroll): whose application
 * it is, while it is the session's. Loaded only for agents (a consumer's step pages do without it).
 */
export function WorkingOn({ applicationId }: { applicationId: string | null }) {
  const name = useWorkingOnStore((s) => (s.workingOn && s.workingOn.applicationId === applicationId ? s.workingOn.name : null));
  if (!name) return null;
  return (
    <p className="ef-working-on" role="status">
      <Trans id="Application for {name}" values={{ name }} />
    </p>
  );
}
