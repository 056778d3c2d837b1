import type { Registry } from '@rjsf/utils';
import type { Application } from '@/types/api';
import type { FieldPath } from '../utils/paths';

/** A dialog a widget asks for: an id in the view's `modals`. */
export interface ModalRequest {
  id: string;
  /** Values for the dialog's `{placeholders}` (e.g. `{zip}`). */
  values?: Record<string, unknown>;
  /** Answers cleared when the dialog closes. */
  clear?: FieldPath[];
}

/** A file chosen for a field, sent once the step is saved. */
export interface PendingUpload {
  url: string;
  file: File;
  /** The field (its value becomes the name of the file on file). */
  path: FieldPath;
}

/** What the step page hands every template and widget (RJSF `formContext`). */
export interface StepFormContext {
  extras: Record<string, unknown>;
  /** The agent's name for texts that name the agent ("Please contact your agent, …"). */
  agentName: string | null;
  /** The session's application (county lists are asked for it); null before the first save. */
  applicationId: string | null;
  /** Whether the form marks its required fields (`ui:options.requiredLegend` on the form). */
  markRequired: boolean;
  /**
   * The page's language: a new one makes RJSF draw every field again (its own texts, such as a yes/no
   * field's choices, are computed outside the widgets).
   */
  language: string;
  /** The answers as they are now. */
  getFormData: () => unknown;
  /** Set (undefined: clear) the answer at a path. */
  setAt: (path: FieldPath, value: unknown) => void;
  openModal: (request: ModalRequest) => void;
  /** Continue waits while any key is busy (a county list loading, a file uploading). */
  setBusy: (key: string, busy: boolean) => void;
  /** Keep (null: forget) a file to upload after the next accepted save. */
  setUpload: (key: string, upload: PendingUpload | null) => void;
  /** Go to a page of the app (a link of the form file). */
  navigate: (path: string) => void;
  /** `action: home`: the server lets go of the application, then the page at `href` loads afresh. */
  goHome: (href: string) => void;
  /** The application changed outside a save (a step opened again): the page keeps it. */
  applicationChanged?: (application: Application) => void;
}

const NOOP_CONTEXT: StepFormContext = {
  extras: {},
  agentName: null,
  applicationId: null,
  markRequired: false,
  language: '',
  getFormData: () => undefined,
  setAt: () => {},
  openModal: () => {},
  setBusy: () => {},
  setUpload: () => {},
  navigate: () => {},
  goHome: () => {},
};

/** The step page's context from a template's or widget's registry. */
export function stepContext(registry: Registry): StepFormContext {
  const ctx = registry.formContext as Partial<StepFormContext> | undefined;
  return ctx && typeof ctx.setAt === 'function' ? (ctx as StepFormContext) : NOOP_CONTEXT;
}
