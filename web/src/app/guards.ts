import type { FlowStep } from '@/lib/flow';

export type GuardTarget =
  /** A step of the flow, as the server's flow gives it for the session's application. */
  | { kind: 'step'; step: FlowStep }
  /** Dashboard routes: agents only. */
  | { kind: 'agent' }
  /** Admins' extra pages (the demo's outbox). Manage Messages has no client-side guard (spec part 2, 2). */
  | { kind: 'admin' }
  /** The rules workbench: analysts and admins. */
  | { kind: 'rules' }
  | { kind: 'public' };

export interface GuardContext {
  application: { submissionTime: string | null } | null;
  isAuthorized: boolean;
  isAdmin: boolean;
  /** An analyst or an admin: the rules workbench is theirs. */
  worksOnRules: boolean;
  /** Path, query and hash of the requested page. */
  fullPath: string;
  /** The flow's submitted step (Review and Purchase): its id and route; null when not known. */
  submitted: { id: string; route: string } | null;
}

export const DASHBOARD_HOME = '/dashboard/home';
/** The rules workbench, where an analyst's session starts (an analyst has no dashboard). */
export const RULES_WORKBENCH = '/dashboard/rules';

/**
 * Navigation guards of spec part 1, 2.2 and part 2, 2. Returns where to go instead, or null to proceed.
 * - "If the application is already submitted, any target except rap is redirected to rap": every
 *   target, the dashboard included (Return Home lets go of the application first); rap is the
 *   flow's submitted step;
 * - agent routes send visitors to /login?redirectFrom=<full path>; admin routes send agents home;
 *   an analyst (no dashboard, no admin pages) goes to the rules workbench, which only analysts and
 *   admins open;
 * - a step the flow always opens (whyApplying) is allowed; any other step needs an active
 *   application, else the root, and then the server's word that the application may open it
 *   (the flow's `valid`, which is the server's validStep).
 */
export function guardRoute(target: GuardTarget, ctx: GuardContext): string | null {
  const submitted = ctx.application?.submissionTime ? ctx.submitted : null;
  if (submitted && !(target.kind === 'step' && target.step.id === submitted.id)) return submitted.route;
  if (target.kind === 'agent' || target.kind === 'admin' || target.kind === 'rules') {
    if (!ctx.isAuthorized) return `/login?redirectFrom=${encodeURIComponent(ctx.fullPath)}`;
    if (target.kind === 'rules') return ctx.worksOnRules ? null : DASHBOARD_HOME;
    if (ctx.worksOnRules && !ctx.isAdmin) return RULES_WORKBENCH;
    if (target.kind === 'admin' && !ctx.isAdmin) return DASHBOARD_HOME;
    return null;
  }
  if (target.kind === 'step' && !target.step.always_valid && (!ctx.application || !target.step.valid)) return '/';
  return null;
}
