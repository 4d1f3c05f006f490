import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { PrismaService, TenantRepository, verificationFigures } from '../src';

/** The one source of a run's verification figures (decision 0086): live before the report, the report's own after. */
describe('verificationFigures (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const sentence = (text: string, evidenceIds: string[] = []) => ({ text, evidenceIds });
  const report = (verification: Record<string, number>) => ({
    metrics: { verification },
    sections: [
      { id: 'introduction', kind: 'framing', paragraphs: [{ sentences: [sentence('Framing.'), sentence('Found.', ['E1'])] }] },
      { id: 'section-1', kind: 'body', paragraphs: [{ sentences: [sentence('One.', ['E1']), sentence('Two.', ['E2'])] }] },
      { id: 'method', kind: 'method', paragraphs: [{ sentences: [sentence('Engine: offline.')] }] },
    ],
  });

  it('counts checks from the findings while the run has no report; then says what its report printed, an old report counted', async () => {
    const tenants = new TenantRepository(prisma);
    const tenantId = (await tenants.create('figures', {})).id;
    const run = await prisma.researchRun.create({ data: { tenantId, question: 'q', status: 'running', options: {}, workflowVersion: 1 } });
    const runId = run.id;
    const outline = await prisma.outlineSection.create({
      data: { tenantId, runId, revision: 0, position: 0, title: 'S', purpose: '', claimIds: [] },
    });
    for (const [sentence, verdict] of [
      [0, 'supported'],
      [1, 'unsupported'],
    ] as const)
      await prisma.verificationFinding.create({
        data: {
          tenantId,
          runId,
          sectionId: outline.id,
          round: 0,
          paragraph: 0,
          sentence,
          verdict,
          score: 1,
          note: '',
          checks: { guard: [], judge: verdict },
        },
      });

    // Before the report: the checks so far, no sentences yet.
    expect(await verificationFigures(prisma, tenantId, runId)).toMatchObject({
      checked: 2,
      failedByJudge: 1,
      sentences: null,
      supported: null,
    });

    // A report written before the three figures were stored: its sentences outside the method section, the cited ones.
    const artifact = await prisma.reportArtifact.create({
      data: {
        tenantId,
        runId,
        format: 'json',
        content: JSON.stringify(report({ checked: 2, failedByGuard: 0, failedByJudge: 1, repaired: 0, removed: 1 })),
      },
    });
    expect(await verificationFigures(prisma, tenantId, runId)).toMatchObject({ checked: 2, sentences: 4, supported: 3 });

    // A report that stored them: its figures, whatever the rows say now.
    await prisma.reportArtifact.update({
      where: { id: artifact.id },
      data: {
        content: JSON.stringify(
          report({ checked: 7, sentences: 5, supported: 4, rounds: 1, failedByGuard: 0, failedByJudge: 1, repaired: 0, removed: 1 }),
        ),
      },
    });
    expect(await verificationFigures(prisma, tenantId, runId)).toMatchObject({ checked: 7, sentences: 5, supported: 4, rounds: 1 });
    // Another tenant's run has no figures of this one.
    const other = (await tenants.create('other', {})).id;
    expect(await verificationFigures(prisma, other, runId)).toMatchObject({ checked: 0, sentences: null, supported: null });
  });
});
