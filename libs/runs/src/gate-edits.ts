import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { OutlineSubject, PlanPerspective, PlanQuestion, PlanSubject } from '@dossier/contracts';
import {
  claimIdsOfRun,
  deleteOutline,
  deletePerspectives,
  ExecutionRepository,
  insertOutline,
  insertPerspective,
  insertQuestion,
  ResearchRepository,
  setQuestionStatus,
  updatePerspective,
  updateQuestion,
  type Db,
  type PerspectiveRow,
  type QuestionRow,
  type RunRow,
} from '@dossier/db';
import { ValidationError } from '@dossier/errors';

/** What an edit changed in one list: whole items added and removed, and the fields of kept items before and after. */
export interface ListDiff<T> {
  added: T[];
  removed: (T & { id: string })[];
  changed: { id: string; before: Partial<T>; after: Partial<T> }[];
}

export interface PlanDiff {
  perspectives: ListDiff<Omit<PlanPerspective, 'id'>>;
  questions: ListDiff<Omit<PlanQuestion, 'id'>>;
}

export interface OutlineDiff {
  before: { title: string; claims: number }[];
  after: { title: string; claims: number }[];
}

const PERSPECTIVE_FIELDS = ['name', 'role', 'affiliation', 'focus'] as const;

function invalid(runId: string, issues: { path: string; message: string }[]): ValidationError {
  return new ValidationError(`Invalid edit: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, {
    runId,
    details: { part: 'body', issues },
  });
}

function fieldChanges<T extends object, K extends keyof T & string>(before: T, after: T, fields: readonly K[]) {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const f of fields) {
    if (before[f] !== after[f]) {
      b[f] = before[f];
      a[f] = after[f];
    }
  }
  return Object.keys(a).length > 0 ? { before: b, after: a } : undefined;
}

export function isEmptyDiff(diff: PlanDiff | OutlineDiff): boolean {
  if ('perspectives' in diff) {
    return [diff.perspectives, diff.questions].every((d) => d.added.length + d.removed.length + d.changed.length === 0);
  }
  return JSON.stringify(diff.before) === JSON.stringify(diff.after);
}

/**
 * Applies a reviewer's direct edits of the plan or the outline, inside the transaction that decides the
 * gate (the caller holds the run lock): the run then goes on with exactly the edited plan or outline. Ids
 * in the edit must name items of the plan under review; anything else is a 400 naming it.
 */
@Injectable()
export class GateEdits {
  constructor(
    private readonly research: ResearchRepository,
    private readonly executions: ExecutionRepository,
  ) {}

  /** The plan gate's subject: the analysts of this plan revision and the plan's questions. */
  async planSubject(tenantId: string, runId: string, revision: number, db?: Db): Promise<PlanSubject> {
    const [perspectives, questions] = await Promise.all([
      this.research.perspectives(tenantId, runId, revision, db),
      this.research.questions(tenantId, runId, db),
    ]);
    return { perspectives: perspectives.map(perspectiveView), questions: questions.map((q) => questionView(q, perspectives)) };
  }

  async outlineSubject(tenantId: string, runId: string, db?: Db): Promise<OutlineSubject> {
    return {
      sections: (await this.research.latestOutline(tenantId, runId, db)).map((s) => ({
        position: s.position,
        title: s.title,
        purpose: s.purpose,
        claimIds: s.claimIds as string[],
      })),
    };
  }

  async applyPlan(tx: Db, run: RunRow, revision: number, edited: PlanSubject): Promise<PlanDiff> {
    const { tenantId, id: runId } = run;
    const [perspectives, questions] = await Promise.all([
      this.research.perspectives(tenantId, runId, revision, tx),
      this.research.questions(tenantId, runId, tx),
    ]);
    const pById = new Map(perspectives.map((p) => [p.id, p]));
    const qById = new Map(questions.map((q) => [q.id, q]));
    const issues: { path: string; message: string }[] = [];
    edited.perspectives.forEach((p, i) => {
      if (p.id && !pById.has(p.id))
        issues.push({ path: `plan.perspectives.${i}.id`, message: `analyst ${p.id} is not in the plan under review` });
    });
    edited.questions.forEach((q, i) => {
      if (q.id && !qById.has(q.id))
        issues.push({ path: `plan.questions.${i}.id`, message: `question ${q.id} is not in the plan under review` });
    });
    if (issues.length > 0) throw invalid(runId, issues);

    const diff: PlanDiff = {
      perspectives: { added: [], removed: [], changed: [] },
      questions: { added: [], removed: [], changed: [] },
    };
    // Analysts: kept ones updated, missing ones deleted, new ones created with the panel's mean budget weight.
    const keptP = new Set(edited.perspectives.flatMap((p) => (p.id ? [p.id] : [])));
    const removedP = perspectives.filter((p) => !keptP.has(p.id));
    if (removedP.length > 0)
      await deletePerspectives(
        tx,
        tenantId,
        runId,
        removedP.map((p) => p.id),
      );
    diff.perspectives.removed = removedP.map((p) => ({ id: p.id, ...strip(perspectiveView(p)) }));
    const meanWeight = perspectives.length > 0 ? perspectives.reduce((s, p) => s + p.budgetWeight, 0) / perspectives.length : 1;
    const idByName = new Map<string, string>();
    for (const p of edited.perspectives) {
      const fields = { name: p.name, role: p.role, affiliation: p.affiliation, focus: p.focus };
      if (p.id) {
        const change = fieldChanges(strip(perspectiveView(pById.get(p.id)!)), fields, PERSPECTIVE_FIELDS);
        if (change) {
          await updatePerspective(tx, tenantId, runId, p.id, change.after);
          diff.perspectives.changed.push({ id: p.id, ...change });
        }
        idByName.set(p.name.toLowerCase(), p.id);
      } else {
        const id = randomUUID();
        await insertPerspective(tx, { id, tenantId, runId, revision, budgetWeight: Math.min(1, meanWeight), ...fields });
        diff.perspectives.added.push(fields);
        idByName.set(p.name.toLowerCase(), id);
      }
    }
    // Questions: a missing one is dropped (as a rejected plan drops its questions), kept ones updated, new ones open.
    const keptQ = new Set(edited.questions.flatMap((q) => (q.id ? [q.id] : [])));
    const removedQ = questions.filter((q) => !keptQ.has(q.id));
    if (removedQ.length > 0) {
      await setQuestionStatus(
        tx,
        tenantId,
        runId,
        removedQ.map((q) => q.id),
        'dropped',
      );
    }
    diff.questions.removed = removedQ.map((q) => ({ id: q.id, ...strip(questionView(q, perspectives)) }));
    for (const q of edited.questions) {
      const perspectiveId = q.perspective === null ? null : (idByName.get(q.perspective.toLowerCase()) ?? null);
      const fields = { text: q.text, priority: q.priority, perspective: q.perspective };
      if (q.id) {
        const before = qById.get(q.id)!;
        const change = fieldChanges({ text: before.text, priority: before.priority }, { text: q.text, priority: q.priority }, [
          'text',
          'priority',
        ]);
        // Compared by analyst id: renaming an analyst renames what its questions point at without moving them.
        const moved = before.perspectiveId !== perspectiveId;
        if (change || moved) {
          await updateQuestion(tx, tenantId, runId, q.id, { text: q.text, priority: q.priority, perspectiveId });
          diff.questions.changed.push({
            id: q.id,
            before: { ...change?.before, ...(moved ? { perspective: questionView(before, perspectives).perspective } : {}) },
            after: { ...change?.after, ...(moved ? { perspective: q.perspective } : {}) },
          });
        }
      } else {
        await insertQuestion(tx, { tenantId, runId, perspectiveId, iteration: 0, text: q.text, priority: q.priority, status: 'open' });
        diff.questions.added.push(fields);
      }
    }
    return diff;
  }

  /**
   * Replaces the outline under review with the edited one (same revision) and records its new section count
   * as the outline step's result: the draft and verify fan-outs are sized by it.
   */
  async applyOutline(tx: Db, run: RunRow, revision: number, edited: OutlineSubject): Promise<OutlineDiff> {
    const { tenantId, id: runId } = run;
    const current = await this.research.latestOutline(tenantId, runId, tx);
    const wanted = [...new Set(edited.sections.flatMap((s) => s.claimIds))];
    const known = await claimIdsOfRun(tx, tenantId, runId, wanted);
    const issues: { path: string; message: string }[] = [];
    edited.sections.forEach((s, i) =>
      s.claimIds.forEach((id, j) => {
        if (!known.has(id)) issues.push({ path: `outline.sections.${i}.claimIds.${j}`, message: `claim ${id} is not a claim of this run` });
      }),
    );
    if (issues.length > 0) throw invalid(runId, issues);
    await deleteOutline(tx, tenantId, runId, revision);
    await insertOutline(tx, tenantId, runId, revision, edited.sections);
    await this.executions.reviseResult(tx, tenantId, runId, 'outline', revision, { sections: edited.sections.length });
    return {
      before: current.map((s) => ({ title: s.title, claims: (s.claimIds as string[]).length })),
      after: edited.sections.map((s) => ({ title: s.title, claims: s.claimIds.length })),
    };
  }
}

function perspectiveView(p: PerspectiveRow): PlanPerspective & { id: string } {
  return { id: p.id, name: p.name, role: p.role, affiliation: p.affiliation, focus: p.focus };
}

function questionView(q: QuestionRow, perspectives: PerspectiveRow[]): PlanQuestion & { id: string } {
  return { id: q.id, text: q.text, priority: q.priority, perspective: perspectives.find((p) => p.id === q.perspectiveId)?.name ?? null };
}

function strip<T extends { id?: string }>(item: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = item;
  return rest;
}
