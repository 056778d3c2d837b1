// The serving set's status the workbench's tests start from: a published set, no problems.
import type { RulesStatus } from '@/types/api';

export const servingStatus: RulesStatus = {
  checked_at: '2024-11-20T10:00:00Z',
  now: '2024-11-20T10:05:00Z',
  problems: [],
  serving_hash: 'e1e1e1e1e1e1e1e1',
  serving_set: 'a1a1a1a1a1a1a1a1',
  serving_since: '2024-11-20T10:00:00Z',
  source: 'database',
};
