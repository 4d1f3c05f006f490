import { sql } from '@dossier/testing';
import { CorpusSearchProvider, ingestPaths, SearchHitSchema, type SearchHit } from '../../src';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';
import { tempFolder, writeTree } from '../fixtures/files';

describe('CorpusSearchProvider (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let prisma: TestClient;
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let corpus: CorpusSearchProvider;
  const tenantA = newTenant();
  const tenantB = newTenant();

  beforeAll(async () => {
    database = await openDatabase();
    prisma = database.prisma;
    corpus = new CorpusSearchProvider(prisma);
    folder = await tempFolder('search');
    await writeTree(`${folder.dir}/a-energy`, {
      'tidal.md':
        '# Tidal turbines\n\nTidal turbines sit in strong tidal streams. Tidal power is predictable, and the La Rance plant in France has a capacity of 240 megawatts.',
      'wind.md':
        '# Wind farms\n\nWind turbines on hills produce power when the wind blows. Offshore wind farms are larger than those on land.',
      'solar.txt': 'Solar panels\n\nSolar power peaks at noon. A tidal lagoon was once proposed next to the solar farm.',
      'notes/coal.txt': 'Coal plants\n\nCoal plants are being closed across Europe.',
    });
    await writeTree(`${folder.dir}/a-history`, {
      'tidal-mills.md': '# Tidal mills\n\nMedieval tidal mills ground grain with the tide.',
    });
    await writeTree(`${folder.dir}/b-energy`, {
      'geothermal.md': '# Geothermal wells\n\nGeothermal heat from deep wells warms Reykjavik. Marmalade is not involved.',
    });
    await ingestPaths(prisma, { tenantId: tenantA, collection: 'energy', paths: [`${folder.dir}/a-energy`] });
    await ingestPaths(prisma, { tenantId: tenantA, collection: 'history', paths: [`${folder.dir}/a-history`] });
    await ingestPaths(prisma, { tenantId: tenantB, collection: 'energy', paths: [`${folder.dir}/b-energy`] });
  });
  afterAll(async () => {
    await folder?.cleanup();
    await database?.close();
  });

  const urls = (hits: SearchHit[]) => hits.map((h) => h.url);

  it('ranks the best-matching document first and describes every hit', async () => {
    const hits = await corpus.search({ tenantId: tenantA, query: 'tidal turbines', limit: 10 });
    expect(urls(hits)[0]).toBe('corpus://energy/tidal.md');
    for (const hit of hits) expect(SearchHitSchema.parse(hit)).toEqual(hit);
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    expect([...hits.map((h) => h.score)].sort((x, y) => y - x)).toEqual(hits.map((h) => h.score));
    const top = hits[0]!;
    expect(top).toMatchObject({ provider: 'corpus', origin: 'corpus', title: 'Tidal turbines' });
    const stored = await prisma.document.findFirstOrThrow({ where: { tenantId: tenantA, path: 'tidal.md' } });
    expect(top.documentId).toBe(stored.id);
  });

  it('returns plain-text snippets around the matched words', async () => {
    const [top] = await corpus.search({ tenantId: tenantA, query: 'capacity megawatts', limit: 3 });
    expect(top!.snippet).toMatch(/capacity of 240 megawatts/);
    expect(top!.snippet).not.toMatch(/<\/?b>|\n/);
  });

  it('falls back to any of the words when no document has all of them', async () => {
    const question = 'How many megawatts does the Severn barrage generate?';
    const hits = await corpus.search({ tenantId: tenantA, query: question, limit: 5 });
    expect(urls(hits)).toEqual(['corpus://energy/tidal.md']);
  });

  it('understands web-search syntax: quoted phrases and exclusions', async () => {
    expect(urls(await corpus.search({ tenantId: tenantA, query: 'tidal -solar', collection: 'energy', limit: 10 }))).toEqual([
      'corpus://energy/tidal.md',
    ]);
    expect(urls(await corpus.search({ tenantId: tenantA, query: '"offshore wind"', limit: 10 }))).toEqual(['corpus://energy/wind.md']);
  });

  it('filters by collection when one is given', async () => {
    expect(urls(await corpus.search({ tenantId: tenantA, query: 'tidal', collection: 'history', limit: 10 }))).toEqual([
      'corpus://history/tidal-mills.md',
    ]);
    const all = urls(await corpus.search({ tenantId: tenantA, query: 'tidal', limit: 10 }));
    expect(all).toEqual(
      expect.arrayContaining(['corpus://history/tidal-mills.md', 'corpus://energy/tidal.md', 'corpus://energy/solar.txt']),
    );
    expect(all).toHaveLength(3);
  });

  it('never shows one tenant the documents of another', async () => {
    expect(await corpus.search({ tenantId: tenantB, query: 'tidal turbines wind solar', limit: 10 })).toEqual([]);
    expect(await corpus.search({ tenantId: tenantA, query: 'geothermal marmalade', limit: 10 })).toEqual([]);
    expect(urls(await corpus.search({ tenantId: tenantB, query: 'geothermal', collection: 'energy', limit: 10 }))).toEqual([
      'corpus://energy/geothermal.md',
    ]);
    expect(await corpus.search({ tenantId: newTenant(), query: 'tidal', limit: 10 })).toEqual([]);
  });

  it('respects the limit', async () => {
    expect(await corpus.search({ tenantId: tenantA, query: 'power', limit: 1 })).toHaveLength(1);
  });

  it('treats the query as data: stop words only, punctuation and SQL find nothing and break nothing', async () => {
    expect(await corpus.search({ tenantId: tenantA, query: 'the of and', limit: 5 })).toEqual([]);
    expect(await corpus.search({ tenantId: tenantA, query: `'); DROP TABLE documents; -- & | ! <->`, limit: 5 })).toEqual([]);
    expect(await sql(database.db.url, 'SELECT count(*)::int AS n FROM documents')).toEqual([{ n: 6 }]);
  });

  it('validates the query', async () => {
    await expect(corpus.search({ tenantId: 'x', query: 'tidal', limit: 5 })).rejects.toThrow();
    await expect(corpus.search({ tenantId: tenantA, query: '   ', limit: 5 })).rejects.toThrow();
    await expect(corpus.search({ tenantId: tenantA, query: 'tidal', limit: 0 })).rejects.toThrow();
  });

  // Runs last: it adds documents, which the count above would see.
  it('ranks at passage level: the page that answers in one paragraph beats a long page naming every word apart', async () => {
    const tenant = newTenant();
    const filler = (word: string) => `Some general text about the ${word}, repeated to make the page long and wordy.`;
    await writeTree(`${folder.dir}/manual`, {
      'answer.md': '# Stash commands\n\npop\n\nRemove a single stashed state from the stash list and apply it.\n',
      'long.md': `# Everything\n\n${['stash', 'pop', 'remove', 'state', 'list', 'apply', 'stash', 'pop', 'stash', 'pop']
        .map((w) => `${filler(w)} ${filler(w)}`)
        .join('\n\n')}\n`,
    });
    await ingestPaths(prisma, { tenantId: tenant, collection: 'manual', paths: [`${folder.dir}/manual`] });
    const hits = await corpus.search({ tenantId: tenant, query: 'What does git stash pop do to the stash list?', limit: 5 });
    expect(urls(hits)).toEqual(['corpus://manual/answer.md', 'corpus://manual/long.md']);
    // The short line above a paragraph is its label: "pop" counts for the sentence under it, and the snippet is that paragraph.
    expect(hits[0]!.snippet).toMatch(/Remove a single stashed state from the stash list/);
    // Passages follow the document: re-ingested with other text, the old paragraphs are gone.
    await writeTree(`${folder.dir}/manual`, { 'answer.md': '# Stash commands\n\nNothing about it any more.\n' });
    await ingestPaths(prisma, { tenantId: tenant, collection: 'manual', paths: [`${folder.dir}/manual`] });
    expect(urls(await corpus.search({ tenantId: tenant, query: 'single', limit: 5 }))).toEqual([]);
  });

  // Adds documents too (another tenant), after the count above.
  it('finds the page that documents a dotted name under its parts (`subprocess.run`: "subprocess", "run")', async () => {
    const tenant = newTenant();
    await writeTree(`${folder.dir}/stdlib`, {
      'subprocess.txt':
        'subprocess --- Subprocess management\n\nThe recommended approach to invoking subprocesses is to use the run function.\nrun waits for the command to complete.',
      'argparse.txt': 'argparse --- Parser for command-line options\n\nA command can run an external command when it fails.',
    });
    await ingestPaths(prisma, { tenantId: tenant, collection: 'stdlib', paths: [`${folder.dir}/stdlib`] });
    const hits = await corpus.search({ tenantId: tenant, query: 'subprocess.run external command', limit: 5 });
    expect(urls(hits)[0]).toBe('corpus://stdlib/subprocess.txt');
  });

  it('reads a command-line option as a word of the query, not an exclusion, so the page documenting it is found (decision 0108)', async () => {
    const tenant = newTenant();
    await writeTree(`${folder.dir}/git`, {
      'git-commit.txt':
        'git-commit - Record changes to the repository\n\n--amend\nReplace the tip of the current branch by creating a new commit. The message from the original commit is used as the starting point.',
      'git-tutorial.txt':
        'A git tutorial\n\nTo fix the last commit message, a git user may amend history in many ways; the tutorial shows the commit log first.',
    });
    await ingestPaths(prisma, { tenantId: tenant, collection: 'git', paths: [`${folder.dir}/git`] });
    // websearch_to_tsquery read "--amend" as `!!amend`: an AND of every word, which only the tutorial holds.
    const hits = await corpus.search({ tenantId: tenant, query: 'How do I fix the last commit message with git commit --amend', limit: 5 });
    expect([...urls(hits)].sort()).toEqual(['corpus://git/git-commit.txt', 'corpus://git/git-tutorial.txt']);
    // Short options too ("git log -S"), while "-word" stays an exclusion.
    expect(urls(await corpus.search({ tenantId: tenant, query: 'git commit -S message', limit: 5 }))).toContain(
      'corpus://git/git-commit.txt',
    );
    expect(urls(await corpus.search({ tenantId: tenant, query: 'commit -tutorial', limit: 5 }))).toEqual(['corpus://git/git-commit.txt']);
  });

  it('weighs a word by its rarity in the corpus: the one page naming the rare word beats pages holding more common ones (0145)', async () => {
    const tenant = newTenant();
    // Common words are common: six pages each holding "file", "load" and "safe" together, one page on pickle.
    const common = ['zipfile', 'stat', 'tempfile', 'shutil', 'fileinput', 'filecmp'];
    await writeTree(`${folder.dir}/rare`, {
      'pickle.txt': 'pickle --- Python object serialization\n\nThe pickle module is not secure: only load data you trust.',
      ...Object.fromEntries(
        common.map((name) => [`${name}.txt`, `${name} --- file handling\n\nOpen the file to load it; the ${name} reader is safe.`]),
      ),
    });
    await ingestPaths(prisma, { tenantId: tenant, collection: 'rare', paths: [`${folder.dir}/rare`] });
    // ts_rank_cd alone ranked the pages holding three of the question's words together above the one holding two.
    const hits = await corpus.search({ tenantId: tenant, query: 'Is it safe to load pickle files that I download?', limit: 5 });
    expect(urls(hits)[0]).toBe('corpus://rare/pickle.txt');
    expect(hits).toHaveLength(5);
  });

  it('gives equal passages equal scores, in path order, the same on every search', async () => {
    const tenant = newTenant();
    await writeTree(`${folder.dir}/ties`, {
      'jam-b.txt': 'Jam cellar\n\nQuince marmalade, second jar.',
      'jam-a.txt': 'Jam shelf\n\nQuince marmalade, first jar.',
    });
    await ingestPaths(prisma, { tenantId: tenant, collection: 'ties', paths: [`${folder.dir}/ties`] });
    const first = await corpus.search({ tenantId: tenant, query: 'quince marmalade', limit: 5 });
    expect(urls(first)).toEqual(['corpus://ties/jam-a.txt', 'corpus://ties/jam-b.txt']);
    expect(first[0]!.score).toBe(first[1]!.score);
    expect(await corpus.search({ tenantId: tenant, query: 'quince marmalade', limit: 5 })).toEqual(first);
  });
});
