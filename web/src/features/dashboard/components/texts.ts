/** Load and dismiss failures on the dashboard (spec part 2, 8). */
export const DASHBOARD_ERROR = 'An error occurred, please try again. If it continues, contact your agent.';
/** The home page's charts without data. */
export const NOTHING_YET = 'Nothing to show yet';
