import type { AdminMessage, SaveMessageBody } from '../types';

/** The form's fields (dates as YYYY-MM-DD, the native date input's value). */
export interface MessageForm {
  id: string | null;
  title: string;
  publish_date: string;
  expiration_date: string;
  code: string;
  content: string;
  is_sticky: boolean;
  agents: string[];
}

/** Field keys of the server's `errors` map, in the form's order. */
export const MESSAGE_FIELDS = ['title', 'publish_date', 'expiration_date', 'code', 'content', 'sticky', 'agents'] as const;
export type MessageField = (typeof MESSAGE_FIELDS)[number];

export const EMPTY_FORM: MessageForm = {
  id: null,
  title: '',
  publish_date: '',
  expiration_date: '',
  code: '',
  content: '',
  is_sticky: false,
  agents: [],
};

/** Save is disabled when every field is empty (blank text counts as empty). */
export function isFormEmpty(form: MessageForm): boolean {
  return (
    !form.title.trim() &&
    !form.publish_date.trim() &&
    !form.expiration_date.trim() &&
    !form.code.trim() &&
    !form.content.trim() &&
    !form.is_sticky &&
    form.agents.length === 0
  );
}

/** The form with its text inputs trimmed. */
export function trimForm(form: MessageForm): MessageForm {
  return {
    ...form,
    title: form.title.trim(),
    publish_date: form.publish_date.trim(),
    expiration_date: form.expiration_date.trim(),
    code: form.code.trim(),
    content: form.content.trim(),
  };
}

/** The PUT body: trimmed text, empty optional fields as null, no id for a new message. */
export function toSaveBody(form: MessageForm): SaveMessageBody {
  const f = trimForm(form);
  return {
    ...(f.id ? { id: f.id } : {}),
    title: f.title,
    publish_date: f.publish_date,
    expiration_date: f.expiration_date || null,
    code: f.code || null,
    content: f.content,
    is_sticky: f.is_sticky,
    agents: [...f.agents],
  };
}

/** A listed message copied into the form. */
export function fromMessage(m: AdminMessage): MessageForm {
  return {
    id: m.id,
    title: m.title ?? '',
    publish_date: (m.publish_date ?? '').slice(0, 10),
    expiration_date: (m.expiration_date ?? '').slice(0, 10),
    code: m.code ?? '',
    content: m.content ?? '',
    is_sticky: Boolean(m.is_sticky),
    agents: [...(m.agents ?? [])],
  };
}

/** The first message of each known field; anything else (unknown keys) is returned apart. */
export function splitErrors(errors: Record<string, string[]> | null): {
  fields: Partial<Record<MessageField, string>>;
  other: string[];
} {
  const fields: Partial<Record<MessageField, string>> = {};
  const other: string[] = [];
  for (const [key, list] of Object.entries(errors ?? {})) {
    const text = (Array.isArray(list) ? list : [String(list)]).filter(Boolean).join(' ');
    if (!text) continue;
    const field = key === 'is_sticky' ? 'sticky' : key;
    if ((MESSAGE_FIELDS as readonly string[]).includes(field)) fields[field as MessageField] = text;
    else other.push(text);
  }
  return { fields, other };
}
