// Wire types of the server's JSON API (same origin, under /api): generated from the server's
// OpenAPI document (`web/openapi.json`, `npm run api-types`) into `openapi.gen.ts`; here they get
// the names the app uses. Only what the document leaves open (a JSON Schema, a rule's answers) is
// narrowed here.

import type { components } from './openapi.gen';

export type Schema<K extends keyof components['schemas']> = components['schemas'][K];

export type AuthState = Schema<'AuthState'>;
export type Branding = Schema<'Branding'>;
export type Site = Schema<'Site'>;
export type Application = Schema<'ActiveApplication'>;
export type ActiveApplicationResponse = Schema<'ActiveResponse'>;
export type LegalDocument = Schema<'LegalText'>;
/** GET /api/application/{applicationId}/step */
export type LastStepResponse = Schema<'LastStep'>;
/** GET /api/application/{applicationId}/step/{step}/validStep */
export type ValidStepResponse = Schema<'ValidStep'>;

// The rules workbench (analysts and admins): the preview of any step, the serving set, its
// scenarios and coverage, drafts' impact, proposals and their approval, scheduled sets, rollback.

export type StepInfo = Schema<'Step'>;
export type PreviewSteps = Schema<'PreviewSteps'>;
export type Applying = 'consumer' | 'agent';

export type PreviewRequest = Omit<Schema<'PreviewRequest'>, 'applying'> & {
  applying: Applying;
};

/** Everything the browser needs to draw a step. */
export type StepView = Schema<'StepViewBody'>;

/** Errors keyed by the spec's field keys. */
export type StepErrors = Record<string, string[]>;

/** The engine's verdict on a step's answers (the workbench preview's `validation`). */
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

export type PreviewResult = Omit<Schema<'PreviewResult'>, 'validation'> & { validation: Submission | null };

/** The serving set's status, with the server's clock as it answered (`now`). */
export type RulesStatus = Omit<Schema<'RulesStatusNow'>, 'problems'> & { problems: Diagnostic[] };
/** A problem of a rule set: the file, line and column, and what is wrong. */
export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}
export type Publication = Schema<'Publication'>;
export type ProposalState = 'proposed' | 'approved' | 'rejected' | 'withdrawn';
/** One file's change in a proposal: `diff` is a unified diff, `---`/`+++` headers included. */
export type FileDiff = Omit<Schema<'FileDiff'>, 'change'> & { change: 'added' | 'removed' | 'changed' };
/** A scenario that fails under a proposed set. */
export interface FailedScenario {
  at: string;
  name: string;
  failures: string[];
}
/**
 * What the approver reads (kept with the proposal when it was made): the impact, the suites'
 * result and the coverage. Stored JSON: each part is read as possibly missing.
 */
export interface ProposalEvidence {
  impact?: ImpactReport;
  scenarios?: { run: number; failed: FailedScenario[] };
  coverage?: { totals: Partial<Record<CoverageKind, Tally>>; below_floor: string[] };
}
export type Proposal = Omit<Schema<'Proposal'>, 'state' | 'evidence'> & { state: ProposalState; evidence: ProposalEvidence };
export type ProposalDetail = Omit<Schema<'ProposalDetail'>, 'proposal' | 'files'> & { proposal: Proposal; files: FileDiff[] };
export type PreviewPlans = Schema<'PreviewPlans'>;
export type SetFile = Schema<'SetFile'>;
export type Draft = Schema<'Draft'> & { files: SetFile[] };
export type ScenarioOutcome = Schema<'ScenarioOutcome'>;
export type ScenarioChange = Schema<'ScenarioChange'>;

/** How many of a kind of thing the scenarios reached. */
export interface Tally {
  reached: number;
  total: number;
}
export type CoverageKind = 'statements' | 'branches' | 'transitions' | 'modals' | 'fields' | 'carriers' | 'crosswalk';
/** One thing the scenarios can reach (engine/src/coverage/report.rs `Item`). */
export interface CoverageItem {
  kind: 'statement' | 'expression' | 'branch' | 'transition' | 'modal' | 'field' | 'carrier';
  what: string;
  file: string;
  line: number;
  reached: boolean;
}
export interface CoverageReport {
  totals: Record<CoverageKind, Tally>;
  items: CoverageItem[];
  files: { path: string; lines: { text: string; statements: number; reached: number; missed_branches: string[] }[] }[];
  page_modals: CoverageItem[];
}
export type RulesReport = Omit<Schema<'RulesReport'>, 'coverage'> & { coverage: CoverageReport };

/** One observation that differs for one made-up household (`household 17`; engine/src/impact.rs). */
export interface ImpactChange {
  application: string;
  before: string;
  after: string;
}
export interface ImpactGroup {
  what: string;
  changes: ImpactChange[];
}
/**
 * How many stored applications one kind of change touches, in the published set's words
 * (`medical: plan 530 premium changes`): customers' applications are counted only, never shown
 * with a value or an id. A group of fewer than 5 has no number (`applications` null) and is shown
 * as "fewer than 5".
 */
export interface ImpactCount {
  what: string;
  applications: number | null;
  /** The count as read: "12" or "fewer than 5". */
  shown: string;
}
export type ImpactReport = Omit<Schema<'Report'>, 'household_changes' | 'application_counts'> & {
  household_changes: ImpactGroup[];
  application_counts: ImpactCount[];
};

// The wizard's form steps (GET/POST preview/PUT /api/application/step/{step}).

/** PUT /api/application/step/{step}: 200. */
export type StepSaved = Schema<'Saved'>;
/** POST /api/application/step/{step}/reopen: 200 (a skipped step opened again by its flow rule). */
export type StepReopened = Schema<'Reopened'>;
/** GET /api/application/{applicationId}/countyList/{zip} (spec part 1, 3 "County option"). */
export type CountyOption = Schema<'CountyOption'>;
/** A document upload's answer (POST to a field's `x-upload.url`; multipart `file`). */
export type UploadedDocument = Schema<'Uploaded'>;

// Accounts and admins (spec part 1, 2.5, 4.2 and 7 "Accounts").

export type LoggedIn = Schema<'LoggedIn'>;
export type Enrolment = Schema<'Enrolment'>;
export type SecondFactorStatus = Schema<'SecondFactorStatus'>;
export type CodeRequest = Schema<'CodeRequest'>;
export type SecuritySettings = Schema<'SecuritySettings'>;
export type AuditRow = Schema<'AuditRow'>;
export type AuditPage = Schema<'AuditPage'>;
/** Forgot, reset, register and change password: a message for the user. */
export type ServerMessage = Schema<'Message'>;
export type UserByToken = Schema<'UserByToken'>;
export type AgentUser = Schema<'AgentUser'>;
export type OutboxMessage = Schema<'OutboxMessage'>;
/** An agent message as the server sends it (notifications and Manage Messages). */
export type AgentMessageFields = Schema<'AgentMessage'>;
export type Device = Schema<'Device'>;
export type AccountState = Schema<'AccountState'>;

/** GET /api/start: a page load's first answer (the auth state, the active application, the flow). */
export type Start = Schema<'Start'>;
