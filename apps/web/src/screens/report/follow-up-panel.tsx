import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { RunView } from '../../api/types';
import { navigate, paths } from '../../router';
import { Alert } from '../../ui/common';
import { wordsOf } from '../../ui/words';

/**
 * Ask a follow-up (docs/decisions/0052): a new run with a new question that starts from this report's sources (its
 * corpus is their stored text) and this run's settings. Opens the new run's live page.
 */
export function FollowUpPanel({ runId, sourceCount }: { runId: string; sourceCount: number }) {
  const [question, setQuestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const run = await api<RunView>('POST', `/v1/runs/${encodeURIComponent(runId)}/follow-ups`, { question: question.trim() });
      navigate(paths.run(run.id));
    } catch (err) {
      setError(wordsOf(err, { question: 'The follow-up question' }));
      setBusy(false);
    }
  };

  return (
    <details className="tool-panel" data-panel="follow-up">
      <summary>Ask a follow-up</summary>
      <form onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor="follow-up-question">Follow-up question</label>
          <textarea
            id="follow-up-question"
            rows={3}
            maxLength={4000}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            aria-describedby="follow-up-help"
            required
          />
          <p id="follow-up-help" className="hint">
            A new run that searches this report’s {sourceCount} source{sourceCount === 1 ? '' : 's'} first, with this run’s settings.
          </p>
        </div>
        <button type="submit" className="primary" disabled={busy || question.trim() === ''}>
          {busy ? 'Starting…' : 'Start the follow-up'}
        </button>
        {error && <Alert>{error}</Alert>}
      </form>
    </details>
  );
}
