import { useEffect, useRef } from 'react';
import type { OutlineSubject } from '../../api/types';

export interface OutlineDraftSection {
  key: string;
  title: string;
  purpose: string;
  claimIds: string[];
}

let counter = 0;
export const outlineDraftOf = (o: OutlineSubject): OutlineDraftSection[] =>
  o.sections.map((s) => ({ key: `s${++counter}`, title: s.title, purpose: s.purpose, claimIds: [...s.claimIds] }));

export const outlineOf = (sections: OutlineDraftSection[]): OutlineSubject => ({
  sections: sections.map((s) => ({ title: s.title.trim(), purpose: s.purpose.trim(), claimIds: s.claimIds })),
});

export function outlineChanged(original: OutlineSubject, sections: OutlineDraftSection[]): boolean {
  const a = original.sections.map((s) => [s.title, s.purpose, s.claimIds]);
  const b = outlineOf(sections).sections.map((s) => [s.title, s.purpose, s.claimIds]);
  return JSON.stringify(a) !== JSON.stringify(b);
}

/** Reorder (move up/down), merge two neighbours, and retitle the outline's sections. */
export function OutlineEditor({
  sections,
  onChange,
  claims,
  readOnly,
}: {
  sections: OutlineDraftSection[];
  onChange: (s: OutlineDraftSection[]) => void;
  claims: Map<string, string>;
  readOnly: boolean;
}) {
  // Moving re-inserts the section's element and merging removes one: keep the focus on the section acted on (its same
  // button, or the other move button at an end; the merged section's title) instead of letting it fall to <body>.
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  }, [sections]);
  const move = (i: number, by: -1 | 1) => {
    const key = sections[i]!.key;
    const to = i + by;
    const atEnd = by === -1 ? to === 0 : to === sections.length - 1;
    focusAfter.current = `${key}-${(by === -1) !== atEnd ? 'up' : 'down'}`;
    const next = [...sections];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onChange(next);
  };
  const merge = (i: number) => {
    const a = sections[i]!;
    const b = sections[i + 1]!;
    const merged = {
      key: a.key,
      title: `${a.title} and ${b.title}`,
      purpose: [a.purpose, b.purpose].filter(Boolean).join(' '),
      claimIds: [...a.claimIds, ...b.claimIds],
    };
    focusAfter.current = `${a.key}-title`;
    onChange([...sections.slice(0, i), merged, ...sections.slice(i + 2)]);
  };
  const set = (key: string, patch: Partial<OutlineDraftSection>) => onChange(sections.map((s) => (s.key === key ? { ...s, ...patch } : s)));

  return (
    <section aria-labelledby="outline-title">
      <h2 id="outline-title">Outline ({sections.length} sections)</h2>
      <ol className="cards outline">
        {sections.map((s, i) => (
          <li key={s.key} className="card" data-section={s.title}>
            <fieldset disabled={readOnly}>
              <legend>Section {i + 1}</legend>
              <div className="field">
                <label htmlFor={`${s.key}-title`}>Title</label>
                <input
                  id={`${s.key}-title`}
                  value={s.title}
                  required
                  maxLength={400}
                  onChange={(e) => set(s.key, { title: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`${s.key}-purpose`}>Purpose</label>
                <textarea
                  id={`${s.key}-purpose`}
                  rows={2}
                  value={s.purpose}
                  maxLength={2000}
                  onChange={(e) => set(s.key, { purpose: e.target.value })}
                />
              </div>
              <details>
                <summary>{s.claimIds.length} claims</summary>
                <ul className="claim-list">
                  {s.claimIds.map((id) => (
                    <li key={id}>{claims.get(id) ?? id}</li>
                  ))}
                </ul>
              </details>
              {!readOnly && (
                <div className="row-actions">
                  <button
                    type="button"
                    id={`${s.key}-up`}
                    className="small"
                    onClick={() => move(i, -1)}
                    disabled={i === 0}
                    aria-label={`Move up section ${i + 1}`}
                  >
                    Move up
                  </button>
                  <button
                    type="button"
                    id={`${s.key}-down`}
                    className="small"
                    onClick={() => move(i, 1)}
                    disabled={i === sections.length - 1}
                    aria-label={`Move down section ${i + 1}`}
                  >
                    Move down
                  </button>
                  <button
                    type="button"
                    className="small"
                    onClick={() => merge(i)}
                    disabled={i === sections.length - 1}
                    aria-label={`Merge with next: section ${i + 1} and ${i + 2}`}
                  >
                    Merge with next
                  </button>
                </div>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
    </section>
  );
}
