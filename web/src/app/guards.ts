import type { StepId } from '@/lib/steps';
import { stepById } from '@/lib/steps';

export type GuardTarget =
  | { kind: 'step'; step: StepId }
  /** Dashboard routes: agents only. */
  | { kind: 'agent' }
  /** Manage Messages: admins only. */
  | { kind: 'admin' }
  | { kind: 'public' };

export interface GuardContext {
  application: { submissionTime: string | null } | null;
  isAuthorized: boolean;
  isAdmin: boolean;
  /** Path, query and hash of the requested page. */
  fullPath: string;
}

export const DASHBOARD_HOME = '/dashboard/home';

/**
 * Navigation guards of spec part 1, 2.2. Returns where to go instead, or null to proceed.
 * - agent routes send visitors to /login?redirectFrom=<full path>; admin routes send agents home;
 * - a submitted application allows only Review and Purchase (the agent's own pages stay reachable);
 * - whyApplying is always allowed; any other step needs an active application, else the root.
 */
export function guardRoute(target: GuardTarget, ctx: GuardContext): string | null {
  if (target.kind === 'agent' || target.kind === 'admin') {
    if (!ctx.isAuthorized) return `/login?redirectFrom=${encodeURIComponent(ctx.fullPath)}`;
    if (target.kind === 'admin' && !ctx.isAdmin) return DASHBOARD_HOME;
    return null;
  }
  const rap = stepById('rap').path;
  if (ctx.application?.submissionTime && !(target.kind === 'step' && target.step === 'rap')) return rap;
  if (target.kind === 'step' && target.step !== 'whyApplying' && !ctx.application) return '/';
  return null;
}
