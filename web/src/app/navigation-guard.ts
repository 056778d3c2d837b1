import { getLastStep } from '@/features/application/api/get-last-step';
import { getValidStep } from '@/features/application/api/get-valid-step';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import type { StepId } from '@/lib/steps';
import { guardRoute, type GuardTarget } from './guards';

/** The server confirms the step for the application; a failed call counts as "no". */
export async function isStepValid(applicationId: string, step: StepId): Promise<boolean> {
  return getValidStep(applicationId, step).catch(() => false);
}

/** Fetch the application's last step and store it (the progress sidebar reads it); failures keep the old one. */
export async function refreshLastStep(applicationId: string): Promise<void> {
  try {
    const { last_step } = await getLastStep(applicationId);
    useApplicationStore.getState().setLastStep(applicationId, last_step);
  } catch {
    // The sidebar keeps the last step it has.
  }
}

/**
 * Navigation guards of spec part 1, 2.2 with the stores as they are (call after bootstrap).
 * Returns where to go instead, or null to proceed:
 * - the pure rules of guardRoute first (agents, admins, submitted applications, an application needed);
 * - a step other than whyApplying must then be confirmed by the server (validStep), else the root;
 * - once a step route is allowed, its application's last step is fetched and stored, without
 *   holding up the navigation.
 */
export async function guardNavigation(target: GuardTarget, fullPath: string): Promise<string | null> {
  const auth = useAuthStore.getState().auth;
  const application = useApplicationStore.getState().application;
  const to = guardRoute(target, {
    application,
    isAuthorized: auth?.is_authorized ?? false,
    isAdmin: auth?.is_admin ?? false,
    fullPath,
  });
  if (to) return to;
  if (target.kind !== 'step' || !application) return null;
  const { applicationId } = application;
  if (target.step !== 'whyApplying' && !(await isStepValid(applicationId, target.step))) return '/';
  void refreshLastStep(applicationId);
  return null;
}
