import { useMemo } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { DashboardActionsContext, DashboardShell, type DashboardActions } from '@/features/dashboard';
import { firstStep, stepOfNumber, useFlowStore } from '@/lib/flow';

/**
 * The /dashboard/* layout (loaded on demand through ../dashboard-ui.ts): the dashboard shell with
 * what it needs from the application store — Continue Quote goes where the landing page's does (the
 * application's last step), Start Quote drops the session's application like Restart Quote, and
 * Enroll loads the application the server made the session's before going to its step.
 *
 * An admin who is not acting as an agent has no dashboard (its calls answer 403, which would send
 * the browser to the root): the page says how to see one instead and makes no dashboard call.
 */
export function DashboardLayout() {
  const isAdmin = useAuthStore((s) => s.auth?.is_admin ?? false);
  const application = useApplicationStore((s) => s.application);
  const navigate = useNavigate();
  const flow = useFlowStore((s) => s.flow);
  const continuePath =
    application && !application.submissionTime && flow ? (stepOfNumber(flow, application.lastStep)?.route ?? null) : null;

  const actions = useMemo<DashboardActions>(
    () => ({
      continuePath,
      startQuote: async () => {
        await useApplicationStore.getState().reset();
        const fresh = await useFlowStore.getState().load();
        await navigate(fresh ? (firstStep(fresh)?.route ?? '/') : '/');
      },
      resume: async (route) => {
        await useApplicationStore.getState().load();
        await navigate(route);
      },
    }),
    [continuePath, navigate],
  );

  if (isAdmin) return <AdminDashboardNotice />;
  return (
    <DashboardActionsContext.Provider value={actions}>
      <DashboardShell>
        <Outlet />
      </DashboardShell>
    </DashboardActionsContext.Provider>
  );
}

/** What an admin (not acting as an agent) sees on the dashboard routes. */
export function AdminDashboardNotice() {
  return (
    <div className="ef-dashboard ds-u-padding-y--3">
      <h1 className="ds-text-heading--2xl">Dashboard</h1>
      <p className="ds-text-body--lg">
        The dashboard shows an agent&apos;s notifications, quotes and submissions. To see an agent&apos;s dashboard, choose
        Log in as an agent in the Admin menu.
      </p>
      <p>
        <Link to="/manageMessages">Manage Messages</Link>
      </p>
    </div>
  );
}
