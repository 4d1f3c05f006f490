import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, messageOf } from '../../api/client';
import type { CapabilitiesView, CollectionView, MeView, RunOptionsInput, RunView } from '../../api/types';
import { useSession } from '../../auth';
import { navigate, paths } from '../../router';
import { Alert, Loading, PageTitle } from '../../ui/common';
import { formatInt } from '../../ui/format';
import { DocumentUpload } from './document-upload';
import { RUN_SETTINGS, type NumberSetting } from './run-settings';

const GATES = [
  { gate: 'plan', label: 'Plan', help: 'review the analysts and questions before research starts' },
  { gate: 'outline', label: 'Outline', help: 'review the report outline before writing' },
  { gate: 'publish', label: 'Publish', help: 'review before the report is rendered' },
] as const;
const PROVIDER_LABEL: Record<string, string> = {
  corpus: 'Private collection',
  searxng: 'Web: SearXNG',
  tavily: 'Web: Tavily',
  brave: 'Web: Brave',
};

const ENGINE_NAME: Record<string, string> = { offline: 'Offline engine', openai: 'OpenAI-compatible model' };

/**
 * The caller as the form sees it: the engines and providers its tenant may use *and* this deployment is configured
 * for (GET /v1/capabilities), with what is left out and why, so nothing offered fails the run at its first step.
 */
function offerOf(me: MeView, caps: CapabilitiesView): { me: MeView; missing: string[] } {
  const ready = (list: CapabilitiesView['engines'] | CapabilitiesView['searchProviders'], name: string) =>
    list.find((c) => c.name === name)?.available ?? false;
  const missing = [
    ...caps.engines
      .filter((c) => !c.available && me.policy.engines.includes(c.name))
      .map((c) => `${ENGINE_NAME[c.name] ?? c.name}: ${c.reason}`),
    ...caps.searchProviders
      .filter((c) => !c.available && me.policy.searchProviders.includes(c.name))
      .map((c) => `${PROVIDER_LABEL[c.name] ?? c.name}: ${c.reason}`),
  ];
  return {
    me: {
      ...me,
      policy: {
        ...me.policy,
        engines: me.policy.engines.filter((e) => ready(caps.engines, e)),
        searchProviders: me.policy.searchProviders.filter((p) => ready(caps.searchProviders, p)),
      },
    },
    missing,
  };
}

export function NewRunScreen() {
  const session = useSession();
  const [caps, setCaps] = useState<CapabilitiesView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<CapabilitiesView>('GET', '/v1/capabilities')
      .then(setCaps)
      .catch((err: unknown) => setError(messageOf(err)));
  }, []);
  if (error) {
    return (
      <>
        <PageTitle title="New run">New research run</PageTitle>
        <Alert>{error}</Alert>
      </>
    );
  }
  if (!caps) return <Loading what="what this server can run" />;
  const offer = offerOf(session.me, caps);
  if (offer.me.policy.engines.length === 0 || offer.me.policy.searchProviders.length === 0) {
    return (
      <>
        <PageTitle title="New run">New research run</PageTitle>
        <Alert>
          Nothing your tenant may use is configured on this server, so a run could not start. Ask an operator to configure:
          <ul>
            {offer.missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </Alert>
      </>
    );
  }
  return <NewRunForm me={offer.me} missing={offer.missing} />;
}

