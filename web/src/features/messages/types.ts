// Wire types of Manage Agent Messages (docs/dashboard-api.md, admins).

import type { AgentMessageFields } from '@/types/api';

/** GET /api/admin/agentList */
export interface MessageAgent {
  id: string;
  npn: string;
  first_name: string;
  last_name: string;
  email: string;
}

/** GET /api/admin/messageList, PUT /api/admin/manageMessage. `content` is HTML. */
export interface AdminMessage extends AgentMessageFields {
  agents: string[];
}

/** PUT /api/admin/manageMessage: `id` absent creates. */
export interface SaveMessageBody {
  id?: string;
  title: string;
  publish_date: string;
  expiration_date: string | null;
  code: string | null;
  content: string;
  is_sticky: boolean;
  agents: string[];
}
