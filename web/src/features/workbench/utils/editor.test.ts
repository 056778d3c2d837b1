import { describe, expect, it } from 'vitest';
import { languageOf, problemRanges } from './editor';

describe('the code editor helpers', () => {
  it('highlights YAML, Rhai and the templates; anything else is plain text', () => {
    expect(languageOf('rules/catalog/2025/medical.yaml')).toBe('yaml');
    expect(languageOf('forms/census.form.yaml')).toBe('yaml');
    expect(languageOf('rules/scripts/plans.rhai')).toBe('rhai');
    expect(languageOf('templates/email/receipt.txt')).toBe('template');
    expect(languageOf('templates/es/legal/terms.html')).toBe('template');
    expect(languageOf('rules/README.md')).toBe('text');
  });

  const text = 'fn household(app) {\n    let = ;\n}\n';

  it('places a problem at its column, over the word there', () => {
    // "rules/scripts/plans.rhai:2:9: …": `=` at line 2, column 9.
    const [r] = problemRanges(text, [{ line: 2, column: 9, message: 'expecting a name' }]);
    expect(r).toEqual({ from: 28, to: 29, line: 2, message: 'expecting a name' });
    expect(text.slice(r!.from, r!.to)).toBe('=');
    const [word] = problemRanges(text, [{ line: 1, column: 4, message: 'unknown' }]);
    expect(text.slice(word!.from, word!.to)).toBe('household');
  });

  it('marks the whole line from its first character when there is no column', () => {
    const [r] = problemRanges(text, [{ line: 2, message: 'bad line' }]);
    expect(text.slice(r!.from, r!.to)).toBe('let = ;');
  });

  it('never loses a problem: a line past the end is the last, a column past the end the line end', () => {
    const [past] = problemRanges('a: 1\nb: 2', [{ line: 9, column: 1, message: 'm' }]);
    expect(past).toMatchObject({ line: 2, from: 5, to: 6 });
    const [end] = problemRanges('a: 1\nb: 2', [{ line: 1, column: 40, message: 'm' }]);
    expect(end).toMatchObject({ line: 1, from: 4, to: 4 });
    const [zero] = problemRanges('', [{ line: 0, message: 'm' }]);
    expect(zero).toMatchObject({ line: 1, from: 0, to: 0 });
  });
});
