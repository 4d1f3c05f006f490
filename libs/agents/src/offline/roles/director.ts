import { extractQuantities, isTime, yearOf } from '../nlp/quantities';
import { normalizeWhitespace } from '../nlp/statement-terms';
import { stem, tokenize } from '../nlp/tokens';
import { clip, topicPhrases } from '../topics';
import type { DirectorInput, DirectorOutput } from '../../roles/director';

const EXCLUSION = /\b(?:excluding|except(?:\s+for)?|other than|apart from|not including|ignoring|leaving aside|but not)\s+([^,.;:?!]+)/gi;
const RELATIVE_TIME =
  /\b(?:in|over|during)?\s*(?:the\s+)?(?:last|past|previous|next|coming)\s+(?:\d+|few|two|three|four|five|ten|twenty)?\s*(?:years?|decades?|months?|centur(?:y|ies))\b/i;

// Subjects where a wrong answer can hurt someone (health, safety, law, money, elections, security).
const HIGH_RISK = stems(
  'health medical medicine drug drugs dose dosage vaccine vaccines disease cancer treatment therapy symptom diagnosis pregnancy suicide overdose weapon weapons explosive poison legal lawsuit court liability invest investment investing stock stocks crypto election elections vote voting security vulnerability exploit surgery mental',
);
const MEDIUM_RISK = stems(
  'policy policies political politics government regulation law economic economy climate safety environment environmental finance financial tax taxes immigration war conflict energy nuclear privacy crime police education employment',
);

function stems(words: string): Set<string> {
  return new Set(words.split(/\s+/).map(stem));
}

function excludedTopics(question: string): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(EXCLUSION)) {
    const clause = m[1].trim();
    const phrases = topicPhrases(clause, 3);
    out.push(...(phrases.length > 0 ? phrases : [clause.toLowerCase()]));
  }
  return [...new Set(out)].map((t) => clip(t, 300));
}

function timeFrame(question: string): string | null {
  const years = [...new Set(extractQuantities(question).filter(isTime).map(yearOf))].sort((a, b) => a - b);
  if (years.length >= 2) return `${years[0]}–${years[years.length - 1]}`;
  if (years.length === 1) {
    const y = years[0];
    const before = new RegExp(
      String.raw`\b(since|after|from|before|until|till|by|prior to)\s+(?:the\s+(?:year\s+)?)?(?:\S+\s+)?${y}\b`,
      'i',
    ).exec(question);
    const word = before?.[1]?.toLowerCase();
    if (word === 'since' || word === 'from' || word === 'after') return `${word} ${y}`;
    if (word === 'before' || word === 'prior to') return `before ${y}`;
    if (word === 'until' || word === 'till' || word === 'by') return `until ${y}`;
    return String(y);
  }
  const relative = RELATIVE_TIME.exec(question);
  return relative ? normalizeWhitespace(relative[0]).toLowerCase() : null;
}

function riskLevel(question: string): 'low' | 'medium' | 'high' {
  const words = tokenize(question).map(stem);
  if (words.some((w) => HIGH_RISK.has(w))) return 'high';
  if (words.some((w) => MEDIUM_RISK.has(w))) return 'medium';
  return 'low';
}

export function directorOffline(input: DirectorInput): DirectorOutput {
  const question = normalizeWhitespace(input.question);
  const excluded = excludedTopics(question);
  const scopeText = question.replace(EXCLUSION, ' ');
  const included = topicPhrases(scopeText, 8)
    .filter((t) => !excluded.includes(t))
    .map((t) => clip(t, 300));
  const frame = timeFrame(question);
  const parts = [`Answer, from cited evidence only: ${question}`];
  if (excluded.length > 0) parts.push(`Out of scope: ${excluded.join(', ')}.`);
  if (frame !== null) parts.push(`Time frame: ${frame}.`);
  return {
    statement: clip(parts.join(' '), 4000),
    includedTopics: included,
    excludedTopics: excluded,
    timeFrame: frame,
    riskLevel: riskLevel(question),
  };
}
