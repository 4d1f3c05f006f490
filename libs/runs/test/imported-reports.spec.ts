import { renderAll } from '@dossier/render';
import { ReportJson } from '@dossier/contracts';
import { fixtureReport } from '@dossier/testing';
import { importedReports } from '../src/run-archives';

const NEW_ID = '11111111-2222-4333-8444-555555555555';

/** Issue 28: an imported run's report header shows the imported run's id, with the original named as its source. */
describe("an imported run's report files", () => {
  it('are rendered again under the new id, naming the original run, in the formats the archive carried', async () => {
    const original = { ...fixtureReport(), runId: '99999999-8888-4777-8666-555555555555' };
    const files = await renderAll(original);
    const archived = [
      { format: 'md' as const, content: files.md },
      { format: 'json' as const, content: files.json },
      { format: 'pdf' as const, content: files.pdf.toString('base64') },
    ];
    const stored = await importedReports(archived, NEW_ID, original.runId);
    expect(stored.map((f) => f.format)).toEqual(['md', 'json', 'pdf']);
    const md = stored.find((f) => f.format === 'md')!.content;
    expect(md).toContain(`Run: ${NEW_ID} (imported from run ${original.runId})`);
    const json = ReportJson.parse(JSON.parse(stored.find((f) => f.format === 'json')!.content));
    expect([json.runId, json.importedFrom]).toEqual([NEW_ID, original.runId]);
    expect(json.sections).toEqual(original.sections);
    expect(
      Buffer.from(stored.find((f) => f.format === 'pdf')!.content, 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('of an archive without a readable report.json are kept as they came', async () => {
    const archived = [{ format: 'md' as const, content: '# The imported report\n\nIt says something.' }];
    expect(await importedReports(archived, NEW_ID, 'old')).toEqual(archived);
  });
});
