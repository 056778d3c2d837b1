import { describe, expect, it } from 'vitest';
// lodash's own modules, by their file names (vite.config.ts aliases the bare `lodash/get` only).
import lodashGet from 'lodash/get.js';
import lodashUniqueId from 'lodash/uniqueId.js';
import { get, uniqueId } from './lodash-stubs';

const object = {
  a: [{ b: { c: 3 } }, 4],
  'a.b': 'literal',
  x: { 'y.z': 1, '': { '': 2 }, 'q"r': 5 },
  translations: { alert: { close: 'Close' }, zero: 0, nothing: null },
  n: { '-0': 'minus zero', 0: 'zero' },
};

describe('the lodash stand-ins', () => {
  it('get answers what lodash/get answers', () => {
    const paths: unknown[] = [
      'a[0].b.c', 'a.0.b.c', ['a', '0', 'b', 'c'], 'a[1]', 'a.b', 'a["b"]', 'x["y.z"]', "x['y.z']", 'x..', 'x[""][""]',
      'x["q\\"r"]', 'translations.alert.close', 'translations.alert.missing', 'translations.zero', 'translations.nothing',
      'translations.nothing.deeper', 'missing', '', [], ['a', 5], 'n[-0]', ['n', -0], ['n', 0], 0, null, undefined, true,
    ];
    for (const path of paths) {
      expect(get(object, path), JSON.stringify(path)).toEqual(lodashGet(object, path as never));
      expect(get(object, path, 'default'), JSON.stringify(path)).toEqual(lodashGet(object, path as never, 'default'));
    }
    expect(get(null, 'a', 'd')).toBe(lodashGet(null, 'a', 'd'));
    expect(get(undefined, 'a')).toBe(lodashGet(undefined, 'a'));
    expect(get('text', 'length')).toBe(lodashGet('text', 'length'));
  });

  it('uniqueId counts up after its prefix', () => {
    const a = uniqueId('ds-');
    const b = uniqueId('ds-');
    expect(a).toMatch(/^ds-\d+$/);
    expect(Number(b.slice(3))).toBe(Number(a.slice(3)) + 1);
    expect(uniqueId()).toMatch(/^\d+$/);
    // As lodash's: a prefix and a number.
    expect(lodashUniqueId('ds-')).toMatch(/^ds-\d+$/);
  });
});
