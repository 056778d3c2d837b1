// Wire types of the dashboard calls (docs/dashboard-api.md): lists, shell, home, notifications.

import type { AgentMessageFields } from '@/types/api';
import type { components } from '@/types/openapi.gen';

type Schema<K extends keyof components['schemas']> = components['schemas'][K];

export type ListKind = 'quotes' | 'enrollees';
export type Product = 'medical' | 'dental' | 'vision';
export type Period = 60 | 180 | 365;
export type SortCol = 'last_name' | 'created_at' | 'effective_date' | 'submission_time';
/** Quoting's "Started by" filter (`filterStartedBy`); '' is All. */
export type StartedBy = '' | 'agent' | 'consumer';

export type DashboardRow = Schema<'DashboardRow'>;

export type DashboardListPage = Schema<'DashboardPage'>;

/** GET /api/dashboard/shell: the left navigation. */
export type DashboardShell = Schema<'Shell'>;

/** GET /api/dashboard/countdownIndividual and /countdownMedicare. */
export type Countdown = Schema<'Countdown'>;

/** GET /api/dashboard/enrollmentsYtd: submissions per month ("2025-01": 3), months in order. */
export type EnrollmentsYtd = Record<string, number>;

/** GET /api/dashboard/carrierShare: maps keyed by carrier id. */
export type CarrierShare = Schema<'CarrierShare'>;

/** A notification (GET /api/dashboard/getMessages, /getOldMessages). `content` is HTML. */
export type AgentMessage = AgentMessageFields;

export type MessagesResponse = Schema<'Messages'>;

/** GET /api/dashboard/getAppInfo/{id}: the More Info modal. */
export type AppInfo = Schema<'AppInfo'>;

/** POST /api/dashboard/enroll/{id}: the route to resume at. */
export type EnrollResponse = Schema<'Resume'>;

/** GET /api/dashboard/evidence/{id}: a submission's evidence packet (its PDF drawn or still preparing). */
export type Evidence = Schema<'Evidence'>;

/** A "Send to customer" hand-off (GET/POST/DELETE /api/dashboard/handoff/{id}; each list row's `handoff`). */
export type Handoff = Schema<'Handoff'>;
