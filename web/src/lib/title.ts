export const DEFAULT_PRODUCT_NAME = 'Enrollflow';

/** Browser tab title: product name, " | ", route title (spec part 1, 2.1). */
export function documentTitle(routeTitle: string | null | undefined, productName: string = DEFAULT_PRODUCT_NAME): string {
  const product = productName.trim() || DEFAULT_PRODUCT_NAME;
  const title = (routeTitle ?? '').trim();
  return title ? `${product} | ${title}` : product;
}
