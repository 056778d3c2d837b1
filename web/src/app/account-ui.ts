// The account pieces, loaded on demand as one chunk: the modal an account route opens over the
// landing page, the top bar's menus for logged-in users with their modals, and the admins' outbox
// page. One dynamic import for all its callers: lazily loaded modules that share code make
// Rolldown split what they share with the main bundle into a chunk that the landing page then
// loads too (checked: the first load grew by 1.5 kB gzipped).
export { AuditLogPage } from '@/features/admin/components/audit-log-page';
export { OutboxPage } from '@/features/admin/components/outbox-page';
export { LandingModal } from './routes/landing-modal';
export { UserMenus } from './layout/user-menus';
