/**
 * `compute`, remembering each answer by its argument: for pure work a page repeats many times
 * over a few values (formatting a figure, parsing a plan name). At most `limit` answers are kept;
 * past that they are all forgotten and remembering starts again.
 */
export function remembered<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    if (known.has(key)) return known.get(key) as V;
    const value = compute(key);
    if (known.size >= limit) known.clear();
    known.set(key, value);
    return value;
  };
}
