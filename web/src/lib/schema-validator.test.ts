import { describe, expect, it } from 'vitest';
import { matchesSchema, schemaValidator } from './schema-validator';

describe('matchesSchema', () => {
  it('decides if/then like the why-applying form', () => {
    const ifQle = { properties: { enrollment_type: { const: 'qle' } }, required: ['enrollment_type'] };
    expect(matchesSchema(ifQle, { enrollment_type: 'qle' })).toBe(true);
    expect(matchesSchema(ifQle, { enrollment_type: 'oe' })).toBe(false);
    expect(matchesSchema(ifQle, {})).toBe(false);
  });

  it('checks type, const, enum, required, properties and items', () => {
    expect(matchesSchema({ type: 'integer' }, 3)).toBe(true);
    expect(matchesSchema({ type: 'integer' }, 3.5)).toBe(false);
    expect(matchesSchema({ type: ['string', 'null'] }, null)).toBe(true);
    expect(matchesSchema({ type: 'object' }, [])).toBe(false);
    expect(matchesSchema({ enum: [1, 2] }, 2)).toBe(true);
    expect(matchesSchema({ const: { a: [1] } }, { a: [1] })).toBe(true);
    expect(matchesSchema({ items: { type: 'string' } }, ['a', 1])).toBe(false);
    expect(matchesSchema({ properties: { a: { type: 'string' } } }, { b: 1 })).toBe(true);
  });

  it('combines allOf, anyOf, oneOf, not and if/then/else', () => {
    expect(matchesSchema({ allOf: [{ type: 'number' }, { enum: [1] }] }, 1)).toBe(true);
    expect(matchesSchema({ anyOf: [{ const: 1 }, { const: 2 }] }, 3)).toBe(false);
    expect(matchesSchema({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toBe(false);
    expect(matchesSchema({ not: { const: 1 } }, 2)).toBe(true);
    const cond = { if: { const: 1 }, then: { type: 'integer' }, else: { type: 'string' } };
    expect(matchesSchema(cond, 1)).toBe(true);
    expect(matchesSchema(cond, 2)).toBe(false);
    expect(matchesSchema(cond, 'x')).toBe(true);
  });

  it('follows local $refs and takes other keywords as satisfied', () => {
    const root = { $defs: { one: { const: 1 } } };
    expect(matchesSchema({ $ref: '#/$defs/one' }, 1, root)).toBe(true);
    expect(matchesSchema({ $ref: '#/$defs/one' }, 2, root)).toBe(false);
    expect(matchesSchema({ type: 'string', maxLength: 1, pattern: '^x$' }, 'long')).toBe(true);
    expect(matchesSchema(false, 1)).toBe(false);
  });
});

describe('schemaValidator', () => {
  it('never reports errors', () => {
    expect(schemaValidator.validateFormData({}, { type: 'object', required: ['a'] })).toEqual({ errors: [], errorSchema: {} });
  });
});
