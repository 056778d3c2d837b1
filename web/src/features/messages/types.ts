// Wire types of Manage Agent Messages (docs/dashboard-api.md, admins).

import type { AgentMessageFields } from '@/types/api';
import type { components } from '@/types/openapi.gen';

type Schema<K extends keyof components['schemas']> = components['schemas'][K];

/** GET /api/admin/agentList */
export type MessageAgent = Schema<'AgentListItem'>;

/** GET /api/admin/messageList, PUT /api/admin/manageMessage. `content` is HTML. */
export type AdminMessage = AgentMessageFields;

/** PUT /api/admin/manageMessage: `id` absent creates. */
export type SaveMessageBody = Schema<'MessageForm'>;
