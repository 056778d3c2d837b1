const SECTION_TITLES = {
  home: 'Dashboard',
  recentNotifications: 'Recent Notifications',
} as const;

/** Agent dashboard placeholder (spec part 2). */
export function DashboardPage({ section }: { section: keyof typeof SECTION_TITLES }) {
  return (
    <div className="ef-dashboard">
      <h1 className="ds-text-heading--2xl">{SECTION_TITLES[section]}</h1>
      <p>The dashboard is not available yet.</p>
    </div>
  );
}
