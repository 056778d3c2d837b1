import { describe, expect, it } from 'vitest';
import { resolveLink } from './links';

describe('resolveLink', () => {
  const extras = {
    dental_route: '/dental',
    provider_directory: { title: 'Find a doctor', url: 'https://www.bcn.example.com/find-a-doctor' },
    bad: 'javascript:alert(1)',
  };

  it('tells app pages, other sites, server texts and Return Home apart', () => {
    expect(resolveLink({ label: 'I want to select a dental plan instead', href_extra: 'dental_route' }, extras)).toEqual({
      label: 'I want to select a dental plan instead',
      kind: 'route',
      href: '/dental',
    });
    expect(resolveLink({ label: '{provider_directory.title}', href_extra: 'provider_directory.url' }, extras)).toEqual({
      label: 'Find a doctor',
      kind: 'external',
      href: 'https://www.bcn.example.com/find-a-doctor',
    });
    expect(resolveLink({ label: 'Terms of Use', document: '/api/legal/terms' }, extras)).toMatchObject({ kind: 'document', href: '/api/legal/terms' });
    expect(resolveLink({ label: 'Return Home', action: 'home' }, extras)).toEqual({ label: 'Return Home', kind: 'home', href: '/' });
    expect(resolveLink({ label: 'Return Home', action: 'home', href_extra: 'home_route' }, { home_route: '/dashboard' })).toMatchObject({ href: '/dashboard' });
    expect(resolveLink({ label: 'Return Home', action: 'home', href: 'https://evil.example.com' }, {})).toMatchObject({ href: '/' });
  });

  it('is no link without a label or an address, or with an address of another kind', () => {
    expect(resolveLink({ label: 'Dental', href_extra: 'missing' }, extras)).toBeNull();
    expect(resolveLink({ href: '/dental' }, extras)).toBeNull();
    expect(resolveLink({ label: 'x', href_extra: 'bad' }, extras)).toBeNull();
    expect(resolveLink({ label: 'x', href: '//evil.example.com' }, extras)).toBeNull();
    expect(resolveLink({ label: 'x', document: 'https://evil.example.com/doc' }, extras)).toBeNull();
    expect(resolveLink({ label: '{provider_directory.title}', href_extra: 'provider_directory.url' }, {})).toBeNull();
  });
});
