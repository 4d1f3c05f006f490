import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, messageOf } from '../../api/client';
import type { ReportJson, RunVerification } from '../../api/types';
import { Alert, Loading, PageTitle } from '../../ui/common';
import { formatDate } from '../../ui/format';
import { ReportBody } from './report-screen';
import type { ReportAccess } from './source-viewer';

interface SharedReportView {
  run: { id: string; question: string; completedAt: string | null };
  share: { expiresAt: string };
  verification: RunVerification | null;
}

/** The token of a share link: the address's fragment, which the browser never sends to the server nor in a Referer. */
function tokenOf(hash: string): string | null {
  const token = decodeURIComponent(hash.replace(/^#/, ''));
  return /^dsh_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/**
 * A report opened from a share link (docs/decisions/0051): read-only, without signing in, and without the app's
 * navigation — the link's token opens this report, its figures and its sources' text, and the gateway answers nothing
 * else to it. Revoked or expired, the page says so in words.
 */
export function SharedReportScreen() {
  const token = useMemo(() => tokenOf(location.hash), []);
  const [shared, setShared] = useState<SharedReportView | null>(null);
  const [report, setReport] = useState<ReportJson | null>(null);
  const [problem, setProblem] = useState<string | null>(
    token ? null : 'This address is not a complete share link. Ask whoever sent it for the whole link.',
  );

  useEffect(() => {
    if (!token) return;
    Promise.all([
      api<SharedReportView>('GET', '/v1/shared', undefined, { key: token }),
      api<ReportJson>('GET', '/v1/shared/report.json', undefined, { key: token }),
    ])
      .then(([s, r]) => {
        setShared(s);
        setReport(r);
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 410) setProblem(err.message);
        else if (err instanceof ApiError && err.status === 401)
          setProblem('This share link is not valid. Ask whoever sent it for a new one.');
        else setProblem(messageOf(err));
      });
  }, [token]);
  const access = useMemo<ReportAccess>(
    () => ({
      file: (format) => `/v1/shared/report.${format}`,
      source: (hash) => `/v1/shared/sources/${encodeURIComponent(hash)}`,
      key: token ?? '',
    }),
    [token],
  );

  if (problem) {
    return (
      <>
        <PageTitle title="Shared report">Shared report</PageTitle>
        <Alert>{problem}</Alert>
      </>
    );
  }
  if (!shared || !report) return <Loading what="the shared report" />;
  return (
    <ReportBody
      report={report}
      runId={shared.run.id}
      verification={shared.verification}
      access={access}
      tools={
        <p className="shared-note" data-shared-until={shared.share.expiresAt}>
          <span className="tag">read-only</span> A shared report: this link works until {formatDate(shared.share.expiresAt)}, unless its
          owners revoke it.
        </p>
      }
    />
  );
}
