import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

export type Route =
  | { name: 'runs' }
  | { name: 'new-run' }
  | { name: 'run'; id: string }
  | { name: 'gate'; id: string }
  | { name: 'report'; id: string }
  | { name: 'audit'; id: string }
  | { name: 'sign-in' }
  | { name: 'shared' }
  | { name: 'missing' };

/** The app's paths; the gateway serves index.html for exactly these (apps/gateway/src/web/web-app.ts). */
export function parseRoute(pathname: string): Route {
  if (pathname === '/' || pathname === '/runs' || pathname === '/runs/') return { name: 'runs' };
  if (pathname === '/runs/new') return { name: 'new-run' };
  if (pathname === '/sign-in') return { name: 'sign-in' };
  // A share link: /shared#dsh_… (the token in the fragment).
  if (pathname === '/shared') return { name: 'shared' };
  const m = /^\/runs\/([^/]+)(?:\/(gate|report|audit))?\/?$/.exec(pathname);
  if (m) {
    const id = decodeURIComponent(m[1]!);
    const sub = m[2] as 'gate' | 'report' | 'audit' | undefined;
    return sub ? { name: sub, id } : { name: 'run', id };
  }
  return { name: 'missing' };
}

export const paths = {
  runs: () => '/runs',
  newRun: () => '/runs/new',
  run: (id: string) => `/runs/${encodeURIComponent(id)}`,
  gate: (id: string) => `/runs/${encodeURIComponent(id)}/gate`,
  report: (id: string) => `/runs/${encodeURIComponent(id)}/report`,
  audit: (id: string) => `/runs/${encodeURIComponent(id)}/audit`,
  signIn: () => '/sign-in',
};

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
}

export function useLocation(): string {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => location.pathname,
  );
}

/** An in-app link: a real <a href> (new tab, copy link work) that navigates without a reload on a plain click. */
export function Link({ to, children, ...rest }: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={to} onClick={onClick}>
      {children}
    </a>
  );
}
