// Requests a page starts before it can draw (the plan list while the step's view is still on its
// way), taken by the first load that asks for the same thing within a few seconds: the plan page's
// calls then run side by side instead of one after another.

const FRESH_MS = 5000;

const early = new Map<string, { at: number; answer: Promise<unknown> }>();

/** Starts `fetcher` now for `key`, unless a fresh request for it is already on its way. */
export function startEarly<T>(key: string, fetcher: () => Promise<T>): void {
  const held = early.get(key);
  if (held && Date.now() - held.at < FRESH_MS) return;
  const answer = fetcher();
  // A failure is the taker's to report; an early request nobody takes fails quietly.
  answer.catch(() => undefined);
  early.set(key, { at: Date.now(), answer });
}

/** The answer of an early request for `key` still fresh (used once), else `fetcher`'s. */
export function takeEarly<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
  const held = early.get(key);
  early.delete(key);
  if (held && Date.now() - held.at < FRESH_MS) return held.answer as Promise<T>;
  return fetcher();
}

/** Forgets an early request for `key` that nobody took. */
export function dropEarly(key: string): void {
  early.delete(key);
}
