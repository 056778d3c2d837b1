import { Playground } from '@/features/playground/components/playground';
import { useSiteStore } from '@/features/site/stores/site-store';

/**
 * Hidden test page (reachable from a Misc menu that is off by default). The router loads this
 * module on demand, so the form renderer stays out of the main bundle.
 */
export function PlaygroundPage() {
  const enabled = useSiteStore((s) => s.site?.playground ?? false);
  return <Playground enabled={enabled} />;
}
