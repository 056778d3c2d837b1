/** Account routes: never a place to return to after logging in (that would open the login again). */
const ACCOUNT_PATHS = /^\/(login|register|reset-password)(\/|$)/;

const ORIGIN = 'http://same-site.invalid';

/**
 * Where to go after logging in: the `redirectFrom` query when it is a path on this site, else the
 * fallback (dashboard-home). Absolute and protocol-relative addresses (`https://evil.example`,
 * `//evil.example`, `/\evil.example`), other schemes and control characters are refused: the
 * login page is not an open redirect.
 */
export function safeRedirectPath(raw: string | null | undefined, fallback: string): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== ORIGIN || ACCOUNT_PATHS.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
