import { useState, type FormEvent } from 'react';
import { api, messageOf } from '../api/client';
import { storeKey } from '../api/session';
import type { MeView } from '../api/types';
import { Alert, PageTitle } from '../ui/common';

/** The API key is checked against /v1/me before it is kept (in this tab's sessionStorage only). */
export function SignInScreen({ onSignedIn }: { onSignedIn: (me: MeView) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = await api<MeView>('GET', '/v1/me', undefined, { key: key.trim() });
      storeKey(key.trim());
      onSignedIn(me);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <PageTitle title="Sign in">Sign in to Dossier</PageTitle>
      <p>Paste your API key. It is kept only in this browser tab and sent only to this server.</p>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="dsk_…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
        />
        {error && <Alert>{error}</Alert>}
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <p className="muted">
        No key? An operator creates one with <code>dossier admin create-key</code>.
      </p>
    </main>
  );
}
