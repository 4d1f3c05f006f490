/**
 * The API key lives in sessionStorage only: it ends with the tab, is never put in a URL, and is sent only
 * as a header to this origin's /v1.
 */
const KEY = 'dossier.apiKey';

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
