import { useEffect, useState, type FormEvent } from 'react';
import { api, messageOf } from '../../api/client';
import type { Intervention, InterventionInput, RunView, SourceView } from '../../api/types';
import { Alert } from '../../ui/common';
import { TERMINAL } from './use-run';
import { wordsOf } from '../../ui/words';

/** How the form names each field of an intervention, for an error that refuses one. */
const FIELD_LABELS: Record<string, string> = {
  question: 'The question',
  domain: 'The domain',
  sourceId: 'The source',
  scope: 'The scope',
};

type Kind = InterventionInput['type'];
const KINDS: { value: Kind; label: string }[] = [
  { value: 'add_question', label: 'Add a question' },
  { value: 'exclude_domain', label: 'Exclude a domain' },
  { value: 'exclude_source', label: 'Exclude a source' },
  { value: 'narrow_scope', label: 'Narrow the scope' },
];

function describe(i: Intervention): string {
  const input = i.input;
  switch (input.type) {
    case 'add_question':
      return `Add question: “${input.question}”`;
    case 'exclude_domain':
      return `Exclude domain ${input.domain}`;
    case 'exclude_source':
      return `Exclude source ${input.sourceId.slice(0, 8)}`;
    case 'narrow_scope':
      return `Narrow scope: “${input.scope}”`;
  }
}

/**
 * Steering while research runs: queued through the API, applied by the run at its next loop boundary.
 * Offered only while the API would accept one (not once research has ended) and only to writers.
 */
export function InterventionsPanel({ run, canWrite, lastSeq }: { run: RunView; canWrite: boolean; lastSeq: number }) {
  const [items, setItems] = useState<Intervention[]>([]);
  const [kind, setKind] = useState<Kind>('add_question');
  const [text, setText] = useState('');
  const [sources, setSources] = useState<SourceView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const open = !TERMINAL.includes(run.status) && !run.stopReason;

  useEffect(() => {
    api<{ items: Intervention[] }>('GET', `/v1/runs/${run.id}/interventions`)
      .then((r) => setItems(r.items))
      .catch(() => undefined);
  }, [run.id, lastSeq]);

  useEffect(() => {
    if (kind !== 'exclude_source' || sources) return;
    api<{ items: SourceView[] }>('GET', `/v1/runs/${run.id}/sources`)
      .then((r) => setSources(r.items.filter((s) => s.selected)))
      .catch((err: unknown) => setError(messageOf(err)));
  }, [kind, sources, run.id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setNotice(null);
    const value = text.trim();
    const input: InterventionInput =
      kind === 'add_question'
        ? { type: kind, question: value }
        : kind === 'exclude_domain'
          ? { type: kind, domain: value }
          : kind === 'exclude_source'
            ? { type: kind, sourceId: value }
            : { type: kind, scope: value };
    try {
      const created = await api<Intervention>('POST', `/v1/runs/${run.id}/interventions`, input);
      setItems((all) => [...all.filter((x) => x.id !== created.id), created]);
      setText('');
      setNotice('Queued: it applies at the next research-loop boundary.');
    } catch (err) {
      setError(wordsOf(err, FIELD_LABELS));
    }
  };

  return (
    <section aria-labelledby="interventions-title" className="interventions">
      <h2 id="interventions-title">Interventions</h2>
      {canWrite && open && (
        <form onSubmit={(e) => void submit(e)}>
          <div className="field">
            <label htmlFor="intervention-kind">Steer the research</label>
            <select
              id="intervention-kind"
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as Kind);
                setText('');
              }}
            >
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            {kind === 'exclude_source' ? (
              <>
                <label htmlFor="intervention-value">Source</label>
                <select id="intervention-value" value={text} onChange={(e) => setText(e.target.value)} required>
                  <option value="">{sources?.length === 0 ? 'No source read yet' : 'Choose a source'}</option>
                  {sources?.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.title || s.url}
                    </option>
                  ))}
                </select>
              </>
            ) : (
              <>
                <label htmlFor="intervention-value">
                  {kind === 'add_question' ? 'Question' : kind === 'exclude_domain' ? 'Domain (e.g. example.com)' : 'Scope'}
                </label>
                <input id="intervention-value" value={text} onChange={(e) => setText(e.target.value)} required minLength={3} />
              </>
            )}
          </div>
          <button type="submit" disabled={text.trim() === ''}>
            Send intervention
          </button>
          {error && <Alert>{error}</Alert>}
          {notice && <Alert kind="success">{notice}</Alert>}
        </form>
      )}
      {canWrite && !open && <p className="muted">Research has ended: interventions no longer apply.</p>}
      {items.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="intervention-list">
          {items.map((i) => (
            <li key={i.id} data-intervention={i.input.type}>
              {describe(i)} <span className={`tag tag-${i.status}`}>{i.status}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
