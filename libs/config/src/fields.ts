import { z } from 'zod';

/** A whole number of at least `min`, `def` when unset (shared by every group's schema; not exported from the library). */
export const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
export const url = (protocols: RegExp) =>
  z
    .string()
    .min(1)
    .refine((v) => {
      try {
        return protocols.test(new URL(v).protocol);
      } catch {
        return false;
      }
    }, 'must be a valid URL');
