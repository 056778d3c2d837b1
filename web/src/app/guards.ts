import type { StepId } from '@/lib/steps';
import { stepById } from '@/lib/steps';

export type GuardTarget =
  | { kind: 'step'; step: StepId }
  /** Dashboard routes: agents only. */
  | { kind: 'agent' }
  /** Admins' extra pages (the demo's outbox). Manage Messages has no client-side guard (spec part 2, 2). */
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
 * Navigation guards of spec part 1, 2.2 and part 2, 2. Returns where to go instead, or null to proceed.
 * - "If the application is already submitted, any target except rap is redirected to rap": every
 *   target, the dashboard included (Return Home lets go of the application first);
 * - agent routes send visitors to /login?redirectFrom=<full path>; admin routes send agents home;
 * - whyApplying is always allowed; any other step needs an active application, else the root.
 */
export function guardRoute(target: GuardTarget, ctx: GuardContext): string | null {
  const rap = stepById('rap').path;
  if (ctx.application?.submissionTime && !(target.kind === 'step' && target.step === 'rap')) return rap;
  if (target.kind === 'agent' || target.kind === 'admin') {
    if (!ctx.isAuthorized) return `/login?redirectFrom=${encodeURIComponent(ctx.fullPath)}`;
    if (target.kind === 'admin' && !ctx.isAdmin) return DASHBOARD_HOME;
    return null;
  }
  if (target.kind === 'step' && target.step !== 'whyApplying' && !ctx.application) return '/';
  return null;
}
