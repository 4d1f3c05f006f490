/** A list in two halves (the first the larger), or null when it has fewer than two items (decision 0040). */
export function halves<T>(items: readonly T[]): readonly [T[], T[]] | null {
  if (items.length < 2) return null;
  const middle = Math.ceil(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)];
}

/**
 * Where to cut a text in two near its middle: after a blank line, else after a sentence, else at a space, so each part
 * reads on its own; null when the text has no such place.
 */
export function middleCut(text: string): number | null {
  const middle = Math.floor(text.length / 2);
  for (const boundary of [/\n\s*\n/g, /[.!?]["'”’)\]]*\s+/g, /\s+/g]) {
    let best: number | null = null;
    for (const m of text.matchAll(boundary)) {
      const at = m.index + m[0].length;
      if (at <= 0 || at >= text.length) continue;
      if (best === null || Math.abs(at - middle) < Math.abs(best - middle)) best = at;
    }
    // A cut that leaves one part almost empty does not halve anything.
    if (best !== null && best > text.length * 0.2 && best < text.length * 0.8) return best;
  }
  return null;
}
