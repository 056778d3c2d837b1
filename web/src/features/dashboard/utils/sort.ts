import type { ListKind, SortCol } from '../types';

/** The sort of a list and each column's stored direction (true = ascending). */
export interface SortState {
  col: SortCol;
  asc: boolean;
  stored: Partial<Record<SortCol, boolean>>;
}

/** The sortable columns of each list (spec part 2, section 4). */
export const SORT_COLUMNS: Record<ListKind, SortCol[]> = {
  quotes: ['last_name', 'created_at', 'effective_date'],
  enrollees: ['last_name', 'submission_time', 'effective_date'],
};

/** A column's first direction: names ascending, dates newest first. */
export function defaultAsc(col: SortCol): boolean {
  return col === 'last_name';
}

/** Quoting: by name ascending; Submissions: by submission time, newest first. */
export function initialSort(kind: ListKind): SortState {
  const col: SortCol = kind === 'quotes' ? 'last_name' : 'submission_time';
  const stored: SortState['stored'] = {};
  for (const c of SORT_COLUMNS[kind]) stored[c] = defaultAsc(c);
  return { col, asc: defaultAsc(col), stored };
}

/**
 * A click on a column header: the active column toggles its direction; another column applies its
 * stored direction (its own first direction if never used).
 */
export function toggleSort(state: SortState, col: SortCol): SortState {
  if (col === state.col) {
    const asc = !state.asc;
    return { col, asc, stored: { ...state.stored, [col]: asc } };
  }
  const asc = state.stored[col] ?? defaultAsc(col);
  return { col, asc, stored: { ...state.stored, [col]: asc } };
}
