import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { submittedStep, useFlowStore } from '@/lib/flow';
import { guardRoute, type GuardTarget } from './guards';

/**
 * Navigation guards of spec part 1, 2.2 with the stores as they are (call after bootstrap; a step
 * target comes from a flow just read). Returns where to go instead, or null to proceed:
 * - the rules of guardRoute (agents, admins, submitted applications, an application needed, the
 *   server's word on the step);
 * - once a step route is allowed, the flow's last step is stored with the application (the
 *   landing page's Continue reads it).
 */
export async function guardNavigation(target: GuardTarget, fullPath: string): Promise<string | null> {
  const auth = useAuthStore.getState().auth;
  const application = useApplicationStore.getState().application;
  let flow = useFlowStore.getState().flow;
  if (application?.submissionTime && !flow) flow = await useFlowStore.getState().load();
  const done = flow && submittedStep(flow);
  const to = guardRoute(target, {
    application,
    isAuthorized: auth?.is_authorized ?? false,
    isAdmin: auth?.is_admin ?? false,
    worksOnRules: auth?.works_on_rules ?? false,
    fullPath,
    submitted: done ? { id: done.id, route: done.route } : null,
  });
  if (to) return to;
  if (target.kind === 'step' && application && flow) {
    useApplicationStore.getState().setLastStep(application.applicationId, flow.last_step);
  }
  return null;
}
