// use-sync-external-store/shim/with-selector (React's, MIT licence, Copyright (c) Meta Platforms,
// Inc. and affiliates) as an ES module, for the unit tests only. The package ships CommonJS alone,
// whose `require("react")` Node answers with React itself, not with the Preact layer the app runs on
// (vite.config.ts aliases `react` for ES modules). The build bundles the package's own file.
// React's own algorithm, kept as React wrote it: it reads its ref and memo cache during render on
// purpose, which the React Compiler's rules (written for components) refuse.
/* eslint-disable react-hooks/refs, react-hooks/immutability */
import { useDebugValue, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';

export function useSyncExternalStoreWithSelector<Snapshot, Selection>(
  subscribe: (onStoreChange: () => void) => () => void,
  getSnapshot: () => Snapshot,
  getServerSnapshot: undefined | null | (() => Snapshot),
  selector: (snapshot: Snapshot) => Selection,
  isEqual?: (a: Selection, b: Selection) => boolean,
): Selection {
  const instRef = useRef<{ hasValue: boolean; value: Selection | null } | null>(null);
  if (instRef.current === null) instRef.current = { hasValue: false, value: null };
  const inst = instRef.current;
  const [getSelection, getServerSelection] = useMemo(() => {
    let hasMemo = false;
    let memoizedSnapshot: Snapshot;
    let memoizedSelection: Selection;
    const memoizedSelector = (nextSnapshot: Snapshot): Selection => {
      if (!hasMemo) {
        hasMemo = true;
        memoizedSnapshot = nextSnapshot;
        const nextSelection = selector(nextSnapshot);
        if (isEqual !== undefined && inst.hasValue) {
          const current = inst.value as Selection;
          if (isEqual(current, nextSelection)) return (memoizedSelection = current);
        }
        return (memoizedSelection = nextSelection);
      }
      const current = memoizedSelection;
      if (Object.is(memoizedSnapshot, nextSnapshot)) return current;
      const nextSelection = selector(nextSnapshot);
      if (isEqual !== undefined && isEqual(current, nextSelection)) {
        memoizedSnapshot = nextSnapshot;
        return current;
      }
      memoizedSnapshot = nextSnapshot;
      return (memoizedSelection = nextSelection);
    };
    const server = getServerSnapshot ?? null;
    return [() => memoizedSelector(getSnapshot()), server === null ? undefined : () => memoizedSelector(server())];
  }, [getSnapshot, getServerSnapshot, selector, isEqual, inst]);
  const value = useSyncExternalStore(subscribe, getSelection, getServerSelection);
  useEffect(() => {
    inst.hasValue = true;
    inst.value = value;
  }, [inst, value]);
  useDebugValue(value);
  return value;
}
