/**
 * Our sentence splitter (libs/agents/src/offline/nlp/sentences.ts) against Intl.Segmenter (ICU's sentence
 * rules, built into Node) on the prose of examples/corpus: how often they agree on sentence boundaries, where
 * they differ, and how fast each is. Run by `npm run bench`; figures recorded in docs/decisions/0032.
 *
 * Paragraphs are the corpus's blank-line-separated blocks that our splitter reads as prose only (no headings,
 * list items or tables, which it keeps as units of their own and the Segmenter does not know). Line breaks
 * inside a paragraph become spaces for the Segmenter (same offsets): ICU ends a sentence at every line break,
 * which would only measure hard wrapping.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { splitUnits } from '../../libs/agents/src/offline/nlp/sentences';

const CORPUS = path.resolve(__dirname, '../../examples/corpus');
const ROUNDS = Number(process.env['BENCH_SPLIT_ROUNDS'] ?? 50);
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

function paragraphs(): string[] {
  const out: string[] = [];
  for (const f of readdirSync(CORPUS).filter((n) => /\.(md|txt)$/.test(n))) {
    for (const p of readFileSync(path.join(CORPUS, f), 'utf8').split(/\n\s*\n/)) {
      const units = splitUnits(p);
      if (units.length > 0 && units.every((u) => u.kind === 'sentence')) out.push(p);
    }
  }
  return out;
}

/** Start offsets of the second and later sentences: the boundaries a splitter chose. */
function ours(p: string): Set<number> {
  return new Set(
    splitUnits(p)
      .slice(1)
      .map((u) => u.start),
  );
}

function icu(p: string): Set<number> {
  const flat = p.replace(/\n/g, ' ');
  const starts = new Set<number>();
  for (const s of segmenter.segment(flat)) {
    if (s.index === 0) continue;
    let i = s.index;
    while (i < flat.length && /\s/.test(flat[i]!)) i++;
    if (i < flat.length) starts.add(i);
  }
  return starts;
}

function context(p: string, at: number): string {
  return JSON.stringify(p.slice(Math.max(0, at - 40), at) + ' ‖ ' + p.slice(at, at + 30)).replace(/\\n/g, ' ');
}

function time(paras: string[], split: (p: string) => unknown): number {
  for (const p of paras) split(p); // warm-up
  const t0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (const p of paras) split(p);
  return performance.now() - t0;
}

const paras = paragraphs();
let both = 0;
const onlyOurs: string[] = [];
const onlyIcu: string[] = [];
for (const p of paras) {
  const a = ours(p);
  const b = icu(p);
  for (const x of a) {
    if (b.has(x)) both++;
    else onlyOurs.push(context(p, x));
  }
  for (const x of b) if (!a.has(x)) onlyIcu.push(context(p, x));
}
// A Segmenter-only boundary right after a title, an initial or an abbreviation cuts a sentence in two.
const ABBREVIATED = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|st|no|nos|approx|vs|ca|cf|e\.g|i\.e|p\.m|a\.m|retd|\p{L}|\p{L}\.\p{L}{1,3})\.\s*$/iu;
const cuts = onlyIcu.filter((c) => ABBREVIATED.test(JSON.parse(c).split(' ‖ ')[0]));
const chars = paras.reduce((n, p) => n + p.length, 0);
const oursMs = time(paras, ours);
const icuMs = time(paras, icu);
const total = both + onlyOurs.length + onlyIcu.length;
console.log(`sentence splitter vs Intl.Segmenter: ${paras.length} prose paragraphs, ${chars} chars of examples/corpus (md, txt)`);
console.log(
  `boundaries: ${both} agreed, ${onlyOurs.length} ours only, ${onlyIcu.length} Segmenter only; agreement ${((100 * both) / total).toFixed(1)} %`,
);
console.log(
  `time for ${ROUNDS} passes: ours ${oursMs.toFixed(0)} ms (${((chars * ROUNDS) / oursMs / 1000).toFixed(1)} MB/s), Segmenter ${icuMs.toFixed(0)} ms (${((chars * ROUNDS) / icuMs / 1000).toFixed(1)} MB/s)`,
);
console.log(`Segmenter only, right after a title, initial or abbreviation (a sentence cut in two): ${cuts.length}`);
console.log('ours only (first 15):');
for (const c of onlyOurs.slice(0, 15)) console.log('  ' + c);
console.log('Segmenter only, elsewhere (first 30):');
for (const c of onlyIcu.filter((x) => !cuts.includes(x)).slice(0, 30)) console.log('  ' + c);
