import { ArrowIcon, Button } from '@cmsgov/design-system';
import { pageItems } from '../utils/pagination';

// The lists' pages (spec part 2: "Pagination shows all page numbers when 5 or fewer, else first,
// current and last with ellipses"), with Previous and Next, in the markup of the CMS Design System's
// Pagination: a navigation named "Pagination", the current page marked aria-current="page", an
// ellipsis that takes no focus, Previous and Next disabled at the ends. Below 545 px the design
// system shows "Page 3 of 14" instead of the numbers; Previous and Next still reach every page.
// Pages are links to the list's address, so they open in a new tab too.

export interface PaginationProps {
  page: number;
  pages: number;
  /** The address of a page (the list's current view on that page). */
  hrefFor: (page: number) => string;
  onPage: (page: number) => void;
}

export function Pagination({ page, pages, hrefFor, onPage }: PaginationProps) {
  if (pages < 1) return null;
  /**
   * A plain click (or Enter, or Space: the design system's links answer it) stays in the app; a
   * click with a modifier or another button opens the link as the browser does.
   */
  const go = (n: number) => (e: React.MouseEvent | React.KeyboardEvent) => {
    if (('button' in e && e.button !== 0) || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onPage(n);
  };
  // Disabled, Previous and Next are links without an address (the design system's): no focus.
  const first = page <= 1;
  const last = page >= pages;
  return (
    <nav aria-label="Pagination" className="ds-c-pagination ef-pagination">
      <Button
        variation="ghost"
        className="ds-c-pagination__nav"
        href={hrefFor(Math.max(page - 1, 1))}
        onClick={go(page - 1)}
        disabled={first}
        aria-label="Previous page"
      >
        <span className="ds-c-pagination__nav--img-container ds-c-pagination__nav--img-container-previous">
          <ArrowIcon direction="left" className="ds-c-pagination__nav--image" />
        </span>
        Previous
      </Button>
      <span className="ds-c-pagination__page-count">
        Page <strong>{page}</strong> of <strong>{pages}</strong>
      </span>
      <div className="ds-c-pagination__pages">
        {pageItems(page, pages).map((item, i) =>
          item === 'ellipsis' ? (
            <span key={`ellipsis-${i}`} className="ds-c-pagination__overflow" aria-hidden="true">
              …
            </span>
          ) : item === page ? (
            <span key={item} className="ds-c-button ds-c-button--ghost ds-c-pagination__current-page" aria-current="page">
              {item}
            </span>
          ) : (
            <Button key={item} variation="ghost" href={hrefFor(item)} onClick={go(item)} aria-label={`Page ${item}`}>
              {item}
            </Button>
          ),
        )}
      </div>
      <Button
        variation="ghost"
        className="ds-c-pagination__nav"
        href={hrefFor(Math.min(page + 1, pages))}
        onClick={go(page + 1)}
        disabled={last}
        aria-label="Next page"
      >
        Next
        <span className="ds-c-pagination__nav--img-container ds-c-pagination__nav--img-container-next">
          <ArrowIcon direction="right" className="ds-c-pagination__nav--image" />
        </span>
      </Button>
    </nav>
  );
}
