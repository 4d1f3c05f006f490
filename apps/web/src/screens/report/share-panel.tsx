import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, messageOf } from '../../api/client';
import { Alert } from '../../ui/common';
import { formatDate } from '../../ui/format';
import { wordsOf } from '../../ui/words';

interface ShareView {
  id: string;
  prefix: string;
  state: 'active' | 'expired' | 'revoked';
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

const EXPIRIES = [
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
];

/**
 * Read-only links to this report (docs/decisions/0051): create one (its address is shown once, to copy), see every
 * link made with its state, revoke one. A link opens this report and its sources only, until it expires or is revoked.
 */
export function SharePanel({ runId }: { runId: string }) {
  const base = `/v1/runs/${encodeURIComponent(runId)}/shares`;
  const [items, setItems] = useState<ShareView[] | null>(null);
  const [hours, setHours] = useState(168);
  const [created, setCreated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const status = useRef<HTMLParagraphElement>(null);

  const load = useCallback(
    () =>
      api<{ items: ShareView[] }>('GET', base)
        .then((r) => setItems(r.items))
        .catch((err: unknown) => setError(messageOf(err))),
    [base],
  );
  useEffect(() => void load(), [load]);
  const focusNotice = useRef(false);
  useEffect(() => {
    if (!focusNotice.current) return;
    focusNotice.current = false;
    status.current?.focus();
  }, [notice]);
  useEffect(() => {
    if (created) linkInput.current?.select();
  }, [created]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const share = await api<ShareView & { path: string }>('POST', base, { expiresInHours: hours });
      setCreated(`${location.origin}${share.path}`);
      await load();
    } catch (err) {
      setError(wordsOf(err, { expiresInHours: 'How long the link works' }));
    }
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created);
      setNotice('Link copied.');
    } catch {
      // No clipboard permission (an embedded browser, http): the address is selected for Ctrl+C instead.
      linkInput.current?.select();
      setNotice('Copying is not allowed here: the link is selected, press Ctrl+C (⌘C) to copy it.');
    }
  };

  const revoke = async (share: ShareView) => {
    setError(null);
    try {
      await api<ShareView>('POST', `${base}/${share.id}/revoke`, {});
      await load();
      // Its Revoke button is gone: focus the notice, which says what happened, rather than lose it to the page (after
      // the render that shows it; not in an animation frame, which a hidden tab may never run).
      focusNotice.current = true;
      setNotice(`The link ${share.prefix} is revoked: it no longer opens this report.`);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <details className="tool-panel" data-panel="share">
      <summary>Share a read-only link</summary>
      <form onSubmit={(e) => void create(e)} className="share-form">
        <div className="field">
          <label htmlFor="share-expiry">The link works for</label>
          <select id="share-expiry" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {EXPIRIES.map((x) => (
              <option key={x.hours} value={x.hours}>
                {x.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Create link</button>
      </form>
      <p className="hint">Whoever has the link can read this report and open its sources, and nothing else. Revoke it to stop that.</p>
      {created && (
        <div className="share-created">
          <label htmlFor="share-link">New link (shown only now)</label>
          <div className="copy-row">
            <input id="share-link" ref={linkInput} readOnly value={created} onFocus={(e) => e.target.select()} />
            <button type="button" onClick={() => void copy()}>
              Copy link
            </button>
          </div>
        </div>
      )}
      <p ref={status} tabIndex={-1} role="status" className="share-status">
        {notice}
      </p>
      {error && <Alert>{error}</Alert>}
      {items && items.length > 0 && (
        <table className="shares stack">
          <caption className="visually-hidden">Links to this report</caption>
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col">State</th>
              <th scope="col">Expires</th>
              <th scope="col">Created by</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((s) => (
              <tr key={s.id} data-share={s.id} data-state={s.state}>
                <td data-label="Link">
                  <code>{s.prefix}</code>
                </td>
                <td data-label="State">
                  <span className={`tag tag-${s.state}`}>{s.state}</span>
                </td>
                <td data-label="Expires">{formatDate(s.expiresAt)}</td>
                <td data-label="Created by">{s.createdBy}</td>
                <td>
                  {s.state === 'active' && (
                    <button
                      type="button"
                      className="danger small"
                      aria-label={`Revoke the link ${s.prefix}`}
                      onClick={() => void revoke(s)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
