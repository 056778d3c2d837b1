import { describe, expect, it } from 'vitest';
import { facebookShareUrl, siteAddress } from './site-address';

describe('siteAddress', () => {
  it("swaps this host's agent subdomain for the agent's, keeping scheme and port", () => {
    expect(siteAddress({ protocol: 'http:', hostname: 'acme.localhost', port: '8080' }, 'acme', 'lakeshore')).toBe(
      'http://lakeshore.localhost:8080/',
    );
    expect(siteAddress({ protocol: 'https:', hostname: 'demo.example.com', port: '' }, 'demo', 'acme')).toBe(
      'https://acme.example.com/',
    );
  });

  it('adds the subdomain to a bare host', () => {
    expect(siteAddress({ protocol: 'http:', hostname: 'localhost', port: '8080' }, null, 'acme')).toBe(
      'http://acme.localhost:8080/',
    );
  });

  it('is case-insensitive about the host', () => {
    expect(siteAddress({ protocol: 'https:', hostname: 'ACME.Example.com', port: '' }, 'acme', 'Acme')).toBe(
      'https://acme.example.com/',
    );
  });
});

describe('facebookShareUrl', () => {
  it("opens Facebook's share dialog for the address", () => {
    expect(facebookShareUrl('http://acme.localhost:8080/')).toBe(
      'https://www.facebook.com/sharer/sharer.php?u=http%3A%2F%2Facme.localhost%3A8080%2F',
    );
  });
});
