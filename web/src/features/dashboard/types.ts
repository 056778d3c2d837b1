// Wire types of the dashboard calls (docs/dashboard-api.md): lists, shell, home, notifications.

import type { AgentMessageFields } from '@/types/api';

export type ListKind = 'quotes' | 'enrollees';
export type Product = 'medical' | 'dental' | 'vision';
export type Period = 60 | 180 | 365;
export type SortCol = 'last_name' | 'created_at' | 'effective_date' | 'submission_time';
/** Quoting's "Started by" filter (`filterStartedBy`); '' is All. */
export type StartedBy = '' | 'agent' | 'consumer';

export interface DashboardRow {
  application_id: string;
  first_name: string;
  last_name: string;
  full_name: string;
  sub_email: string;
  created_at: string;
  updated_at: string;
  submission_time: string | null;
  effective_date: string | null;
  period_badge: 'OEP' | 'SEP';
  contract_count: number;
  last_application_step_type_id: number;
  /** An agent (user) started it; `started_by` names the user. */
  agent_started?: boolean;
  started_by?: string | null;
  medical_plan_name: string | null;
  dental_plan_name: string | null;
  vision_plan_name: string | null;
  /** The site the application was started on (null for older rows). */
  subdomain?: string | null;
  /** The medical plan's Summary of Benefits and Coverage, or null. */
  sbc_url?: string | null;
}

export interface DashboardListPage {
  total: number;
  page: number;
  pages: number;
  rows: DashboardRow[];
  /** The agent's sites (the Site filter shows when there are more than one). */
  subdomains?: string[];
}

/** GET /api/dashboard/shell: the left navigation. */
export interface DashboardShell {
  agent_full_name: string;
  user_full_name: string;
  display_medicare: boolean;
  medicare_url: string | null;
  marketplace_links: { title: string; url: string }[];
  account_manager: { name: string; email: string; phone: string } | null;
  subdomains: string[];
  /** The session holds an unsubmitted application (Continue Quote). */
  has_application: boolean;
}

/** GET /api/dashboard/countdownIndividual and /countdownMedicare. */
export interface Countdown {
  days: number | null;
  message: string | null;
}

/** GET /api/dashboard/enrollmentsYtd: submissions per month ("2025-01": 3), months in order. */
export type EnrollmentsYtd = Record<string, number>;

/** GET /api/dashboard/carrierShare: maps keyed by carrier id. */
export interface CarrierShare {
  carrierCounts: Record<string, number>;
  carrierNames: Record<string, string>;
  carrierColors: Record<string, string>;
}

/** A notification (GET /api/dashboard/getMessages, /getOldMessages). `content` is HTML. */
export interface AgentMessage extends AgentMessageFields {
  dismissed: boolean;
}

export interface MessagesResponse {
  messages: AgentMessage[];
}

/** GET /api/dashboard/getAppInfo/{id}: the More Info modal. */
export interface AppInfo {
  primary_name: string;
  primary_phone: string | null;
  email: string | null;
  residential_street: string | null;
  residential_street2: string | null;
  residential_city: string | null;
  residential_state: string | null;
  residential_zip: string | null;
  billing_provided: boolean;
  billing_street: string | null;
  billing_street2: string | null;
  billing_city: string | null;
  billing_state: string | null;
  billing_zip: string | null;
}

/** POST /api/dashboard/enroll/{id}: the route to resume at. */
export interface EnrollResponse {
  route: string;
}
