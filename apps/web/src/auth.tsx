import { createContext, useContext } from 'react';
import type { MeView } from './api/types';

export interface Session {
  me: MeView;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in caller; every screen below the shell has one. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in shell');
  return session;
}
