import { describe, expect, it } from 'vitest';
import { buildPreviewRequest, DEFAULT_INPUTS, parseJsonObject, type PreviewInputs } from './build-preview-request';

const inputs = (over: Partial<PreviewInputs> = {}): PreviewInputs => ({ ...DEFAULT_INPUTS, step: 'census', ...over });

describe('buildPreviewRequest', () => {
  it('builds the view request from the defaults: no today, no answers, every carrier flag of the catalog on', () => {
    expect(buildPreviewRequest(inputs(), false, ['display_bcbsm', 'display_ph'])).toEqual({
      ok: true,
      request: {
        step: 'census',
        applying: 'consumer',
        agent: { offers: ['display_bcbsm', 'display_ph'], marketplace_certified: false },
        app: { medical_carrier_id: 1, enrollment_type: 'oe', effective_date: '2025-01-01' },
      },
    });
  });

  it('sends today, who is applying, the agent flags and the answers when validating', () => {
    const built = buildPreviewRequest(
      inputs({
        today: '2024-11-20',
        applying: 'agent',
        offers: ['display_ph'],
        marketplaceCertified: true,
        app: '{"enrollment_type": "qle"}',
        answers: ' {"sub_first_name": ""} ',
      }),
      true,
    );
    expect(built).toEqual({
      ok: true,
      request: {
        step: 'census',
        today: '2024-11-20',
        applying: 'agent',
        agent: { offers: ['display_ph'], marketplace_certified: true },
        app: { enrollment_type: 'qle' },
        answers: { sub_first_name: '' },
      },
    });
  });

  it('validates empty answers when the answers are left empty, and leaves them out for a view', () => {
    const validate = buildPreviewRequest(inputs({ answers: '  ' }), true);
    expect(validate.ok && validate.request.answers).toEqual({});
    const view = buildPreviewRequest(inputs({ answers: 'not json' }), false);
    expect(view.ok && 'answers' in view.request).toBe(false);
  });

  it('treats an empty context as an empty object', () => {
    const built = buildPreviewRequest(inputs({ app: '' }), false);
    expect(built.ok && built.request.app).toEqual({});
  });

  it('names every input that is wrong', () => {
    const built = buildPreviewRequest(inputs({ step: '', today: '20/11/2024', app: '[1]', answers: '{"a":' }), true);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(Object.keys(built.errors).sort()).toEqual(['answers', 'app', 'step', 'today']);
    expect(built.errors.step).toBe('Choose a step.');
    expect(built.errors.app).toBe('The application context must be a JSON object ({ … }).');
    expect(built.errors.answers).toMatch(/^The sample answers is not valid JSON: /);
  });
});

describe('parseJsonObject', () => {
  it('accepts objects only', () => {
    expect(parseJsonObject('{"a": [1]}', 'x')).toEqual({ value: { a: [1] } });
    expect(parseJsonObject('null', 'X')).toEqual({ error: 'X must be a JSON object ({ … }).' });
    expect(parseJsonObject('"s"', 'X')).toEqual({ error: 'X must be a JSON object ({ … }).' });
  });
});
