// Wire types of the server's JSON API (same origin, under /api).

export interface AuthState {
  is_authorized: boolean;
  is_admin: boolean;
  agent_subdomain: string | null;
  admin_subdomain: string | null;
  /** An admin is acting as this user (Switch back to Admin is offered). */
  impersonating?: boolean;
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
  /** The analysts' playground is on: the top bar shows the Misc menu. */
  playground: boolean;
  /** Idle seconds after which the session expires (30 minutes unless configured otherwise). */
  idle_seconds?: number;
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

/** GET /api/application/{applicationId}/step */
export interface LastStepResponse {
  last_step: number;
  /** The route of the last step reached (Continue Quote goes there). */
  route: string | null;
}

/** GET /api/application/{applicationId}/step/{step}/validStep */
export interface ValidStepResponse {
  valid: boolean;
}

// The analysts' playground (off unless the server runs with ENROLLFLOW_PLAYGROUND=true).

export interface StepInfo {
  id: string;
  number: number;
  route: string;
  title: string;
}

export interface PlaygroundSteps {
  steps: StepInfo[];
  /** The serving rules' digest. */
  rules: string;
}

export type Applying = 'consumer' | 'agent';

export interface PlaygroundAgentFlags {
  offers_blue: boolean;
  offers_priority: boolean;
  marketplace_certified: boolean;
}

export interface PlaygroundRequest {
  step: string;
  /** YYYY-MM-DD; the server's today when absent. */
  today?: string;
  applying: Applying;
  agent: PlaygroundAgentFlags;
  /** The application: flags (`medical_carrier_id`, `enrollment_type`, …) and earlier answers. */
  app: Record<string, unknown>;
  /** Answers to validate, if any. */
  answers?: Record<string, unknown>;
}

/** Everything the browser needs to draw a step. */
export interface StepView {
  step: StepInfo;
  /** `form` (drawn from the schema) or the name of a hand-built page. */
  kind: string;
  params: unknown;
  skipped: boolean;
  previous: StepInfo | null;
  next: StepInfo | null;
  /** JSON Schema of a form step; null for hand-built pages. */
  schema: Record<string, unknown> | null;
  ui: Record<string, unknown>;
  data: unknown;
  extras: Record<string, unknown>;
  modals: Record<string, unknown>;
  /** Fields whose change should fetch a fresh view. */
  refresh_on: string[];
}

/** Errors keyed by the spec's field keys. */
export type StepErrors = Record<string, string[]>;

export type Submission =
  | { outcome: 'invalid'; errors: StepErrors }
  | {
      outcome: 'accepted';
      /** The next step, or the same step when a modal is asked. */
      next: StepInfo;
      /** A dialog to show before going on (its id in the form's `modals`). */
      modal: string | null;
      /** Application flags to merge (derived flags and `last_step`). */
      updates: Record<string, unknown>;
      /** The cleaned answers to store under the step's id. */
      answers: unknown;
    };

export interface PlaygroundResult {
  view: StepView;
  validation: Submission | null;
}

// The wizard's form steps (GET/POST preview/PUT /api/application/step/{step}).

/** PUT /api/application/step/{step}: 200. */
export interface StepSaved {
  /** Where to go (the same step when a dialog is asked). */
  next: StepInfo;
  /** A dialog to show (its id in the view's `modals`). */
  modal: string | null;
  application: Application;
  /** A refusal of the submission as a whole (spec part 2, 7: the purchase "may carry submit_error"). */
  submit_error?: string | null;
}

/** POST /api/application/step/{step}/reopen: 200 (a skipped step opened again by its flow rule). */
export interface StepReopened {
  step: StepInfo;
  application: Application;
}

/** GET /api/application/{applicationId}/countyList/{zip} (spec part 1, 3 "County option"). */
export interface CountyOption {
  id: number;
  description: string;
}

/** A document upload's answer (POST to a field's `x-upload.url`, e.g. /api/whyapplying/fileupload; multipart `file`). */
export interface UploadedDocument {
  document_id: string;
  file_name: string;
}

// Accounts and admins (spec part 1, 2.5, 4.2 and 7 "Accounts").

/** POST /api/login, GET /api/admin/fabricateAgent/{userId}, GET /api/unFabricateAgent: a new session. */
export interface LoggedIn {
  /** The first subdomain of the user's agent (its branding is loaded). */
  subdomain: string | null;
  /** The new session's token (the cookie is new too). */
  csrf_token: string;
  /**
   * The password was right and a second factor must follow: `code` (from the authenticator app,
   * or a recovery code), or `setup` (the account must add an app first). Nothing else changed.
   */
  second_factor?: 'code' | 'setup';
  /** The ten recovery codes, shown once: when this login set up the second factor. */
  recovery_codes?: string[];
}

/** What a person needs to add the secret to an authenticator app. */
export interface Enrolment {
  /** The secret in base32, to type in by hand. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  /** The QR code, an SVG document. */
  qr_svg: string;
}

/** The caller's second factor. */
export interface SecondFactorStatus {
  enabled: boolean;
  /** Admins must; agents must when an admin requires it. */
  required: boolean;
  recovery_codes_left: number;
}

/** A code from the authenticator app, or a recovery code instead. */
export interface CodeRequest {
  code?: string;
  recovery_code?: string;
}

export interface SecuritySettings {
  second_factor_required_for_agents: boolean;
}

/** One row of the audit log. */
export interface AuditRow {
  id: number;
  at: string;
  action: string;
  actor_id: string | null;
  actor_name: string | null;
  subject_id: string | null;
  subject_name: string | null;
  application_id: string | null;
  /** The method and route template of the call. */
  detail: string | null;
  address: string | null;
  request_id: string | null;
}

export interface AuditPage {
  rows: AuditRow[];
  /** Pass as `before` for the next (older) page. */
  next: number | null;
  actions: string[];
}

/** Forgot, reset, register and change password: a message for the user. */
export interface ServerMessage {
  message: string;
}

/** GET /api/get-user/{token} (spec part 1, 3 "User by token"). */
export interface UserByToken {
  firstName: string;
  lastName: string;
  email: string;
}

/** GET /api/admin/getUsersByNPN/{npn} (spec part 1, 3 "Agent's user list"). */
export interface AgentUser {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
}

/** GET /api/admin/outbox: the newest e-mails, newest first (the demo's mail viewer). */
export interface OutboxMessage {
  id: number;
  to_address: string;
  subject: string;
  /** Empty once sent through SMTP. */
  body: string;
  created_at: string;
  sent_at: string | null;
  attempts: number;
}

/** An agent message as the server sends it (notifications and Manage Messages). `content` is
 * sanitized HTML; dates are YYYY-MM-DD, `created_at_formatted` MM/DD/YYYY. */
export interface AgentMessageFields {
  id: string;
  title: string;
  content: string;
  is_sticky: boolean;
  publish_date: string;
  expiration_date: string | null;
  code: string | null;
  created_at_formatted: string;
}

/** GET /api/user/sessions: one of the person's signed-in sessions, newest activity first. */
export interface Device {
  id: string;
  /** RFC 3339. */
  created_at: string;
  /** RFC 3339. */
  last_seen_at: string;
  /** e.g. "Chrome on Windows". */
  browser: string;
  /** The session of this browser. */
  current: boolean;
  /** An admin acting as an agent in that session. */
  acting_as_agent: boolean;
}

/** PUT /api/admin/users/{userId}/disabled: whether the user can log in (admins only). */
export interface AccountState {
  id: string;
  disabled: boolean;
}
