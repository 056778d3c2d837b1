/**
 * The route's template for analytics (`/reset-password/email/:email/token/:token`), made from the
 * matched path and its parameters, so no value a user typed or received (an e-mail address, a
 * token) leaves the browser in a page-view event.
 */
export function routeTemplate(pathname: string, params: Record<string, string | undefined>): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    if (value && name !== '*') names.set(value, name);
  }
  const segments = pathname.split('/').map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Not percent-encoded text: compare as it is.
    }
    const name = names.get(decoded);
    return name ? `:${name}` : segment;
  });
  const template = segments.join('/') || '/';
  return /^\/[A-Za-z0-9/_:.-]{0,120}$/.test(template) ? template : '/unknown';
}