function NewRunForm({ me, missing }: { me: MeView; missing: string[] }) {
  const [question, setQuestion] = useState('');
  const [providers, setProviders] = useState<string[]>(() => {
    const allowed = me.defaults.searchProviders.filter((p) => me.policy.searchProviders.includes(p));
    return allowed.length > 0 ? allowed : [me.policy.searchProviders[0]!];
  });
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(RUN_SETTINGS.map((s) => [s.key, String(s.initial(me))])),
  );
  const [gates, setGates] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(GATES.map(({ gate }) => [gate, me.policy.requiredGates.includes(gate)])),
  );
  const [collections, setCollections] = useState<CollectionView[] | null>(null);
  const [collection, setCollection] = useState('');
  const [newCollection, setNewCollection] = useState('');
  const [error, setError] = useState<{ message: string; issues: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per form: a double submit (or a retry after a dropped answer) starts one run, not two.
  const idempotencyKey = useRef(crypto.randomUUID());

  const loadCollections = () =>
    api<{ items: CollectionView[] }>('GET', '/v1/collections')
      .then((r) => setCollections(r.items))
      .catch((err: unknown) => setError({ message: messageOf(err), issues: [] }));
  useEffect(() => {
    void loadCollections();
  }, []);
  useEffect(() => {
    if (!collection && collections && collections.length > 0) setCollection(collections[0]!.name);
  }, [collections, collection]);

  const usesCorpus = providers.includes('corpus');
  const selected = useMemo(() => collections?.find((c) => c.name === collection), [collections, collection]);

  const createCollection = async () => {
    setError(null);
    try {
      const created = await api<CollectionView>('POST', '/v1/collections', { name: newCollection.trim() });
      await loadCollections();
      setCollection(created.name);
      setNewCollection('');
    } catch (err) {
      setError({ message: messageOf(err), issues: err instanceof ApiError ? err.issues : [] });
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const options: Record<string, unknown> & { budgets: Record<string, number> } = {
      searchProviders: providers,
      gates: Object.fromEntries(GATES.map(({ gate }) => [gate, gates[gate] ? 'required' : 'auto'])),
      budgets: {},
    };
    if (usesCorpus) options['collection'] = collection;
    for (const s of RUN_SETTINGS) {
      const raw = values[s.key] ?? '';
      if (s.kind === 'select') options[s.key] = raw;
      else if (raw !== '') {
        const n = s.toRequest ? s.toRequest(Number(raw)) : Number(raw);
        if (s.path[0] === 'budgets') options.budgets[s.path[1]!] = n;
        else options[s.path[0]] = n;
      }
    }
    setBusy(true);
    try {
      const run = await api<RunView>(
        'POST',
        '/v1/runs',
        { question, options: options as RunOptionsInput },
        {
          headers: { 'idempotency-key': idempotencyKey.current },
        },
      );
      navigate(paths.run(run.id));
    } catch (err) {
      setError({ message: messageOf(err), issues: err instanceof ApiError ? err.issues : [] });
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="New run">New research run</PageTitle>
      <form className="new-run" onSubmit={(e) => void submit(e)} noValidate={false}>
        <div className="field">
          <label htmlFor="question">Research question</label>
          <textarea
            id="question"
            name="question"
            rows={3}
            maxLength={4000}
            required
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            placeholder="What caused … and how large was it?"
          />
        </div>

        <fieldset>
          <legend>Where to search</legend>
          <div className="checks">
            {me.policy.searchProviders.map((p) => (
              <label key={p} className="check">
                <input
                  type="checkbox"
                  name="provider"
                  value={p}
                  checked={providers.includes(p)}
                  onChange={(e) => setProviders((all) => (e.target.checked ? [...all, p] : all.filter((x) => x !== p)))}
                />
                {PROVIDER_LABEL[p] ?? p}
              </label>
            ))}
          </div>
          {providers.length === 0 && <p className="field-error">Choose at least one place to search.</p>}
          {missing.length > 0 && (
            <details className="help not-configured">
              <summary>Not configured on this server ({missing.length})</summary>
              <ul>
                {missing.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </details>
          )}
          {usesCorpus && (
            <div className="collection">
              <div className="field inline">
                <label htmlFor="collection">Collection</label>
                <select id="collection" value={collection} onChange={(e) => setCollection(e.target.value)} required>
                  {collections?.length === 0 && <option value="">No collection yet: create one</option>}
                  {collections?.map((c) => (
                    <option key={c.id} value={c.name}>
                      {c.name} ({formatInt(c.documents)} documents)
                    </option>
                  ))}
                </select>
              </div>
              <div className="field inline">
                <label htmlFor="new-collection">New collection</label>
                <input id="new-collection" value={newCollection} onChange={(e) => setNewCollection(e.target.value)} maxLength={120} />
                <button type="button" onClick={() => void createCollection()} disabled={newCollection.trim() === ''}>
                  Create
                </button>
              </div>
              {selected && (
                <section aria-label={`Upload documents into ${selected.name}`}>
                  <h2 className="h3">Add documents to “{selected.name}”</h2>
                  <DocumentUpload collectionId={selected.id} onUploaded={() => void loadCollections()} />
                </section>
              )}
            </div>
          )}
        </fieldset>

        <fieldset>
          <legend>Engine, depth and budgets</legend>
          <div className="settings-grid">
            {RUN_SETTINGS.map((s) =>
              s.kind === 'select' ? (
                <div className="field" key={s.key}>
                  <label htmlFor={`opt-${s.key}`}>{s.label}</label>
                  <select id={`opt-${s.key}`} value={values[s.key]} onChange={(e) => setValues({ ...values, [s.key]: e.target.value })}>
                    {s.options(me).map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </div>
              ) : (
                <NumberField
                  key={s.key}
                  setting={s}
                  me={me}
                  value={values[s.key] ?? ''}
                  onChange={(v) => setValues({ ...values, [s.key]: v })}
                />
              ),
            )}
          </div>
        </fieldset>

        <fieldset>
          <legend>Stop for my approval at</legend>
          <div className="checks">
            {GATES.map(({ gate, label, help }) => {
              const forced = me.policy.requiredGates.includes(gate);
              return (
                <label key={gate} className="check">
                  <input
                    type="checkbox"
                    name={`gate-${gate}`}
                    checked={forced || gates[gate]}
                    disabled={forced}
                    onChange={(e) => setGates({ ...gates, [gate]: e.target.checked })}
                  />
                  {label} gate <span className="muted">— {help}</span>
                  {forced && <span className="tag">required by your tenant’s policy</span>}
                </label>
              );
            })}
          </div>
        </fieldset>

        {error && (
          <Alert>
            {error.message}
            {error.issues.length > 0 && (
              <ul>
                {error.issues.map((i) => (
                  <li key={i}>{i}</li>
                ))}
              </ul>
            )}
          </Alert>
        )}
        <div className="actions">
          <button
            type="submit"
            className="primary"
            disabled={busy || question.trim() === '' || providers.length === 0 || (usesCorpus && !collection)}
          >
            {busy ? 'Starting…' : 'Start run'}
          </button>
        </div>
      </form>
    </>
  );
}

function NumberField({
  setting: s,
  me,
  value,
  onChange,
}: {
  setting: NumberSetting;
  me: MeView;
  value: string;
  onChange: (v: string) => void;
}) {
  const cap = s.cap(me);
  const id = `opt-${s.key}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {s.label}
        {s.unit && <span className="muted"> ({s.unit})</span>}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={s.min}
        max={s.max(me)}
        step={s.step ?? 1}
        required={!s.optional}
        placeholder={s.optional ? (cap !== undefined ? `up to ${formatInt(cap)}` : 'no limit') : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-help`}
      />
      <p className="help" id={`${id}-help`}>
        {cap !== undefined ? `Your tenant’s cap: ${formatInt(cap)}.` : s.optional ? 'No cap.' : `Up to ${s.max(me)}.`}
        {s.help ? ` ${s.help}` : ''}
      </p>
    </div>
  );
}
