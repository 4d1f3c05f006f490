import { useEffect, useRef } from 'react';
import type { PlanSubject } from '../../api/types';

/** The plan as the editor holds it: analysts and questions keyed locally, so a renamed analyst keeps its questions. */
export interface PlanDraft {
  perspectives: { key: string; id?: string; name: string; role: string; affiliation: string; focus: string }[];
  questions: { key: string; id?: string; text: string; priority: number; perspectiveKey: string | null }[];
}

let counter = 0;
const newKey = () => `k${++counter}`;

export function draftOf(plan: PlanSubject): PlanDraft {
  const perspectives = plan.perspectives.map((p) => ({ key: newKey(), ...p }));
  const byName = new Map(perspectives.map((p) => [p.name.toLowerCase(), p.key]));
  return {
    perspectives,
    questions: plan.questions.map((q) => ({
      key: newKey(),
      ...(q.id ? { id: q.id } : {}),
      text: q.text,
      priority: q.priority,
      perspectiveKey: q.perspective === null ? null : (byName.get(q.perspective.toLowerCase()) ?? null),
    })),
  };
}

/** The draft in the API's contract (PlanSubject): questions name their analyst. */
export function planOf(draft: PlanDraft): PlanSubject {
  const nameOf = new Map(draft.perspectives.map((p) => [p.key, p.name.trim()]));
  return {
    perspectives: draft.perspectives.map(({ key: _k, id, ...p }) => ({
      ...(id ? { id } : {}),
      name: p.name.trim(),
      role: p.role.trim(),
      affiliation: p.affiliation.trim(),
      focus: p.focus.trim(),
    })),
    questions: draft.questions.map(({ id, text, priority, perspectiveKey }) => ({
      ...(id ? { id } : {}),
      text: text.trim(),
      priority,
      perspective: perspectiveKey === null ? null : (nameOf.get(perspectiveKey) ?? null),
    })),
  };
}

/** What changed, in words (shown next to the approve button). */
export function changesOf(original: PlanSubject, draft: PlanDraft): string[] {
  const edited = planOf(draft);
  const out: string[] = [];
  const keptP = new Set(edited.perspectives.flatMap((p) => (p.id ? [p.id] : [])));
  for (const p of original.perspectives) if (!keptP.has(p.id!)) out.push(`remove analyst ${p.name}`);
  for (const p of edited.perspectives) {
    if (!p.id) out.push(`add analyst ${p.name || '(unnamed)'}`);
    else {
      const before = original.perspectives.find((o) => o.id === p.id)!;
      if (before.name !== p.name) out.push(`rename ${before.name} to ${p.name}`);
      else if (before.role !== p.role || before.affiliation !== p.affiliation || before.focus !== p.focus)
        out.push(`edit analyst ${p.name}`);
    }
  }
  const keptQ = new Set(edited.questions.flatMap((q) => (q.id ? [q.id] : [])));
  for (const q of original.questions) if (!keptQ.has(q.id!)) out.push(`drop question “${q.text}”`);
  for (const q of edited.questions) {
    if (!q.id) out.push(`add question “${q.text || '(empty)'}”`);
    else {
      const before = original.questions.find((o) => o.id === q.id)!;
      if (before.text !== q.text || before.priority !== q.priority) out.push(`edit question “${q.text}”`);
    }
  }
  return out;
}

/** After a remove, the control that takes the focus: the next (or else previous) item's remove button, or the add button. */
function focusTarget<T extends { key: string }>(items: T[], removedAt: number, idOf: (key: string) => string, fallback: string): string {
  const rest = items.filter((_, i) => i !== removedAt);
  const next = rest[removedAt] ?? rest[removedAt - 1];
  // A last remaining item's remove button is disabled (a plan keeps one of each): focus goes to the add button then.
  return next && rest.length > 1 ? idOf(next.key) : fallback;
}

