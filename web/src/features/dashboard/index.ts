// The dashboard's lazy entry (loaded through app/dashboard-ui.ts by the dashboard routes' `lazy`).
import { createElement } from 'react';
import { DashboardList } from './components/list-page';

export { DashboardActionsContext, type DashboardActions } from './components/dashboard-actions';
export { DashboardHome } from './components/dashboard-home';
export { DashboardShell } from './components/dashboard-shell';
export { RecentNotificationsPage } from './components/recent-notifications';
export { RenewalsPage } from './components/renewals-page';

export function QuotingPage() {
  return createElement(DashboardList, { kind: 'quotes' });
}

export function SubmissionsPage() {
  return createElement(DashboardList, { kind: 'enrollees' });
}
