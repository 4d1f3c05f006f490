import { z } from 'zod';

/*
 * Building blocks shared by the role schemas. Ids are opaque strings chosen by the caller (uuids in the
 * pipeline, "E12" in prompts and tests); lengths follow the entity contracts so outputs can be stored.
 */
export const Id = z.string().min(1).max(200);
export const text = (max: number) => z.string().min(1).max(max);
export const Unit = z.number().min(0).max(1);
export const Priority = z.int().min(0).max(100);
export const Question = text(4000);
export const Feedback = z.string().max(4000).nullable();
export const Topic = text(300);
export const EvidenceRef = z.strictObject({ id: Id, excerpt: text(20_000) });
export const CitedSentence = z.strictObject({ text: text(4000), evidenceIds: z.array(Id).min(1) });

/** Refinement: the items of the list at `key` have distinct ids. */
export function distinctIds<K extends string>(key: K) {
  return (value: { [P in K]: readonly { id: string }[] }, ctx: z.RefinementCtx): void => {
    const seen = new Set<string>();
    value[key].forEach((item, i) => {
      if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [key, i, 'id'], message: `duplicate id ${item.id}` });
      seen.add(item.id);
    });
  };
}
