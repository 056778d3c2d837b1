import { describe, expect, it } from 'vitest';
import { documentTitle } from './title';

describe('documentTitle', () => {
  it('joins the product name and the route title', () => {
    expect(documentTitle('Home')).toBe('Enrollflow | Home');
    expect(documentTitle('About You', 'Enrollflow')).toBe('Enrollflow | About You');
  });

  it('uses the product name from the server', () => {
    expect(documentTitle('Home', 'Acme Quotes')).toBe('Acme Quotes | Home');
  });

  it('falls back to the product name alone without a route title', () => {
    expect(documentTitle(undefined)).toBe('Enrollflow');
    expect(documentTitle('  ', '')).toBe('Enrollflow');
  });
});
