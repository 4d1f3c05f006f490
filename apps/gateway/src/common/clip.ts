/** `text` cut to at most `max` characters (an ellipsis and the original length say that it was cut). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… (${text.length} characters)`;
  return `${text.slice(0, Math.max(0, max - note.length))}${note}`;
}
