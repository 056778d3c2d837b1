interface Here {
  protocol: string;
  hostname: string;
  port: string;
}

/**
 * The address of an agent's site (spec part 1, 2.5 Share modal: the agent's first subdomain).
 * The base domain is this page's host without its own agent subdomain (`hostSubdomain`), so
 * `acme.localhost:8080` gives `http://lakeshore.localhost:8080/` for `lakeshore`.
 */
export function siteAddress(here: Here, hostSubdomain: string | null, subdomain: string): string {
  const host = here.hostname.toLowerCase();
  const prefix = hostSubdomain ? `${hostSubdomain.toLowerCase()}.` : null;
  const base = prefix && host.startsWith(prefix) ? host.slice(prefix.length) : host;
  const port = here.port ? `:${here.port}` : '';
  return `${here.protocol}//${subdomain.toLowerCase()}.${base}${port}/`;
}

/** Facebook's share dialog for an address. */
export function facebookShareUrl(address: string): string {
  return `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(address)}`;
}
