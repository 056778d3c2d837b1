import { describe, expect, it } from 'vitest';
import { linkParts } from './link-text';

describe('linkParts', () => {
  it('turns http(s) addresses into links and keeps the rest as text', () => {
    const body = 'Open this link within 1 hour:\n\nhttp://acme.localhost:8080/reset-password/email/a@b.com/token/xyz\n\nThanks';
    expect(linkParts(body)).toEqual([
      { kind: 'text', text: 'Open this link within 1 hour:\n\n' },
      { kind: 'link', href: 'http://acme.localhost:8080/reset-password/email/a@b.com/token/xyz' },
      { kind: 'text', text: '\n\nThanks' },
    ]);
  });

  it('leaves a sentence-ending period out of the link', () => {
    expect(linkParts('See https://example.com/register/token/abc/.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', href: 'https://example.com/register/token/abc/' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('has no links in plain text and nothing for an empty body', () => {
    expect(linkParts('javascript:alert(1) ftp://x')).toEqual([{ kind: 'text', text: 'javascript:alert(1) ftp://x' }]);
    expect(linkParts('')).toEqual([]);
  });
});
