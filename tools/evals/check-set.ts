/**
 * The checks of an eval set against its corpus that libs/evals does not make (docs/decisions/0022, 0038). The set is
 * loaded by libs/evals' loader (`loadEvalSet`: schema, licence, the archive unpacked by its tar reader, every source and
 * key-point source a file of the corpus) and matched by its rule (`normalize`, `phrasingMatches`, 0021); libs/evals'
 * drift test proves every key point is stated by its source. What stays here:
 *   - every corpus file is of a format the ingester takes, and extracts;
 *   - no trap phrasing is stated by any sentence of the corpus, and no one-part trap phrasing occurs anywhere in it —
 *     over the ingester's text and, for HTML, over the whole page's body text too: Readability keeps only part of some
 *     pages today (0022), and a trap must stay false when the extractor keeps more;
 *   - (warning only) a key point that no single sentence of its source states, as a report sentence would have to.
 * Usage: node -r ./tools/ts-register.cjs tools/evals/check-set.ts evals/sets/<name> [--dump DIR]
 * (--dump writes the extracted texts). tools/evals/test/check-set.spec.ts runs it over every shipped set.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { loadEvalSet, normalize, phrasingMatches, phrasingParts } from '@dossier/evals';
import { extractBytes, formatOfPath, htmlToText, type DomNode } from '@dossier/sources';

/**
 * Sentences as a report would hold them: split at sentence ends and blank lines. Not at single line breaks: plain
 * text (reST, markdown) wraps its sentences over several lines.
 */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n\s*\n/)
    .map(normalize)
    .filter((s) => s !== '');
}

/** An HTML page's whole body text, navigation and all: what an extractor could ever keep of it. */
function wholeBodyText(bytes: Uint8Array): string {
  const document = parseHTML(new TextDecoder().decode(bytes)).document as unknown as { body: DomNode | null };
  return document.body === null ? '' : htmlToText(document.body);
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
  const loaded = await loadEvalSet(setDir);
  try {
    const { set } = loaded;
    const errors: string[] = [];
    const warnings: string[] = [];
    const bytes = new Map<string, Uint8Array>();
    const texts = new Map<string, string>();
    for (const file of loaded.files) {
      if (formatOfPath(file) === undefined) {
        errors.push(`${file}: not a format the ingester takes`);
        continue;
      }
      const data = new Uint8Array(readFileSync(path.join(loaded.corpusDir, file)));
      bytes.set(file, data);
      texts.set(file, (await extractBytes(data, file)).text);
    }
    if (dumpDir !== undefined) {
      for (const [file, text] of texts) {
        const out = path.join(dumpDir, `${file}.txt`);
        mkdirSync(path.dirname(out), { recursive: true });
        writeFileSync(out, text);
      }
    }
    // Traps are checked over everything a page holds, not only what today's extraction keeps.
    const trapTexts = [...texts].map(([f, t]) => [f, formatOfPath(f) === 'html' ? `${t}\n${wholeBodyText(bytes.get(f)!)}` : t] as const);
    const trapWhole = new Map(trapTexts.map(([f, t]) => [f, normalize(t)] as const));
    const trapSplit = new Map(trapTexts.map(([f, t]) => [f, sentences(t)] as const));
    let keyPoints = 0;
    let traps = 0;
    for (const q of set.questions) {
      for (const kp of q.keyPoints) {
        keyPoints++;
        const split = sentences(texts.get(kp.source) ?? '');
        if (!kp.phrasings.some((p) => split.some((s) => phrasingMatches(p, s))))
          warnings.push(`${q.id}: no single sentence of ${kp.source} states "${kp.fact}" in the set's words`);
      }
      for (const trap of q.traps) {
        traps++;
        for (const p of trap.phrasings) {
          const oneSentence = [...trapSplit].find(([, ss]) => ss.some((s) => phrasingMatches(p, s)));
          if (oneSentence !== undefined) errors.push(`${q.id}: trap phrasing "${p}" is stated in ${oneSentence[0]}`);
          else if (phrasingParts(p).length === 1) {
            const anywhere = [...trapWhole].find(([, t]) => phrasingMatches(p, t));
            if (anywhere !== undefined) errors.push(`${q.id}: trap phrasing "${p}" occurs in ${anywhere[0]}`);
          }
        }
      }
    }
    return { name: set.name, files: texts.size, questions: set.questions.length, keyPoints, traps, errors, warnings };
  } finally {
    await loaded.dispose();
  }
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
