// Manage Agent Messages (admins), loaded on demand through app/dashboard-ui.ts.
export { ManageMessagesPage } from './components/manage-messages-page';
