import { useCallback, useEffect, useRef, useState } from 'react';
import { dismissMessage } from '../api/dismiss-message';
import type { AgentMessage } from '../types';
import { withMessageRestored, withoutMessage } from '../utils/messages';

export interface MessagesState {
  /** null while loading. */
  messages: AgentMessage[] | null;
  loadError: boolean;
  dismissError: boolean;
  /** Optimistic: the message leaves the list at once; a failure puts it back and sets dismissError. */
  dismiss: (message: AgentMessage) => Promise<void>;
}

/**
 * A list of messages from `load` (current or old messages) with the spec's dismiss: removed at
 * once, before the server answers (spec part 2, 4 Messages); `onDismissed` runs after the server
 * accepted it (the recent-notifications page reloads the old messages). `load` must be stable.
 */
export function useMessages(
  load: () => Promise<AgentMessage[]>,
  onDismissed?: () => void,
  /** A new value loads the list again. */
  reloadKey = 0,
): MessagesState {
  const [messages, setMessages] = useState<AgentMessage[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [dismissError, setDismissError] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    let active = true;
    load().then(
      (list) => {
        if (!active) return;
        setMessages(list);
        setLoadError(false);
      },
      () => {
        if (active) setLoadError(true);
      },
    );
    return () => {
      active = false;
    };
  }, [load, reloadKey]);

  const dismiss = useCallback(
    async (message: AgentMessage) => {
      // Where it was in the list as drawn (a failure puts it back there).
      const index = messages ? withoutMessage(messages, message.id).index : -1;
      setDismissError(false);
      setMessages((list) => (list ? withoutMessage(list, message.id).list : list));
      try {
        await dismissMessage(message.id);
        onDismissed?.();
      } catch {
        if (!mounted.current) return;
        setMessages((list) => (list ? withMessageRestored(list, message, index) : list));
        setDismissError(true);
      }
    },
    [messages, onDismissed],
  );

  return { messages, loadError, dismissError, dismiss };
}
