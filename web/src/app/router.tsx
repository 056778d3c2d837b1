import type { MessageDescriptor } from '@lingui/core';
import { createBrowserRouter, redirect, useLoaderData, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { stepAtPath, useFlowStore } from '@/lib/flow';
import { loadPart } from '@/i18n';
import { bootstrap } from './bootstrap';
import type { GuardTarget } from './guards';
import { AppShell } from './layout/app-shell';
import { guardNavigation } from './navigation-guard';
import type { RouteHandle, StepRouteData } from './route-handle';
import { LandingRoute } from './routes/landing';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { StepPage } from './routes/step-page';

function guarded(target: GuardTarget) {
  return async ({ request }: LoaderFunctionArgs) => {
    await bootstrap();
    const url = new URL(request.url);
    const to = await guardNavigation(target, `${url.pathname}${url.search}${url.hash}`);
    if (to) throw redirect(to);
    return null;
  };
}

/**
 * A wizard step: the flow is read again (the session's application as it is now, the rules as they
 * are now), the address names its step, and the guards decide. An address that is no step's is
 * not found.
 */
async function stepLoader({ request }: LoaderFunctionArgs): Promise<StepRouteData> {
  await bootstrap();
  const url = new URL(request.url);
  const flow = await useFlowStore.getState().load();
  if (!flow) throw redirect('/');
  const step = stepAtPath(flow, url.pathname);
  if (!step) throw redirect('/404');
  const to = await guardNavigation({ kind: 'step', step }, `${url.pathname}${url.search}${url.hash}`);
  if (to) throw redirect(to);
  return { step };
}

function StepRoute() {
  const { step } = useLoaderData<StepRouteData>();
  return <StepPage key={step.id} step={step} />;
}

const dashboardUi = () => import('./dashboard-ui');

// Titles are message descriptors (`/*i18n*/`: the catalogs' extraction reads them); the shell writes them in the page's language.
const full = (title: MessageDescriptor, extra: Partial<RouteHandle> = {}): RouteHandle => ({ title, layout: 'full', ...extra });
/** The dashboard's pages: full page, fluid container (spec part 2, 2). */
const fluid = (title: MessageDescriptor, extra: Partial<RouteHandle> = {}): RouteHandle => full(title, { layout: 'fluid', ...extra });
const publicPage = guarded({ kind: 'public' });

/** After a resume link made an application this browser's: the stores the step guards read. */
const reloadApplication = () => Promise.all([useApplicationStore.getState().load(), useFlowStore.getState().load()]);

export const routes: RouteObject[] = [
  {
    id: 'app',
    element: <AppShell />,
    errorElement: <RouteError />,
    loader: async () => {
      await bootstrap();
      return null;
    },
    HydrateFallback: () => null,
    children: [
      { index: true, element: <LandingRoute />, loader: publicPage, handle: full(/*i18n*/ { id: 'Home' }, { hidePresentedBy: true }) },
      { path: 'login', element: <LandingRoute modal="login" />, loader: publicPage, handle: full(/*i18n*/ { id: 'Agent Login' }) },
      {
        path: 'register/token/:token',
        element: <LandingRoute modal="register" />,
        loader: publicPage,
        handle: full(/*i18n*/ { id: 'Create Your Account' }),
      },
      {
        // The e-mailed link names no address; the spec's form with the address is kept.
        path: 'reset-password/token/:token',
        element: <LandingRoute modal="reset" />,
        loader: publicPage,
        handle: full(/*i18n*/ { id: 'Reset Password' }),
      },
      {
        path: 'reset-password/email/:email/token/:token',
        element: <LandingRoute modal="reset" />,
        loader: publicPage,
        handle: full(/*i18n*/ { id: 'Reset Password' }),
      },
      {
        // The e-mailed "Save and finish later" link: used once, the token then leaves
        // the address bar (the page replaces it with /resume, which a reload sends home).
        path: 'resume/token/:token',
        lazy: async () => {
          const [{ ResumePage }] = await Promise.all([import('@/features/resume/components/resume-page'), loadPart('wizard')]);
          return { Component: () => <ResumePage onResumed={reloadApplication} /> };
        },
        loader: publicPage,
        handle: full(/*i18n*/ { id: 'Finish Your Application' }),
      },
      { path: 'resume', loader: () => redirect('/') },
      {
        // A renewal link's page (the link opened through /resume/token/:token started the new
        // year's application): this year, the renewal and the alternatives; the choice goes on
        // into the wizard.
        path: 'renewal',
        lazy: async () => {
          // Its texts are a part of their own: the wizard's load with the first step it goes on to.
          const [{ RenewalPage }] = await Promise.all([import('@/features/renewal/components/renewal-page'), loadPart('renewal')]);
          return { Component: () => <RenewalPage onChosen={reloadApplication} /> };
        },
        loader: publicPage,
        handle: full(/*i18n*/ { id: 'Your Renewal' }),
      },
      {
        // The step layout (the progress list) loads with the first step: the landing page does
        // without it (scripts/bundle-budget.mjs).
        // The wizard's texts (src/locales/wizard) load with it too.
        lazy: async () => {
          const [{ StepLayout }] = await Promise.all([import('./layout/step-layout'), loadPart('wizard')]);
          return { Component: StepLayout };
        },
        children: [
          {
            // Every step of the flow (GET /api/flow) at its route: no step is named here, so a step
            // added or renamed in rules/flows/ is live without a web build. The step page loads the
            // step's view, then the form renderer (RJSF) or a hand-built page by the view's kind,
            // each on demand: neither is in the landing page's bundle. (Those imports are one level
            // below this bundle on purpose: under a lazy step page, Rolldown splits the modules they
            // share with this bundle into a chunk of their own, which the landing page then also
            // loads.) The title is the step's (the shell reads it from the loader's step).
            path: ':step',
            element: <StepRoute />,
            loader: stepLoader,
            handle: { title: { id: '' }, layout: 'default' } satisfies RouteHandle,
          },
        ],
      },
      {
        // The rules workbench (analysts and admins), loaded on demand: it brings the form renderer.
        path: 'dashboard/rules',
        lazy: async () => {
          // Its preview draws the wizard's pages, with their texts.
          const [{ WorkbenchRoute }] = await Promise.all([import('./routes/workbench'), loadPart('wizard')]);
          return { Component: WorkbenchRoute };
        },
        loader: guarded({ kind: 'rules' }),
        handle: full(/*i18n*/ { id: 'Rules workbench' }),
      },
      {
        path: 'dashboard',
        loader: guarded({ kind: 'agent' }),
        handle: fluid(/*i18n*/ { id: 'Dashboard' }),
        // The dashboard (shell, home, lists, notifications) is loaded on demand with Manage Messages
        // (./dashboard-ui.ts): the landing bundle stays as it is. Only the components are lazy (the
        // object form), so the guard's redirect of a visitor does not wait for the chunk.
        lazy: { Component: async () => (await dashboardUi()).DashboardLayout },
        children: [
          { index: true, loader: () => redirect('/dashboard/home') },
          {
            path: 'home',
            lazy: { Component: async () => (await dashboardUi()).DashboardHome },
            handle: fluid(/*i18n*/ { id: 'Dashboard' }, { hidePresentedBy: true }),
          },
          {
            path: 'quoting',
            lazy: { Component: async () => (await dashboardUi()).QuotingPage },
            handle: fluid(/*i18n*/ { id: 'Dashboard | Quoting' }),
          },
          {
            path: 'enrolled',
            lazy: { Component: async () => (await dashboardUi()).SubmissionsPage },
            handle: fluid(/*i18n*/ { id: 'Dashboard | Submissions' }),
          },
          {
            path: 'renewals',
            lazy: { Component: async () => (await dashboardUi()).RenewalsPage },
            handle: fluid(/*i18n*/ { id: 'Dashboard | Renewals' }),
          },
          {
            path: 'recentNotifications',
            lazy: { Component: async () => (await dashboardUi()).RecentNotificationsPage },
            handle: fluid(/*i18n*/ { id: 'Dashboard' }),
          },
          { path: '*', loader: () => redirect('/404'), element: <NotFoundPage /> },
        ],
      },
      {
        path: 'manageMessages',
        lazy: { Component: async () => (await dashboardUi()).ManageMessagesPage },
        // "Manage Messages has no client-side guard" (spec part 2, 2): the server answers 403 to
        // anyone but an admin, and any 403 sends the browser to the site root.
        loader: publicPage,
        handle: full(/*i18n*/ { id: 'Manage Messages' }),
      },
      {
        // The demo's mail viewer (admins); loaded on demand with the other account pieces.
        path: 'admin/outbox',
        lazy: async () => ({ Component: (await import('./account-ui')).OutboxPage }),
        loader: guarded({ kind: 'admin' }),
        handle: full(/*i18n*/ { id: 'Outbox' }),
      },
      {
        // The audit log (admins): who reached whose data.
        path: 'admin/audit',
        lazy: async () => ({ Component: (await import('./account-ui')).AuditLogPage }),
        loader: guarded({ kind: 'admin' }),
        handle: full(/*i18n*/ { id: 'Audit log' }),
      },
      // The spec's hidden test page (part 1, 2.1) is the rules workbench's preview now (which guards).
      { path: 'playground', loader: () => redirect('/dashboard/rules?tab=preview') },
      { path: '404', element: <NotFoundPage />, loader: publicPage, handle: full(/*i18n*/ { id: 'Page Not Found' }) },
      // The catch-all redirects in its loader; the element only silences "leaf route without element".
      { path: '*', loader: () => redirect('/404'), element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
