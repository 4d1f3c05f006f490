import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EvalSetError, loadEvalSet, parseEvalSet, readTar } from '../src';
import { tarGz, type TarEntry } from './tar-writer';
import { gunzipSync } from 'node:zlib';

function question(id: string, source = 'docs/a.md') {
  return {
    id,
    question: 'What does the first document say about widgets?',
    keyPoints: [
      { fact: 'widgets are blue', phrasings: ['widgets are blue'], source },
      { fact: 'widgets weigh 2 kg', phrasings: ['2 kg + widgets'], source },
    ],
    traps: [{ statement: 'widgets are red', phrasings: ['widgets are red'] }],
    sources: [source],
  };
}

function validSet(name = 'tiny') {
  return { name, title: 'Tiny set', corpus: { archive: 'corpus.tar.gz' }, questions: [question('q01')] };
}

const CORPUS: TarEntry[] = [
  { name: 'docs/', type: '5' },
  { name: 'docs/a.md', data: '# Widgets\n\nWidgets are blue. The widgets weigh 2 kg each.\n' },
  { name: 'docs/b.txt', data: 'Gadgets are green.\n' },
];

/** Writes a set folder under a fresh sets dir; `omit` leaves out a file the format requires. */
function writeSet(
  set: unknown,
  options: { entries?: TarEntry[]; omit?: 'LICENSE' | 'SOURCE.md'; folder?: string; raw?: string } = {},
): { setsDir: string; dir: string } {
  const setsDir = mkdtempSync(path.join(tmpdir(), 'dossier-evalsets-'));
  const dir = path.join(setsDir, options.folder ?? (set as { name: string }).name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'set.json'), options.raw ?? JSON.stringify(set));
  if (options.omit !== 'LICENSE') writeFileSync(path.join(dir, 'LICENSE'), 'CC0\n');
  if (options.omit !== 'SOURCE.md') writeFileSync(path.join(dir, 'SOURCE.md'), 'Written for the test.\n');
  writeFileSync(path.join(dir, 'corpus.tar.gz'), tarGz(options.entries ?? CORPUS));
  return { setsDir, dir };
}

async function rejection(set: unknown, options: Parameters<typeof writeSet>[1] = {}): Promise<string> {
  const { setsDir, dir } = writeSet(set, options);
  const name = options.folder ?? (set as { name?: string }).name ?? path.basename(dir);
  const err = await loadEvalSet(name, { setsDir }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EvalSetError);
  return (err as Error).message;
}

describe('eval set loader', () => {
  it('loads a valid set by name, unpacks its archive into a temporary folder and removes it on dispose', async () => {
    const { setsDir } = writeSet(validSet());
    const loaded = await loadEvalSet('tiny', { setsDir });
    expect(loaded.set.questions.map((q) => q.id)).toEqual(['q01']);
    expect(loaded.files).toEqual(['docs/a.md', 'docs/b.txt']);
    expect(existsSync(path.join(loaded.corpusDir, 'docs/a.md'))).toBe(true);
    await loaded.dispose();
    expect(existsSync(loaded.corpusDir)).toBe(false);
  });

  it('loads a set by the path of its folder or of its set.json', async () => {
    const { dir } = writeSet(validSet());
    for (const ref of [dir, path.join(dir, 'set.json')]) {
      const loaded = await loadEvalSet(ref);
      expect(loaded.set.name).toBe('tiny');
      await loaded.dispose();
    }
  });

  it('names the shipped sets when the set does not exist', async () => {
    const { setsDir } = writeSet(validSet());
    await expect(loadEvalSet('nope', { setsDir })).rejects.toThrow(
      'No eval set "nope": give a set name (tiny) or the path of a set folder',
    );
  });

  it('rejects set.json that is not JSON, naming the file', async () => {
    expect(await rejection(validSet(), { raw: '{ nope' })).toMatch(/set\.json is not JSON/);
  });

  it('rejects a set that breaks the schema, naming each field', async () => {
    const bad = validSet();
    bad.questions = [
      { ...question('q01'), keyPoints: [question('q01').keyPoints[0]!] },
      { ...question('q01'), question: 'short?' },
    ];
    const message = await rejection(bad);
    expect(message).toMatch(/questions\.0\.keyPoints: Too small/);
    expect(message).toMatch(/questions\.1\.question: Too small/);
    expect(message).toMatch(/questions\.1\.id: duplicate question id "q01"/);
  });

  it('rejects paths that climb out of the corpus and phrasings with an empty part', () => {
    const bad = validSet();
    bad.questions[0]!.sources = ['../etc/passwd'];
    bad.questions[0]!.keyPoints[0]!.phrasings = ['blue + ?'];
    expect(() => parseEvalSet(bad, 'set.json')).toThrow(/questions\.0\.sources\.0: must be a relative path inside the corpus/);
    expect(() => parseEvalSet(bad, 'set.json')).toThrow(/phrasings\.0: every part of a phrasing/);
    expect(() => parseEvalSet({ ...validSet(), extra: 1 }, 'set.json')).toThrow(/Unrecognized key/);
  });

  it('rejects a set whose name is not its folder name', async () => {
    expect(await rejection(validSet(), { folder: 'other' })).toMatch(/name "tiny" must be the set's folder name "other"/);
  });

  it('rejects a set without a licence or without SOURCE.md', async () => {
    expect(await rejection(validSet(), { omit: 'LICENSE' })).toMatch(/has no LICENSE \(or COPYING\)/);
    expect(await rejection(validSet(), { omit: 'SOURCE.md' })).toMatch(/has no SOURCE\.md/);
  });

  it('rejects sources and key-point sources that are not in the corpus', async () => {
    const bad = validSet();
    bad.questions = [question('q01', 'docs/missing.md')];
    expect(await rejection(bad)).toMatch(/q01: source docs\/missing\.md; q01: key point source docs\/missing\.md/);
  });

  it('refuses archives with absolute or ".." members, links, or a corrupt header', async () => {
    expect(await rejection(validSet(), { entries: [...CORPUS, { name: '/etc/evil', data: 'x' }] })).toMatch(
      /member "\/etc\/evil" has an absolute path/,
    );
    expect(await rejection(validSet(), { entries: [...CORPUS, { name: 'docs/../../evil', data: 'x' }] })).toMatch(
      /climbs out of the archive/,
    );
    expect(await rejection(validSet(), { entries: [...CORPUS, { name: 'docs/link', type: '2' }] })).toMatch(
      /is not a regular file .*links and devices are refused/,
    );
    const tar = gunzipSync(tarGz(CORPUS));
    tar[0] = tar[0]! ^ 0xff;
    expect(() => readTar(tar, 'x.tar.gz')).toThrow(/bad header checksum/);
  });

  it('rejects an archive that is not gzip', async () => {
    const { setsDir, dir } = writeSet(validSet());
    writeFileSync(path.join(dir, 'corpus.tar.gz'), 'plain text');
    await expect(loadEvalSet('tiny', { setsDir })).rejects.toThrow(/tiny\/corpus\.tar\.gz: cannot read the corpus archive/);
  });
});
