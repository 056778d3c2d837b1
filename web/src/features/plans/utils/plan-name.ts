// Plan names may hold simple HTML (`Choice Plus<sup>&reg;</sup>`). They are parsed in an inert
// document and kept to a tiny whitelist of inline tags; everything else becomes its text, and
// scripts and styles are dropped. Nothing is ever inserted as HTML.

import { remembered } from '@/lib/remembered';

export const NAME_TAGS = ['sup', 'sub', 'b', 'strong', 'i', 'em', 'small', 'br'] as const;
export type NameTag = (typeof NAME_TAGS)[number];

export type NameNode = string | { tag: NameTag; children: NameNode[] };

const ALLOWED = new Set<string>(NAME_TAGS);
const DROPPED = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'svg', 'math']);

function walk(node: Node): NameNode[] {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ? [node.textContent] : [];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const tag = (node as Element).localName;
  if (DROPPED.has(tag)) return [];
  const children = Array.from(node.childNodes).flatMap(walk);
  if (ALLOWED.has(tag)) return [{ tag: tag as NameTag, children: tag === 'br' ? [] : merge(children) }];
  return children;
}

/** Adjacent strings joined into one. */
function merge(nodes: NameNode[]): NameNode[] {
  const out: NameNode[] = [];
  for (const n of nodes) {
    const last = out[out.length - 1];
    if (typeof n === 'string' && typeof last === 'string') out[out.length - 1] = last + n;
    else out.push(n);
  }
  return out;
}

/**
 * A name parsed: a plan page draws up to 60 cards and names repeat from page to page, and a parse
 * is a document. The nodes are never changed once made; a few hundred names at most.
 */
const parsed = remembered(500, (html: string): readonly NameNode[] => {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  return merge(Array.from(doc.body.childNodes).flatMap(walk));
});

/** The name as whitelisted nodes. */
export function parsePlanName(html: string): readonly NameNode[] {
  if (!html.includes('<') && !html.includes('&')) return html ? [html] : [];
  return parsed(html);
}

/** The name as plain text (labels, titles, messages). */
export { plainText as planNameText } from '@/lib/plain-text';
