// The agent dashboard and Manage Messages, loaded on demand as one chunk (the dashboard routes'
// and /manageMessages' `lazy`): one dynamic import for all of them, so Rolldown does not split what
// they share with the main bundle into a chunk the landing page would load too (see account-ui.ts).
export { DashboardHome, QuotingPage, RecentNotificationsPage, RenewalsPage, SubmissionsPage } from '@/features/dashboard';
export { ManageMessagesPage } from '@/features/messages';
export { DashboardLayout } from './routes/dashboard';
