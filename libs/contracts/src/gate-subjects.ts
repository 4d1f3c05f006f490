import { z } from 'zod';
import { safeText } from './safe-text';

/*
 * What a person reviews at the plan and outline gates, and what an approval may carry back edited: one
 * schema for both directions, so the plan the API shows is exactly the shape it accepts. Field limits are
 * those of the planner roles' output contracts (libs/agents: PlannedPerspective, PlannedQuestion,
 * PlannedSection), so an edited plan is as storable as a generated one.
 */

const line = (max: number) => safeText().trim().min(1).max(max);

/** An analyst of the panel. `id` names an analyst of the plan under review; an analyst the reviewer adds has none. */
export const PlanPerspective = z.strictObject({
  id: z.uuid().optional(),
  name: line(200),
  role: line(200),
  affiliation: safeText().trim().max(200),
  focus: line(2000),
});
export type PlanPerspective = z.infer<typeof PlanPerspective>;

/** A research question. `perspective` is the name of the analyst (in this plan) who asks it; null for the main question. */
export const PlanQuestion = z.strictObject({
  id: z.uuid().optional(),
  text: safeText().trim().min(3).max(2000),
  priority: z.int().min(0).max(100),
  perspective: line(200).nullable(),
});
export type PlanQuestion = z.infer<typeof PlanQuestion>;

const key = (s: string) => s.trim().toLowerCase();

/** The plan gate's subject: the panel of analysts and the question graph of the research plan. */
export const PlanSubject = z
  .strictObject({
    perspectives: z.array(PlanPerspective).min(1).max(12),
    // None in interviews mode: each analyst's questions come from its interview.
    questions: z.array(PlanQuestion).max(60),
  })
  .superRefine((plan, ctx) => {
    const names = new Set<string>();
    const ids = new Set<string>();
    plan.perspectives.forEach((p, i) => {
      if (names.has(key(p.name)))
        ctx.addIssue({ code: 'custom', path: ['perspectives', i, 'name'], message: `two analysts are named "${p.name}"` });
      names.add(key(p.name));
      if (p.id && ids.has(p.id))
        ctx.addIssue({ code: 'custom', path: ['perspectives', i, 'id'], message: `analyst ${p.id} is listed twice` });
      if (p.id) ids.add(p.id);
    });
    const texts = new Set<string>();
    plan.questions.forEach((q, i) => {
      if (q.perspective !== null && !names.has(key(q.perspective))) {
        ctx.addIssue({
          code: 'custom',
          path: ['questions', i, 'perspective'],
          message: `no analyst named "${q.perspective}" in this plan`,
        });
      }
      if (texts.has(key(q.text)))
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'text'], message: 'the same question is asked twice' });
      texts.add(key(q.text));
      if (q.id && ids.has(q.id))
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: `question ${q.id} is listed twice` });
      if (q.id) ids.add(q.id);
    });
  });
export type PlanSubject = z.infer<typeof PlanSubject>;

/** A report section of the outline with the claims it must use. The array order is the report's order. */
export const OutlineSubjectSection = z.strictObject({
  /** Shown for reading; when sent back it must equal the section's index (reordering is done by the order of the array). */
  position: z.int().min(0).max(6).optional(),
  title: line(400),
  purpose: safeText().trim().max(2000),
  claimIds: z.array(z.uuid()).max(200),
});

/** The outline gate's subject. Merging two sections is one section with both claim lists; no claim may be in two sections. */
export const OutlineSubject = z.strictObject({ sections: z.array(OutlineSubjectSection).min(1).max(7) }).superRefine((outline, ctx) => {
  const seen = new Set<string>();
  outline.sections.forEach((s, i) => {
    if (s.position !== undefined && s.position !== i) {
      ctx.addIssue({
        code: 'custom',
        path: ['sections', i, 'position'],
        message: `position ${s.position} is not the section's index ${i}`,
      });
    }
    s.claimIds.forEach((id, j) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['sections', i, 'claimIds', j], message: `claim ${id} is in two sections` });
      seen.add(id);
    });
  });
});
export type OutlineSubject = z.infer<typeof OutlineSubject>;
export type OutlineSubjectInput = z.input<typeof OutlineSubject>;

/** The publish gate's subject: the finished report in brief, and what verification checked, repaired and removed. */
export const PublishSubject = z.strictObject({
  introduction: z.array(z.string()),
  sections: z.array(z.strictObject({ title: z.string(), sentences: z.int().min(0), opening: z.string().nullable() })),
  disagreements: z.int().min(0),
  conclusion: z.array(z.string()),
  verification: z.strictObject({
    checked: z.int().min(0),
    failedByGuard: z.int().min(0),
    failedByJudge: z.int().min(0),
    repaired: z.int().min(0),
    removed: z.int().min(0),
    judgedByModel: z.int().min(0).optional(),
    judgedOffline: z.int().min(0).optional(),
    guardOnly: z.int().min(0).optional(),
    rounds: z.int().min(0),
  }),
});
export type PublishSubject = z.infer<typeof PublishSubject>;
