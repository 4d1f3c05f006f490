/**
 * Checks an eval set against its corpus (docs/decisions/0022), by the matching rule of /evals (0021):
 *   - every member of corpus.tar.gz is a relative path the ingester accepts, and extracts;
 *   - every key point's `source` and every question's `sources` exist in the corpus;
 *   - every key point has a phrasing that its source states (over N of the text as the ingester extracts it),
 *     and (warning only) one that a single sentence of the source states, as a report sentence would have to;
 *   - no trap phrasing is stated by any sentence of the corpus, and no one-part trap phrasing occurs anywhere in it —
 *     over the ingester's text and, for HTML, over the whole body's text too: Readability keeps only part of some
 *     pages today (0022), and a trap must stay false when the extractor keeps more.
 * Usage: node -r ./tools/ts-register.cjs tools/evals/check-set.ts evals/sets/<name> [--dump DIR]
 * (--dump writes the extracted texts). tools/evals/test/check-set.spec.ts runs it over every shipped set.
 * Kept until libs/evals' drift test covers the shipped sets; the rule here must stay the same as theirs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { extractBytes, formatOfPath, htmlToText, type DomNode } from '@dossier/sources';

interface Phrased {
  phrasings: string[];
}
interface KeyPoint extends Phrased {
  fact: string;
  source: string;
}
interface Trap extends Phrased {
  statement: string;
}
interface Question {
  id: string;
  question: string;
  keyPoints: KeyPoint[];
  traps: Trap[];
  sources: string[];
}
interface EvalSet {
  name: string;
  title: string;
  corpus: { archive: string };
  questions: Question[];
}

/** N: lower-case, NFKC, every run of non-letters/digits one space, trimmed. */
function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A phrasing's parts, normalized and padded for a word-boundary search in a padded text. */
function parts(phrasing: string): string[] {
  return phrasing.split(' + ').map((part) => ` ${normalize(part)} `);
}

/** Each part occurs in the text at word boundaries (an empty part matches nothing). */
function matches(phrasing: string, paddedText: string): boolean {
  return parts(phrasing).every((part) => part !== '  ' && paddedText.includes(part));
}

/**
 * Sentences as a report would hold them: split at sentence ends and blank lines. Not at single line breaks: plain
 * text (reST, markdown) wraps its sentences over several lines.
 */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n\s*\n/)
    .map(normalize)
    .filter((s) => s !== '')
    .map((s) => ` ${s} `);
}

/** An HTML page's whole body text, navigation and all: what an extractor could ever keep of it. */
function wholeBodyText(bytes: Uint8Array): string {
  const document = parseHTML(new TextDecoder().decode(bytes)).document as unknown as { body: DomNode | null };
  return document.body === null ? '' : htmlToText(document.body);
}

