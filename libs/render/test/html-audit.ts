/**
 * A deliberately strict reader of renderer output, for tests only. The renderer always double-quotes
 * attribute values and escapes `"` inside them, so a tag must match `<name( attr="value")*>` exactly;
 * anything else (an unescaped quote, a stray `<`) makes the audit fail instead of being guessed at.
 */
export interface AuditedTag {
  name: string;
  closing: boolean;
  attrs: Record<string, string>;
}

const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+="[^"<>]*")*)\s*>/;
const ATTR = /\s+([a-zA-Z-]+)="([^"]*)"/g;

export function auditTags(html: string): AuditedTag[] {
  const tags: AuditedTag[] = [];
  // The stylesheet is the renderer's own constant; skip its body so CSS `>` selectors are not read as text.
  const withoutStyle = html.replace(/<style>[\s\S]*?<\/style>/, '<style></style>');
  const rest = withoutStyle.replace(/^<!DOCTYPE html>\n/, '');
  for (let i = rest.indexOf('<'); i !== -1; i = rest.indexOf('<', i + 1)) {
    const match = TAG.exec(rest.slice(i));
    if (!match) throw new Error(`unparseable markup at ${i}: ${JSON.stringify(rest.slice(i, i + 80))}`);
    const attrs: Record<string, string> = {};
    for (const [, name, value] of match[3]!.matchAll(ATTR)) {
      if (name! in attrs) throw new Error(`duplicate attribute ${name} in ${match[0]}`);
      attrs[name!] = value!;
    }
    tags.push({ name: match[2]!.toLowerCase(), closing: match[1] === '/', attrs });
  }
  return tags;
}

/** Text content with the five escapes undone, as a browser would show it. */
export function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
