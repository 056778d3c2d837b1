import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { getCare, saveCare } from '../api/care';
import type { CareNeeds, CareSaved } from '../types';
import { careInput, sameUses } from '../utils/care';
import { useRemote } from './use-remote';

export interface Care {
  /** The list as the server last confirmed it (GET /api/care, then each PUT's answer); null until loaded. */
  saved: CareNeeds | null;
  /** What the panel shows: the change being saved, else the saved list. */
  shown: CareNeeds | null;
  /** A change is on its way to the server. */
  saving: boolean;
  /** The last change could not be saved: `shown` is the saved list again. */
  failed: boolean;
  /** Counts the saves that changed the uses (the plans' yearly estimates follow them). */
  usesRevision: number;
  /** Saves the whole list (PUT /api/care). A change made while one is saved is sent after it. */
  change: (next: CareNeeds) => void;
}

/**
 * The household's care list: each member's expected use of care, the doctors and the drugs.
 * Loaded while `enabled`; every change saves the whole list, one save at a time (the newest change
 * waiting goes next, the ones it replaced are never sent). A failed save drops what was waiting
 * and shows the last saved list again, with `failed`.
 */
export function useCare(enabled: boolean, onSaved: (saved: CareSaved) => void): Care {
  const loaded = useRemote(enabled ? 'care' : null, (signal) => getCare(signal));
  const [confirmed, setConfirmed] = useState<CareNeeds | null>(null);
  const [pending, setPending] = useState<CareNeeds | null>(null);
  const [failed, setFailed] = useState(false);
  const [usesRevision, setUsesRevision] = useState(0);
  const saved = confirmed ?? loaded.data;

  // The save loop's state, outside the render: the change waiting, whether a save is running,
  // and the list the server last confirmed (to tell whether a save changed the uses).
  const queue = useRef<{ waiting: CareNeeds | null; running: boolean; last: CareNeeds | null; alive: boolean }>({
    waiting: null,
    running: false,
    last: null,
    alive: true,
  });
  const savedLatest = useRef(onSaved);
  useLayoutEffect(() => {
    savedLatest.current = onSaved;
  });
  useEffect(() => {
    const q = queue.current;
    q.alive = true;
    return () => {
      q.alive = false;
    };
  }, []);

  async function run() {
    const q = queue.current;
    q.running = true;
    try {
      while (q.waiting) {
        const sending = q.waiting;
        q.waiting = null;
        const answer = await saveCare(careInput(sending));
        if (!q.alive) return;
        const changedUses = !q.last || !sameUses(q.last, answer.care);
        q.last = answer.care;
        setConfirmed(answer.care);
        if (changedUses) setUsesRevision((r) => r + 1);
        savedLatest.current(answer);
      }
      setPending(null);
    } catch {
      q.waiting = null;
      if (!q.alive) return;
      setPending(null);
      setFailed(true);
    } finally {
      q.running = false;
    }
  }

  function change(next: CareNeeds) {
    const q = queue.current;
    if (!q.running) q.last = saved;
    q.waiting = next;
    setPending(next);
    setFailed(false);
    if (!q.running) void run();
  }

  return { saved, shown: pending ?? saved, saving: pending !== null, failed, usesRevision, change };
}
