/** A pagination entry: a page number or an ellipsis. */
export type PageItem = number | 'ellipsis';

/**
 * The page links (spec part 2, section 2): every page when there are 5 or fewer, else the first,
 * the current and the last with ellipses where pages are left out. No pages, no links.
 */
export function pageItems(current: number, pages: number): PageItem[] {
  if (pages <= 0) return [];
  if (pages <= 5) return Array.from({ length: pages }, (_, i) => i + 1);
  const page = Math.min(Math.max(current, 1), pages);
  const shown = [...new Set([1, page, pages])].sort((a, b) => a - b);
  const items: PageItem[] = [];
  shown.forEach((n, i) => {
    const prev = shown[i - 1];
    if (prev !== undefined && n - prev > 1) items.push('ellipsis');
    items.push(n);
  });
  return items;
}
