import { describe, expect, it } from 'vitest';
import UriResolver from './uri-stub';

describe('the fast-uri stand-in', () => {
  it('resolves a reference against a base as RFC 3986 does', () => {
    expect(UriResolver.resolve('https://example.com/schemas/root.json', '#/definitions/a')).toBe('https://example.com/schemas/root.json#/definitions/a');
    expect(UriResolver.resolve('https://example.com/schemas/root.json', 'person.json')).toBe('https://example.com/schemas/person.json');
    expect(UriResolver.resolve('https://example.com/a/b/c', '../d')).toBe('https://example.com/a/d');
    expect(UriResolver.resolve(undefined, '#/definitions/a')).toBe('#/definitions/a');
  });

  it('compares normalized URIs', () => {
    expect(UriResolver.equal('HTTPS://Example.com:443/a/./b', 'https://example.com/a/b')).toBe(true);
    expect(UriResolver.equal('https://example.com/a', 'https://example.com/b')).toBe(false);
    expect(UriResolver.equal('#/definitions/a', '#/definitions/a')).toBe(true);
    expect(UriResolver.equal('#/definitions/a', '#/definitions/b')).toBe(false);
  });
});
