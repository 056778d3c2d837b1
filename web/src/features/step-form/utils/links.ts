// Links of the form files: under a field (`ui:options.link`) and in summary sections (`links:`).
//
//   { label: I want to select a dental plan instead, href_extra: dental_route }   a page of the app
//   { …, href_extra: dental_route, reopen: dental }   the page of a step that is opened again first
//                                                     (the flow's `reopen` rule) if it was skipped
//   { label: Find a doctor, href_extra: provider_directory.url }                  another site, new tab
//   { label: Terms of Use, document: /api/legal/terms }                           a server text in a dialog
//   { label: Return Home, action: home, href_extra: home_route }                  ends the application here
//                                                                                  (the site root by default)
//
// `href` is the address itself, `href_extra` names the extra holding it. An address starting with
// `/` is a page of the app; `http(s)://` opens in a new tab; anything else is not a link (no
// `javascript:`). A link whose address is missing is not shown. `label` may hold `{placeholders}`.

import { isRecord } from './paths';
import { fillTemplate, lookup } from './template';

export type LinkKind = 'route' | 'external' | 'document' | 'home';

export interface LinkView {
  label: string;
  kind: LinkKind;
  /** The route, the address, or the API path of the document. */
  href: string;
  /** A route link's step to open again before going (`reopen: dental`). */
  reopen?: string;
}

const isRoute = (href: string) => href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/api/');

export function resolveLink(spec: unknown, values: Record<string, unknown>): LinkView | null {
  if (!isRecord(spec)) return null;
  const label = typeof spec.label === 'string' ? fillTemplate(spec.label, values).trim() : '';
  if (label === '') return null;
  const raw = typeof spec.href === 'string' ? spec.href : typeof spec.href_extra === 'string' ? lookup(values, spec.href_extra) : undefined;
  if (spec.action === 'home') {
    return { label, kind: 'home', href: typeof raw === 'string' && isRoute(raw) ? raw : '/' };
  }
  if (typeof spec.document === 'string') {
    return spec.document.startsWith('/api/') ? { label, kind: 'document', href: spec.document } : null;
  }
  if (typeof raw !== 'string' || raw === '') return null;
  if (isRoute(raw)) {
    return typeof spec.reopen === 'string' && spec.reopen !== ''
      ? { label, kind: 'route', href: raw, reopen: spec.reopen }
      : { label, kind: 'route', href: raw };
  }
  if (/^https?:\/\//i.test(raw)) return { label, kind: 'external', href: raw };
  return null;
}
