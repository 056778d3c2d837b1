// Text without markup, for labels, titles, cells and PDFs' names: plan and carrier names may hold
// simple HTML (`Choice Plus<sup>&reg;</sup>`). The value is parsed in an inert document (no
// script runs, nothing loads); script-like elements are dropped, a line break becomes a space, and
// runs of white space become one.

const DROPPED = 'script, style, template, noscript, iframe, object, svg, math';

/** `UnitedHealthcare Choice Plus<sup>&reg;</sup>` -> `UnitedHealthcare Choice Plus®`. */
export function plainText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return html.replace(/\s+/g, ' ').trim();
  if (typeof DOMParser === 'undefined') return html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  doc.body.querySelectorAll(DROPPED).forEach((n) => n.remove());
  doc.body.querySelectorAll('br').forEach((n) => n.replaceWith(' '));
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
