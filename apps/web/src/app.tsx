import { useCallback, useEffect, useState } from 'react';
import { api, onUnauthorized } from './api/client';
import { forgetKey, storedKey } from './api/session';
import type { MeView } from './api/types';
import { SessionContext } from './auth';
import { Link, navigate, parseRoute, paths, useLocation } from './router';
import { AuditScreen } from './screens/audit/audit-screen';
import { GateScreen } from './screens/gate/gate-screen';
import { LiveRunScreen } from './screens/live-run/live-run-screen';
import { NewRunScreen } from './screens/new-run/new-run-screen';
import { ReportScreen } from './screens/report/report-screen';
import { SharedReportScreen } from './screens/report/shared-report-screen';
import { RunsScreen } from './screens/runs/runs-screen';
import { SignInScreen } from './screens/sign-in-screen';
import { Alert, Loading, PageTitle } from './ui/common';

export function App() {
  const pathname = useLocation();
  const route = parseRoute(pathname);
  const [me, setMe] = useState<MeView | null>(null);
  const [checking, setChecking] = useState(() => storedKey() !== null);

  const signOut = useCallback(() => {
    forgetKey();
    setMe(null);
    navigate(paths.signIn(), true);
  }, []);

  useEffect(() => onUnauthorized(() => (setMe(null), navigate(paths.signIn(), true))), []);

  useEffect(() => {
    if (!storedKey()) return;
    api<MeView>('GET', '/v1/me')
      .then(setMe)
      .catch(() => setMe(null))
      .finally(() => setChecking(false));
  }, []);

  // A share link needs no key and shows nothing of the app but its report (docs/decisions/0051).
  if (route.name === 'shared') {
    return (
      <>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="topbar">
          <span className="brand">Dossier</span>
        </header>
        <main id="main">
          <SharedReportScreen />
        </main>
      </>
    );
  }
  if (checking) return <Loading what="your session" />;
  if (!me) {
    return (
      <SignInScreen
        onSignedIn={(who) => {
          setMe(who);
          if (route.name === 'sign-in') navigate(paths.runs(), true);
        }}
      />
    );
  }

  return (
    <SessionContext.Provider value={{ me, signOut }}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to={paths.runs()} className="brand">
          Dossier
        </Link>
        <nav aria-label="Main">
          <ul>
            <li>
              <Link to={paths.runs()} aria-current={route.name === 'runs' ? 'page' : undefined}>
                Runs
              </Link>
            </li>
            {me.canWrite && (
              <li>
                <Link to={paths.newRun()} aria-current={route.name === 'new-run' ? 'page' : undefined}>
                  New run
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <div className="whoami">
          <span>
            {me.principal.name} · {me.tenant.name} · <span className="role">{me.principal.role}</span>
          </span>
          <button type="button" className="link-button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <Screen route={route} canWrite={me.canWrite} />
      </main>
    </SessionContext.Provider>
  );
}

function Screen({ route, canWrite }: { route: ReturnType<typeof parseRoute>; canWrite: boolean }) {
  switch (route.name) {
    case 'runs':
    case 'sign-in':
    case 'shared':
      return <RunsScreen />;
    case 'new-run':
      return canWrite ? (
        <NewRunScreen />
      ) : (
        <>
          <PageTitle title="New run">New run</PageTitle>
          <Alert kind="info">Your key is read-only (viewer): it can follow runs and read reports, not start runs.</Alert>
        </>
      );
    case 'run':
      return <LiveRunScreen key={route.id} runId={route.id} />;
    case 'gate':
      return <GateScreen key={route.id} runId={route.id} />;
    case 'report':
      return <ReportScreen key={route.id} runId={route.id} />;
    case 'audit':
      return <AuditScreen key={route.id} runId={route.id} />;
    case 'missing':
      return (
        <>
          <PageTitle title="Not found">Page not found</PageTitle>
          <p>
            <Link to={paths.runs()}>Back to the runs</Link>
          </p>
        </>
      );
  }
}
