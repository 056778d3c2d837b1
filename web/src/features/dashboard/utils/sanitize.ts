import DOMPurify from 'dompurify';

/**
 * Message HTML for dangerouslySetInnerHTML: the server sanitizes on save and when serving; this is
 * the second line (no script, no event handlers, no `javascript:` links). Links that open a new
 * tab get rel="noopener noreferrer".
 */
export function sanitizeHtml(html: string): string {
  const clean = DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, ADD_ATTR: ['target'] });
  if (!clean.includes('target')) return clean;
  const doc = new DOMParser().parseFromString(`<body>${clean}</body>`, 'text/html');
  doc.querySelectorAll('a[target]').forEach((a) => {
    if (a.getAttribute('target') === '_blank') a.setAttribute('rel', 'noopener noreferrer');
    else a.removeAttribute('target');
  });
  return doc.body.innerHTML;
}
