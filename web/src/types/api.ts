// Wire types of the server's JSON API (same origin, under /api).

export interface AuthState {
  is_authorized: boolean;
  is_admin: boolean;
  agent_subdomain: string | null;
  admin_subdomain: string | null;
  user_name: string | null;
  csrf_token: string;
}

export interface Branding {
  agent_name: string;
  agency_name: string;
  /** HTML produced and escaped by the server. */
  address: string;
  email: string;
  phone_number: string;
  fax_number: string | null;
  npn: string;
  subdomains: string[];
  display_bcbsm: boolean;
  display_ph: boolean;
  display_medicare: boolean;
  websiteUrl: string | null;
  logo_url: string;
}

export interface Site {
  product_name: string;
  tool_owner: string;
  general_agent: string;
  subdomain: string | null;
  /** The agent offers a Blue Cross family carrier or the Priority carrier. */
  supported: boolean;
  demo: boolean;
  agent: Branding | null;
}

export interface Application {
  applicationId: string;
  lastStep: number;
  effectiveDate: string | null;
  enrollmentPeriodTypeId: number | null;
  medicalCarrierId: number | null;
  dentalCarrierId: number | null;
  visionCarrierId: number | null;
  medicalNetworkTypeId: number | null;
  skipMedical: boolean | number;
  skipDental: boolean | number;
  skipVision: boolean | number;
  skipOther: boolean | number;
  skipPcp: boolean | number;
  submissionTime: string | null;
}

export interface ActiveApplicationResponse {
  application: Application | null;
}

export interface LegalDocument {
  title: string;
  /** HTML rendered by the server from its templates. */
  html: string;
}
