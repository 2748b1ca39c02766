// A device as the list, the panel and the map show it: the dashboard's device list answer (typed
// from its route's schema) with the state GET /api/health names for it, which the page adds.
import type { Reply } from './api-types.js';
import type { Health } from './replies.js';

export type DeviceInfo = Reply<'/api/dashboard/devices'>[number] & { health?: Health | null };
