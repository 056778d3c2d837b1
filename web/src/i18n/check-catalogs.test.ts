import { describe, expect, it } from 'vitest';
// The catalog check `make test` runs (web/scripts/check-catalogs.mjs).
import { marks, problems } from '../../scripts/check-catalogs.mjs';

const po = (entries: [string, string][]) =>
  [
    'msgid ""',
    'msgstr ""',
    '"Language: es\\n"',
    '',
    ...entries.flatMap(([id, str]) => [`msgid ${JSON.stringify(id)}`, `msgstr ${JSON.stringify(str)}`, '']),
  ].join('\n');

describe('check-catalogs', () => {
  it('names a missing translation with its catalog and line', () => {
    const text = po([
      ['Get a Quote', 'Obtener una cotización'],
      ['Welcome', ''],
    ]);
    expect(problems('src/locales/shell/es.po', text, 'es')).toEqual(['src/locales/shell/es.po:8: no es translation of "Welcome"']);
  });

  it('refuses a translation that drops or renames a placeholder or a tag', () => {
    const text = po([
      ['<0>Step {number} of {count}</0>', '<0>Paso {numero} de {count}</0>'],
      ['{count, plural, one {# plan} other {# plans}}', '{count, plural, one {# plan} other {# planes}}'],
      ['Read the <0>terms</0>', 'Lea los términos'],
    ]);
    const found = problems('es.po', text, 'es');
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('"<0>Step {number} of {count}</0>" must keep');
    expect(found[1]).toContain('"Read the <0>terms</0>" must keep </0> <0>');
  });

  it('reads placeholders and tags, plural arguments included', () => {
    expect(marks('{seconds, plural, one {# second} other {# seconds}} <0>left</0>')).toEqual(['</0>', '<0>', '{seconds']);
  });
});
