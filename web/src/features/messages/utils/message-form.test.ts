import { describe, expect, it } from 'vitest';
import { EMPTY_FORM, fromMessage, isFormEmpty, splitErrors, toSaveBody, trimForm } from './message-form';

describe('message form', () => {
  it('is empty only when every field is empty or blank', () => {
    expect(isFormEmpty(EMPTY_FORM)).toBe(true);
    expect(isFormEmpty({ ...EMPTY_FORM, title: '   ' })).toBe(true);
    expect(isFormEmpty({ ...EMPTY_FORM, code: 'X' })).toBe(false);
    expect(isFormEmpty({ ...EMPTY_FORM, is_sticky: true })).toBe(false);
    expect(isFormEmpty({ ...EMPTY_FORM, agents: ['a'] })).toBe(false);
  });

  it('trims text and sends empty optional fields as null, no id when new', () => {
    const form = { ...EMPTY_FORM, title: '  Hello ', publish_date: '2024-11-20', content: ' <p>x</p>\n', code: '  ', agents: ['a'] };
    expect(trimForm(form).title).toBe('Hello');
    expect(toSaveBody(form)).toEqual({
      title: 'Hello',
      publish_date: '2024-11-20',
      expiration_date: null,
      code: null,
      content: '<p>x</p>',
      is_sticky: false,
      agents: ['a'],
    });
    expect(toSaveBody({ ...form, id: 'm1' }).id).toBe('m1');
  });

  it('copies a listed message into the form', () => {
    expect(
      fromMessage({
        id: 'm1',
        title: 'T',
        content: 'C',
        is_sticky: true,
        publish_date: '2024-11-01',
        expiration_date: null,
        code: null,
        created_at_formatted: '11/01/2024',
        dismissed: false,
        agents: ['a', 'b'],
      }),
    ).toEqual({ id: 'm1', title: 'T', publish_date: '2024-11-01', expiration_date: '', code: '', content: 'C', is_sticky: true, agents: ['a', 'b'] });
  });

  it('maps the errors map to fields (is_sticky → sticky) and keeps unknown keys apart', () => {
    expect(splitErrors({ title: ['Required'], is_sticky: ['Bad'], other: ['Odd'] })).toEqual({
      fields: { title: 'Required', sticky: 'Bad' },
      other: ['Odd'],
    });
    expect(splitErrors(null)).toEqual({ fields: {}, other: [] });
  });
});