/** The archive's members and their bytes, after checking every member is a relative path the ingester accepts. */
function corpusFiles(archive: string): Map<string, Uint8Array> {
  const members = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' })
    .split('\n')
    .filter((m) => m !== '' && !m.endsWith('/'));
  const bad = members.filter((m) => m.startsWith('/') || m.split('/').includes('..') || formatOfPath(m) === undefined);
  if (bad.length > 0) throw new Error(`archive members the ingester would not take: ${bad.slice(0, 5).join(', ')}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-check-set-'));
  try {
    execFileSync('tar', ['-xzf', archive, '-C', dir]);
    return new Map(members.map((m) => [m, new Uint8Array(readFileSync(path.join(dir, m)))]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SetCheck {
  name: string;
  files: number;
  questions: number;
  keyPoints: number;
  traps: number;
  errors: string[];
  warnings: string[];
}

/** Checks one set folder; `dumpDir` receives the extracted text of every corpus file (for reading while writing questions). */
export async function checkSet(setDir: string, dumpDir?: string): Promise<SetCheck> {
  const set = JSON.parse(readFileSync(path.join(setDir, 'set.json'), 'utf8')) as EvalSet;
  const bytes = corpusFiles(path.join(setDir, set.corpus.archive));
  const texts = new Map<string, string>();
  for (const [member, data] of bytes) texts.set(member, (await extractBytes(data, member)).text);
  if (dumpDir !== undefined) {
    for (const [member, text] of texts) {
      const out = path.join(dumpDir, `${member}.txt`);
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, text);
    }
  }
  const whole = new Map([...texts].map(([m, t]) => [m, ` ${normalize(t)} `] as const));
  const split = new Map([...texts].map(([m, t]) => [m, sentences(t)] as const));
  // Traps are checked over everything a page holds, not only what today's extraction keeps.
  const trapTexts = [...bytes].map(
    ([m, b]) => [m, formatOfPath(m) === 'html' ? `${texts.get(m)!}\n${wholeBodyText(b)}` : texts.get(m)!] as const,
  );
  const trapWhole = new Map(trapTexts.map(([m, t]) => [m, ` ${normalize(t)} `] as const));
  const trapSplit = new Map(trapTexts.map(([m, t]) => [m, sentences(t)] as const));
  const errors: string[] = [];
  const warnings: string[] = [];
  const ids = new Set<string>();
  let keyPoints = 0;
  let traps = 0;
  for (const q of set.questions) {
    if (ids.has(q.id)) errors.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    if (q.keyPoints.length < 2 || q.keyPoints.length > 8) errors.push(`${q.id}: ${q.keyPoints.length} key points (2..8)`);
    if (q.traps.length < 1 || q.traps.length > 5) errors.push(`${q.id}: ${q.traps.length} traps (1..5)`);
    if (q.sources.length < 1 || q.sources.length > 6) errors.push(`${q.id}: ${q.sources.length} sources (1..6)`);
    for (const s of q.sources) if (!texts.has(s)) errors.push(`${q.id}: source ${s} is not in the corpus`);
    for (const kp of q.keyPoints) {
      keyPoints++;
      const text = whole.get(kp.source);
      if (text === undefined) {
        errors.push(`${q.id}: key point source ${kp.source} is not in the corpus`);
        continue;
      }
      if (!q.sources.includes(kp.source)) errors.push(`${q.id}: key point source ${kp.source} is not among the question's sources`);
      if (!kp.phrasings.some((p) => matches(p, text))) errors.push(`${q.id}: no phrasing of "${kp.fact}" occurs in ${kp.source}`);
      else if (!kp.phrasings.some((p) => split.get(kp.source)!.some((s) => matches(p, s))))
        warnings.push(`${q.id}: no single sentence of ${kp.source} states "${kp.fact}" in the set's words`);
    }
    for (const trap of q.traps) {
      traps++;
      for (const p of trap.phrasings) {
        const trapParts = parts(p);
        const stated = (text: string): boolean => trapParts.every((part) => part !== '  ' && text.includes(part));
        const oneSentence = [...trapSplit].find(([, ss]) => ss.some(stated));
        if (oneSentence !== undefined) errors.push(`${q.id}: trap phrasing "${p}" is stated in ${oneSentence[0]}`);
        else if (!p.includes(' + ')) {
          const anywhere = [...trapWhole].find(([, t]) => stated(t));
          if (anywhere !== undefined) errors.push(`${q.id}: trap phrasing "${p}" occurs in ${anywhere[0]}`);
        }
      }
    }
  }
  return { name: set.name, files: texts.size, questions: set.questions.length, keyPoints, traps, errors, warnings };
}

async function main(): Promise<void> {
  const [setDir, flag, dumpDir] = process.argv.slice(2);
  if (setDir === undefined || (flag !== undefined && (flag !== '--dump' || dumpDir === undefined)))
    throw new Error('usage: check-set.ts evals/sets/<name> [--dump DIR]');
  const r = await checkSet(setDir, dumpDir);
  for (const w of r.warnings) console.log(`warning: ${w}`);
  for (const e of r.errors) console.log(`error: ${e}`);
  console.log(
    `${r.name}: ${r.files} files, ${r.questions} questions, ${r.keyPoints} key points, ${r.traps} traps, ${r.errors.length} errors`,
  );
  if (r.errors.length > 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
