import type { AgentMessage } from '../types';

/** Takes a message out of the list (optimistic dismiss); `index` is where it was (-1 when absent). */
export function withoutMessage(list: AgentMessage[], id: string): { list: AgentMessage[]; index: number } {
  const index = list.findIndex((m) => m.id === id);
  if (index < 0) return { list, index };
  return { list: [...list.slice(0, index), ...list.slice(index + 1)], index };
}

/** Puts a message back where it was (a failed dismiss); a list that holds it again is left alone. */
export function withMessageRestored(list: AgentMessage[], message: AgentMessage, index: number): AgentMessage[] {
  if (list.some((m) => m.id === message.id)) return list;
  const at = index < 0 ? 0 : Math.min(index, list.length);
  return [...list.slice(0, at), message, ...list.slice(at)];
}
