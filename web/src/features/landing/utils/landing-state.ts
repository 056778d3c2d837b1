export type LandingState = 'loading' | 'error' | 'unknown' | 'unsupported' | 'supported';

interface LandingSite {
  agent: unknown;
  supported: boolean;
}

/**
 * Which landing page to show (spec part 1, 2.4): no agent behind the subdomain (or a bare host),
 * an agent offering neither a Blue Cross family carrier nor Priority, or a supported agent.
 */
export function landingState(site: LandingSite | null, error: string | null): LandingState {
  if (!site) return error ? 'error' : 'loading';
  if (!site.agent) return 'unknown';
  return site.supported ? 'supported' : 'unsupported';
}