export function PlanEditor({ draft, onChange, readOnly }: { draft: PlanDraft; onChange: (d: PlanDraft) => void; readOnly: boolean }) {
  // The button that had the focus is gone after Drop or Remove: without this the focus falls to <body> and a keyboard
  // or screen-reader user starts over at the top of the page.
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  }, [draft]);
  const setP = (key: string, patch: Partial<PlanDraft['perspectives'][number]>) =>
    onChange({ ...draft, perspectives: draft.perspectives.map((p) => (p.key === key ? { ...p, ...patch } : p)) });
  const setQ = (key: string, patch: Partial<PlanDraft['questions'][number]>) =>
    onChange({ ...draft, questions: draft.questions.map((q) => (q.key === key ? { ...q, ...patch } : q)) });
  const removeP = (key: string) => {
    const at = draft.perspectives.findIndex((p) => p.key === key);
    focusAfter.current = focusTarget(draft.perspectives, at, (k) => `${k}-remove`, 'add-analyst');
    onChange({
      // Its questions stay, asked by nobody in particular, unless the reviewer drops them too.
      perspectives: draft.perspectives.filter((p) => p.key !== key),
      questions: draft.questions.map((q) => (q.perspectiveKey === key ? { ...q, perspectiveKey: null } : q)),
    });
  };
  const dropQ = (key: string) => {
    const at = draft.questions.findIndex((q) => q.key === key);
    focusAfter.current = focusTarget(draft.questions, at, (k) => `${k}-drop`, 'add-question');
    onChange({ ...draft, questions: draft.questions.filter((x) => x.key !== key) });
  };
  const addP = () =>
    onChange({ ...draft, perspectives: [...draft.perspectives, { key: newKey(), name: '', role: '', affiliation: '', focus: '' }] });
  const addQ = () =>
    onChange({
      ...draft,
      questions: [...draft.questions, { key: newKey(), text: '', priority: 50, perspectiveKey: draft.perspectives[0]?.key ?? null }],
    });

  return (
    <div className="plan-editor">
      <section aria-labelledby="analysts-title">
        <h2 id="analysts-title">Analysts ({draft.perspectives.length})</h2>
        <ol className="cards">
          {draft.perspectives.map((p, i) => (
            <li key={p.key} className="card" data-analyst={p.name}>
              <fieldset disabled={readOnly}>
                <legend>Analyst {i + 1}</legend>
                <div className="field">
                  <label htmlFor={`${p.key}-name`}>Name</label>
                  <input
                    id={`${p.key}-name`}
                    value={p.name}
                    required
                    maxLength={200}
                    onChange={(e) => setP(p.key, { name: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${p.key}-role`}>Role</label>
                  <input
                    id={`${p.key}-role`}
                    value={p.role}
                    required
                    maxLength={200}
                    onChange={(e) => setP(p.key, { role: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${p.key}-aff`}>Affiliation</label>
                  <input
                    id={`${p.key}-aff`}
                    value={p.affiliation}
                    maxLength={200}
                    onChange={(e) => setP(p.key, { affiliation: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${p.key}-focus`}>Focus</label>
                  <textarea
                    id={`${p.key}-focus`}
                    rows={3}
                    value={p.focus}
                    required
                    maxLength={2000}
                    onChange={(e) => setP(p.key, { focus: e.target.value })}
                  />
                </div>
                {!readOnly && (
                  <button
                    type="button"
                    id={`${p.key}-remove`}
                    className="danger small"
                    onClick={() => removeP(p.key)}
                    disabled={draft.perspectives.length <= 1}
                  >
                    Remove analyst {p.name}
                  </button>
                )}
              </fieldset>
            </li>
          ))}
        </ol>
        {!readOnly && (
          <button type="button" id="add-analyst" onClick={addP} disabled={draft.perspectives.length >= 12}>
            Add analyst
          </button>
        )}
      </section>

      <section aria-labelledby="questions-title">
        <h2 id="questions-title">Research questions ({draft.questions.length})</h2>
        <table className="questions-table stack">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Priority</th>
              <th scope="col">Asked by</th>
              {!readOnly && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {draft.questions.map((q, i) => (
              <tr key={q.key} data-question={q.text}>
                <td>
                  <label className="visually-hidden" htmlFor={`${q.key}-text`}>
                    Question {i + 1}
                  </label>
                  <textarea
                    id={`${q.key}-text`}
                    rows={2}
                    value={q.text}
                    readOnly={readOnly}
                    required
                    minLength={3}
                    maxLength={2000}
                    onChange={(e) => setQ(q.key, { text: e.target.value })}
                  />
                </td>
                <td data-label="Priority">
                  <label className="visually-hidden" htmlFor={`${q.key}-prio`}>
                    Priority of question {i + 1}
                  </label>
                  <input
                    id={`${q.key}-prio`}
                    type="number"
                    min={0}
                    max={100}
                    value={q.priority}
                    readOnly={readOnly}
                    onChange={(e) => setQ(q.key, { priority: Math.max(0, Math.min(100, Math.round(Number(e.target.value) || 0))) })}
                  />
                </td>
                <td data-label="Asked by">
                  <label className="visually-hidden" htmlFor={`${q.key}-by`}>
                    Analyst asking question {i + 1}
                  </label>
                  <select
                    id={`${q.key}-by`}
                    value={q.perspectiveKey ?? ''}
                    disabled={readOnly}
                    onChange={(e) => setQ(q.key, { perspectiveKey: e.target.value || null })}
                  >
                    <option value="">No analyst (main)</option>
                    {draft.perspectives.map((p) => (
                      <option key={p.key} value={p.key}>
                        {p.name || '(unnamed analyst)'}
                      </option>
                    ))}
                  </select>
                </td>
                {!readOnly && (
                  <td>
                    <button
                      type="button"
                      id={`${q.key}-drop`}
                      className="danger small"
                      aria-label={`Drop question ${i + 1}: ${q.text}`}
                      onClick={() => dropQ(q.key)}
                      disabled={draft.questions.length <= 1}
                    >
                      Drop
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {!readOnly && (
          <button type="button" id="add-question" onClick={addQ}>
            Add question
          </button>
        )}
      </section>
    </div>
  );
}
