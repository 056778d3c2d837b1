// Wire types of GET /api/dashboard/quotes and /api/dashboard/enrollees.

export type ListKind = 'quotes' | 'enrollees';
export type Product = 'medical' | 'dental' | 'vision';
export type Period = 60 | 180 | 365;
export type SortCol = 'last_name' | 'created_at' | 'effective_date' | 'submission_time';

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
  started_by?: string | null;
  medical_plan_name: string | null;
  dental_plan_name: string | null;
  vision_plan_name: string | null;
}

export interface DashboardListPage {
  total: number;
  page: number;
  pages: number;
  rows: DashboardRow[];
}
