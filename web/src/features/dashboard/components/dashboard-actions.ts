import { createContext, useContext } from 'react';

/**
 * What the dashboard asks of the rest of the app (src/app provides it: a feature imports no other
 * feature): where Continue Quote goes, starting a new application, and resuming a listed one.
 */
export interface DashboardActions {
  /** The landing page's Continue Quote target (the application's last step), or null. */
  continuePath: string | null;
  /** Start Quote: drop the session's application and go to the first step. */
  startQuote: () => Promise<void>;
  /** After Enroll made a listed application the session's: load it, then go to `route`. */
  resume: (route: string) => Promise<void>;
}

const noop = async () => {};

export const DashboardActionsContext = createContext<DashboardActions>({
  continuePath: null,
  startQuote: noop,
  resume: noop,
});

export function useDashboardActions(): DashboardActions {
  return useContext(DashboardActionsContext);
}
