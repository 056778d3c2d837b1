import { pageItems } from '../utils/pagination';

// The lists' pages (spec part 2: "Pagination shows all page numbers when 5 or fewer, else first,
// current and last with ellipses"), with Previous and Next as in the CMS Design System's Pagination,
// so every page is reachable. Pages are links to the list's address: they open in a new tab too.

export interface PaginationProps {
  /** What the pages are of ("Quoting"): the navigation's name. */
  label: string;
  page: number;
  pages: number;
  /** The address of a page (the list's current view on that page). */
  hrefFor: (page: number) => string;
  onPage: (page: number) => void;
}

export function Pagination({ label, page, pages, hrefFor, onPage }: PaginationProps) {
  const items = pageItems(page, pages);
  if (pages <= 1) return null;
  const go = (n: number) => (e: React.MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onPage(n);
  };
  const step = (n: number, text: string, disabled: boolean) =>
    disabled ? (
      <span className="ef-pagination__step ef-pagination__step--disabled" aria-disabled="true">
        {text}
      </span>
    ) : (
      <a className="ef-pagination__step" href={hrefFor(n)} onClick={go(n)} aria-label={`${text} page, page ${n}`}>
        {text}
      </a>
    );
  return (
    <nav aria-label={`${label} pages`} className="ef-pagination">
      <ul className="ef-pagination__list">
        <li>{step(page - 1, 'Previous', page <= 1)}</li>
        {items.map((item, i) =>
          item === 'ellipsis' ? (
            <li key={`e${i}`} className="ef-pagination__ellipsis" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <a
                className={`ef-pagination__page${item === page ? ' ef-pagination__page--current' : ''}`}
                href={hrefFor(item)}
                onClick={go(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item} of ${pages}`}
              >
                {item}
              </a>
            </li>
          ),
        )}
        <li>{step(page + 1, 'Next', page >= pages)}</li>
      </ul>
    </nav>
  );
}
