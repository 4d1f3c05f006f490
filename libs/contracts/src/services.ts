import { z } from 'zod';

/** One BullMQ queue per service; the job name inside a queue is the node name. A new service is a new app. */
export const SERVICE_NAMES = ['planner', 'searcher', 'extractor', 'claims', 'writer', 'verifier', 'renderer'] as const;
export const ServiceName = z.enum(SERVICE_NAMES);
export type ServiceName = z.infer<typeof ServiceName>;
