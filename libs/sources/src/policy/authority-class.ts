import { z } from 'zod';

/** How much a source speaks with authority of its own; shown beside each source in the report. */
export const AuthorityClassSchema = z.enum(['official', 'academic', 'documentation', 'news', 'forum', 'blog', 'unknown']);
export type AuthorityClass = z.infer<typeof AuthorityClassSchema>;
