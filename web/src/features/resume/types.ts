// Wire types of "Save and finish later".

import type { components } from '@/types/openapi.gen';

/** GET /api/application/saveForLater: the address the link would go to. */
export type SaveForLaterAddress = components['schemas']['SaveForLaterAddress'];

/** POST /api/application/saveForLater: where the link went and until when it works. */
export type SavedForLater = components['schemas']['SavedForLater'];

/** POST /api/application/resume: where to go on, and what changed since the application was saved. */
export type Rechecked = components['schemas']['Rechecked'];
