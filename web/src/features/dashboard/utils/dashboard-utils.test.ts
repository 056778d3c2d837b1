import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageItems } from './pagination';
import { formatDate, rowName } from './format';
import { paramsFromQuery, queryFromParams } from './list-url';
import { buildQuery } from './query';
import { initialSort, toggleSort } from './sort';

describe('rowName', () => {
  it('names a row by its full name, else first and last, else says it has no name yet (never blank)', () => {
    expect(rowName({ full_name: 'Ann Lee', first_name: 'x', last_name: 'y' })).toBe('Ann Lee');
    expect(rowName({ full_name: '', first_name: 'Ann', last_name: 'Lee' })).toBe('Ann Lee');
    expect(rowName({ full_name: ' ', first_name: '', last_name: '' })).toBe('No name yet');
  });
});

describe('pageItems', () => {
  it('lists every page up to 5', () => {
    expect(pageItems(1, 0)).toEqual([]);
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it('shows first, current and last with ellipses past 5', () => {
    expect(pageItems(1, 9)).toEqual([1, 'ellipsis', 9]);
    expect(pageItems(2, 9)).toEqual([1, 2, 'ellipsis', 9]);
    expect(pageItems(5, 9)).toEqual([1, 'ellipsis', 5, 'ellipsis', 9]);
    expect(pageItems(8, 9)).toEqual([1, 'ellipsis', 8, 9]);
    expect(pageItems(9, 9)).toEqual([1, 'ellipsis', 9]);
    expect(pageItems(42, 9)).toEqual([1, 'ellipsis', 9]);
  });
});

describe('sort toggle (spec part 2, section 4)', () => {
  it('submissions start by submission time, newest first', () => {
    expect(initialSort('enrollees')).toMatchObject({ col: 'submission_time', asc: false });
  });
  it('quotes start by name ascending', () => {
    expect(initialSort('quotes')).toMatchObject({ col: 'last_name', asc: true });
  });
  it('the active column toggles; another column applies its stored direction', () => {
    let s = initialSort('enrollees');
    s = toggleSort(s, 'last_name'); // name starts ascending
    expect([s.col, s.asc]).toEqual(['last_name', true]);
    s = toggleSort(s, 'last_name'); // toggles
    expect([s.col, s.asc]).toEqual(['last_name', false]);
    s = toggleSort(s, 'effective_date'); // dates start descending
    expect([s.col, s.asc]).toEqual(['effective_date', false]);
    s = toggleSort(s, 'last_name'); // back to name: its stored direction
    expect([s.col, s.asc]).toEqual(['last_name', false]);
    s = toggleSort(s, 'submission_time');
    expect([s.col, s.asc]).toEqual(['submission_time', false]);
    s = toggleSort(s, 'submission_time');
    expect([s.col, s.asc]).toEqual(['submission_time', true]);
  });
  it('quoting: clicking the active column toggles', () => {
    let s = initialSort('quotes');
    s = toggleSort(s, 'last_name');
    expect([s.col, s.asc]).toEqual(['last_name', false]);
    s = toggleSort(s, 'created_at');
    expect([s.col, s.asc]).toEqual(['created_at', false]);
  });
});

describe('buildQuery', () => {
  const q = {
    page: 2,
    sortCol: 'last_name' as const,
    sortOrderAsc: true,
    daysToShow: 180 as const,
    searchName: '  ann ',
    products: ['vision' as const, 'medical' as const],
  };
  it('sends the spec parameters, products repeated in a fixed order, search trimmed', () => {
    expect(buildQuery(q)).toBe(
      'page=2&resultsPerPage=12&sortCol=last_name&sortOrderAsc=true&daysToShow=180&searchName=ann&filterProduct=medical&filterProduct=vision',
    );
  });
  it('leaves out an empty search, and paging for exports', () => {
    expect(buildQuery({ ...q, searchName: ' ', products: [] }, false)).toBe('sortCol=last_name&sortOrderAsc=true&daysToShow=180');
  });
});

// Issue "The spec, to the letter", item 1: dates on screen are the agent's local time, America/Detroit
// (daylight saving included), whatever the browser's zone; spec part 2: "Dates display as
// month/day/year". A date without a time (an effective date) is shown as it is.
describe('Michigan time', () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'Asia/Tokyo'); // a browser far from Michigan: already the next day there
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  it('shows an instant just after midnight UTC on the previous Detroit day, in winter and in summer', () => {
    expect(formatDate('2024-11-15T00:30:00Z')).toBe('11/14/2024'); // EST, UTC-5: 7:30 pm on the 14th
    expect(formatDate('2024-07-01T03:30:00Z')).toBe('06/30/2024'); // EDT, UTC-4: 11:30 pm on the 30th
    expect(formatDate('2024-07-01T04:30:00.123456Z')).toBe('07/01/2024'); // 12:30 am in Detroit
  });
  it('shows a date without a time as it is', () => {
    expect(formatDate('2025-01-01')).toBe('01/01/2025');
    expect(formatDate(null)).toBe('');
  });
});

describe('the list address', () => {
  it('leaves the defaults out and reads back what it wrote', () => {
    const q = queryFromParams('enrollees', new URLSearchParams());
    expect(paramsFromQuery('enrollees', q).toString()).toBe('');
    const view = { ...q, page: 3, daysToShow: 365 as const, searchName: 'lee', products: ['vision' as const, 'medical' as const], sortCol: 'last_name' as const, sortOrderAsc: true };
    const written = paramsFromQuery('enrollees', view);
    expect(written.toString()).toBe('page=3&days=365&q=lee&product=medical&product=vision&sort=last_name&dir=asc');
    expect(queryFromParams('enrollees', written)).toMatchObject({ page: 3, daysToShow: 365, searchName: 'lee', products: ['medical', 'vision'], sortCol: 'last_name', sortOrderAsc: true });
    expect(queryFromParams('enrollees', new URLSearchParams('page=-2&days=7&sort=bogus'))).toMatchObject({ page: 1, daysToShow: 60, sortCol: 'submission_time' });
  });
});
