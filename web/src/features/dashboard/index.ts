// The lazy entry of the dashboard lists (loaded by the dashboard routes' `lazy`).
import { createElement } from 'react';
import { DashboardList } from './components/list-page';

export function QuotingPage() {
  return createElement(DashboardList, { kind: 'quotes' });
}

export function SubmissionsPage() {
  return createElement(DashboardList, { kind: 'enrollees' });
}
