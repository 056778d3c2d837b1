import { useEffect, useState } from 'react';
import { getList } from '../api/get-list';
import type { DashboardListPage, ListKind } from '../types';
import type { ListQuery } from '../utils/query';

/**
 * The page of a list the address names: fetched again whenever the query changes (the call in
 * flight is aborted), the last page kept shown until the next one is there.
 */
export function useListData(kind: ListKind, query: ListQuery): { data: DashboardListPage | null; error: boolean; reload: () => void } {
  const [data, setData] = useState<DashboardListPage | null>(null);
  const [error, setError] = useState(false);
  // Bumped to fetch the same page again (a row changed: a hand-off was sent).
  const [round, setRound] = useState(0);
  const queryKey = JSON.stringify(query);
  useEffect(() => {
    const controller = new AbortController();
    const q = JSON.parse(queryKey) as ListQuery;
    getList(kind, q, controller.signal)
      .then((res) => {
        setData(res);
        setError(false);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted || (e instanceof DOMException && e.name === 'AbortError')) return;
        setError(true);
      });
    return () => controller.abort();
  }, [kind, queryKey, round]);
  return { data, error, reload: () => setRound((n) => n + 1) };
}
