// Leaving the app for a fresh page load (`action: home`): every store starts afresh, so nothing of
// the finished application stays in the browser. A module of its own so tests can replace it.

export function leavePage(href: string): void {
  window.location.assign(href);
}
