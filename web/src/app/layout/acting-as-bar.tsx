import { Trans, useLingui } from '@lingui/react';
import { Button } from '@cmsgov/design-system';
import type { AuthState } from '@/types/api';
import { useSwitchBack } from '../use-switch-back';

export const ACTING_AS = /*i18n*/ { id: 'You are acting as {name}.' };

/**
 * While an admin acts as an agent, every page says so first, with the way back: what is done here
 * is done as the agent, and the audit log records it as the admin's.
 */
export function ActingAsBar({ auth }: { auth: AuthState | null }) {
  const { i18n } = useLingui();
  const switchBack = useSwitchBack();
  if (!auth?.impersonating) return null;
  return (
    <div className="ef-acting-as" role="region" aria-label={i18n._('Acting as an agent')}>
      <div className="ds-l-container ef-acting-as__inner">
        <p className="ef-acting-as__text">{i18n._(ACTING_AS.id, { name: auth.user_name ?? i18n._('an agent') })}</p>
        <Button size="small" variation="solid" onClick={switchBack}>
          <Trans id="Return to admin" />
        </Button>
      </div>
    </div>
  );
}
