// Wire types of "Save and finish later".

import type { components } from '@/types/openapi.gen';

/** POST /api/application/saveForLater: until when the e-mailed link works. */
export type SavedForLater = components['schemas']['SavedForLater'];

/** POST /api/application/resume: where to go on, and what changed since the application was saved. */
export type Rechecked = components['schemas']['Rechecked'];
