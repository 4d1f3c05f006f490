import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkSet } from '../check-set';

const SETS = path.resolve(__dirname, '../../../evals/sets');
// The sets whose corpus is a committed archive (the examples set reads examples/corpus and is libs/evals' to check).
const archived = readdirSync(SETS).filter((name) => existsSync(path.join(SETS, name, 'corpus.tar.gz')));
// The sets whose corpus was written for them and lives in their own folder (decision 0091): small, and held to the
// same trap rule. The examples set is not one: its corpus is the demo's, and one of its traps is a claim the corpus
// makes and refutes (0021).
const written = readdirSync(SETS).filter((name) => existsSync(path.join(SETS, name, 'corpus')));

describe('eval sets against their corpora', () => {
  it('ships the documentation sets', () => {
    expect(archived).toEqual(expect.arrayContaining(['git-manual', 'python-stdlib']));
    expect(written).toEqual(expect.arrayContaining(['velora-recall']));
  });

  it.each(archived)('%s: every file extracts, no trap is stated by any page', async (name) => {
    const result = await checkSet(path.join(SETS, name));
    expect(result.errors).toEqual([]);
    expect(result.name).toBe(name);
    expect(result.files).toBeGreaterThanOrEqual(200);
    expect(result.questions).toBeGreaterThanOrEqual(12);
  });

  it.each(written)('%s (a written corpus): every file extracts, no trap is stated, every key point in one sentence', async (name) => {
    const result = await checkSet(path.join(SETS, name));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.name).toBe(name);
    expect(result.files).toBeGreaterThanOrEqual(20);
    expect(result.questions).toBeGreaterThanOrEqual(12);
  });

  it('names a trap the corpus states, warns of a key point no sentence states, and refuses a missing source', async () => {
    // A one-page corpus: git-reset.html out of the git-manual archive, in a folder named as the set (the loader's rule).
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'dossier-check-set-spec-')), 'git-manual');
    mkdirSync(dir);
    execFileSync('tar', ['-xzf', path.join(SETS, 'git-manual', 'corpus.tar.gz'), '-C', dir, 'git-reset.html']);
    execFileSync('tar', ['-czf', 'corpus.tar.gz', 'git-reset.html'], { cwd: dir });
    for (const f of ['LICENSE', 'SOURCE.md']) copyFileSync(path.join(SETS, 'git-manual', f), path.join(dir, f));
    const set = JSON.parse(readFileSync(path.join(SETS, 'git-manual', 'set.json'), 'utf8')) as {
      questions: { keyPoints: { phrasings: string[]; source: string }[]; traps: { phrasings: string[] }[]; sources: string[] }[];
    };
    const [first] = set.questions;
    // Two halves of one true statement, each in a sentence of its own: the page states both, no one sentence does.
    first!.keyPoints[0]!.phrasings = ['Does not touch the index file + Resets the index but not the working tree'];
    // A true sentence of git-reset.html, stated as a trap.
    first!.traps[0]!.phrasings = ['Resets the index but not the working tree'];
    set.questions = [first!];
    writeFileSync(path.join(dir, 'set.json'), JSON.stringify(set));

    const result = await checkSet(dir);

    expect(result.errors).toEqual(['q01: trap phrasing "Resets the index but not the working tree" is stated in git-reset.html']);
    expect(result.warnings).toEqual([expect.stringMatching(/^q01: no single sentence of git-reset\.html states ".*" in the set's words$/)]);

    first!.sources.push('no-such-page.html');
    writeFileSync(path.join(dir, 'set.json'), JSON.stringify(set));
    await expect(checkSet(dir)).rejects.toThrow(/q01: source no-such-page\.html/);
  });
});
