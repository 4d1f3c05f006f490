/**
 * `corpus://<collection>/<path>`: how a corpus document is cited. Each segment is percent-encoded so that
 * a space or `#` in a file name still yields one unambiguous URL; plain names read as they are.
 */
export function corpusUrl(collection: string, path: string): string {
  return `corpus://${encodeURIComponent(collection)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The collection and path of a corpus URL, or undefined when it is not one. */
export function parseCorpusUrl(url: string): { collection: string; path: string } | undefined {
  const [, collection, path] = /^corpus:\/\/([^/]+)\/(.+)$/.exec(url) ?? [];
  if (collection === undefined || path === undefined) return undefined;
  try {
    return { collection: decodeURIComponent(collection), path: path.split('/').map(decodeURIComponent).join('/') };
  } catch (err) {
    if (err instanceof URIError) return undefined; // malformed percent-encoding: not one of ours
    throw err;
  }
}
