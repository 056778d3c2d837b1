import { describe, expect, it } from 'vitest';
import { landingState } from './landing-state';

const agent = { agent_name: 'Pat Agent' };

describe('landingState', () => {
  it('is supported when the agent offers a Blue Cross family carrier or Priority', () => {
    expect(landingState({ agent, supported: true }, null)).toBe('supported');
  });

  it('is unsupported when the agent offers neither carrier', () => {
    expect(landingState({ agent, supported: false }, null)).toBe('unsupported');
  });

  it('is unknown when no agent matches the subdomain (or the host has none)', () => {
    expect(landingState({ agent: null, supported: false }, null)).toBe('unknown');
    expect(landingState({ agent: null, supported: true }, null)).toBe('unknown');
  });

  it('is loading before the site arrives and error when it failed', () => {
    expect(landingState(null, null)).toBe('loading');
    expect(landingState(null, 'Failed to fetch agent branding')).toBe('error');
  });
});
