import type { Applying, PreviewRequest } from '@/types/api';

/** What the analyst typed: the preview's form state. */
export interface PreviewInputs {
  step: string;
  /** YYYY-MM-DD, or empty for the server's today. */
  today: string;
  applying: Applying;
  /** The agent's carrier flags that are on (the catalog's agent_flags); null: all of them. */
  offers: string[] | null;
  marketplaceCertified: boolean;
  /** The application context as JSON text (an object). */
  app: string;
  /** Sample answers as JSON text (an object); empty for none. */
  answers: string;
}

export type InputField = 'step' | 'today' | 'app' | 'answers';
export type InputErrors = Partial<Record<InputField, string>>;

export type BuildResult = { ok: true; request: PreviewRequest } | { ok: false; errors: InputErrors };

export const DEFAULT_APP = { medical_carrier_id: 1, enrollment_type: 'oe', effective_date: '2025-01-01' };

export const DEFAULT_INPUTS: PreviewInputs = {
  step: '',
  today: '',
  applying: 'consumer',
  offers: null,
  marketplaceCertified: false,
  app: JSON.stringify(DEFAULT_APP, null, 2),
  answers: '',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Parsed = { value: Record<string, unknown> } | { error: string };

/** Parses a textarea that must hold a JSON object; empty text is an empty object. */
export function parseJsonObject(text: string, what: string): Parsed {
  if (!text.trim()) return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `${what} is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: `${what} must be a JSON object ({ … }).` };
  }
  return { value: value as Record<string, unknown> };
}

/**
 * The body of POST /api/admin/rules/preview. `validate` sends the sample answers (an empty textarea
 * validates empty answers); without it only the step's view is asked for.
 */
/** `allFlags`: the catalog's carrier flags (GET /api/admin/rules/preview), which `offers: null` means. */
export function buildPreviewRequest(inputs: PreviewInputs, validate: boolean, allFlags: string[] = []): BuildResult {
  const errors: InputErrors = {};
  if (!inputs.step) errors.step = 'Choose a step.';
  const today = inputs.today.trim();
  if (today && !DATE.test(today)) errors.today = 'Enter the date as YYYY-MM-DD, or leave it empty for the server’s today.';
  const app = parseJsonObject(inputs.app, 'The application context');
  if ('error' in app) errors.app = app.error;
  const answers = validate ? parseJsonObject(inputs.answers, 'The sample answers') : null;
  if (answers && 'error' in answers) errors.answers = answers.error;
  if (Object.keys(errors).length > 0 || 'error' in app || (answers && 'error' in answers)) return { ok: false, errors };

  const request: PreviewRequest = {
    step: inputs.step,
    applying: inputs.applying,
    agent: {
      offers: inputs.offers ?? allFlags,
      marketplace_certified: inputs.marketplaceCertified,
    },
    app: app.value,
  };
  if (today) request.today = today;
  if (answers) request.answers = answers.value;
  return { ok: true, request };
}
