import { gzipSync } from 'node:zlib';
import { ImportedRunView, ReportJson, RunArchiveExport, RunView } from '@dossier/contracts';
import { GatewayHttp, GatewayRequestError, HttpClient } from '@dossier/client';
import { StopWaiting, waitFor } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';

/** Replay, export and import over `/v1` (decision 0030): the HTTP side of `dossier replay/export/import --api`. */
describe('gateway: replay, archive and import of runs', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let keys: { acme: string; globex: string };
  let runId: string;

  async function finished(call: ReturnType<typeof client>, id: string): Promise<RunView> {
    return waitFor(`run ${id} to finish`, async () => {
      const run = RunView.parse((await call('GET', `/v1/runs/${id}`)).json);
      if (run.status === 'failed' || run.status === 'cancelled') throw new StopWaiting(`run ${id} ${run.status}: ${run.failureReason}`);
      return run.status === 'completed' ? run : undefined;
    });
  }

  /** The report without what differs between a run and its replay: ids, times, the method section. */
  function content(report: ReportJson): unknown {
    return { sections: report.sections.filter((s) => s.kind !== 'method'), evidence: report.evidence, claims: report.claims };
  }

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    keys = { acme: (await gw.tenant('acme')).key, globex: (await gw.tenant('globex')).key };
    api = client(gw.url, keys.acme);
    other = client(gw.url, keys.globex);
    await uploadCorpus(api, 'varen');
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1 },
    });
    expect(created.status).toBe(201);
    runId = created.json.id;
    await finished(api, runId);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('POST /v1/runs/{id}/replay starts a replay that writes the same report; bad requests get typed errors', async () => {
    const replay = await api('POST', `/v1/runs/${runId}/replay`, {});
    expect(replay.status).toBe(201);
    expect(replay.headers.get('location')).toBe(`/v1/runs/${replay.json.id}`);
    expect(RunView.parse(replay.json).options).toMatchObject({ replay: { of: runId } });
    await finished(api, replay.json.id);
    const original = ReportJson.parse((await api('GET', `/v1/runs/${runId}/report.json`)).json);
    const replayed = ReportJson.parse((await api('GET', `/v1/runs/${replay.json.id}/report.json`)).json);
    expect(content(replayed)).toEqual(content(original));

    expect((await other('POST', `/v1/runs/${runId}/replay`, {})).status).toBe(404);
    const node = await api('POST', `/v1/runs/${runId}/replay`, { from: 'drafting' });
    expect(node.status).toBe(400);
    expect(node.json.message).toMatch(/--from drafting is not a node/);
    expect((await api('POST', `/v1/runs/${runId}/replay`, { from: 'Draft!' })).status).toBe(400);
    // A replay starts only from its run: POST /v1/runs refuses options.replay.
    const forged = await api('POST', '/v1/runs', { question: QUESTION, options: { replay: { of: runId } } });
    expect(forged.status).toBe(400);
  });

  it('GET /v1/runs/{id}/archive exports, POST /v1/runs/import imports into another tenant; a bad archive is a 422', async () => {
    const exported = await api('GET', `/v1/runs/${runId}/archive`);
    expect(exported.status).toBe(200);
    const { archive, summary } = RunArchiveExport.parse(exported.json);
    expect(summary).toMatchObject({ runId });
    expect(summary.calls).toBeGreaterThan(0);
    expect((await other('GET', `/v1/runs/${runId}/archive`)).status).toBe(404);

    const imported = await other('POST', '/v1/runs/import', { archive });
    expect(imported.status).toBe(201);
    expect(ImportedRunView.parse(imported.json)).toMatchObject({ status: 'completed', clamped: [] });
    const original = ReportJson.parse((await api('GET', `/v1/runs/${runId}/report.json`)).json);
    expect(ReportJson.parse((await other('GET', `/v1/runs/${imported.json.id}/report.json`)).json).sections).toEqual(original.sections);
    // The importing tenant replays it from the imported recording.
    const replay = await other('POST', `/v1/runs/${imported.json.id}/replay`, {});
    expect(replay.status).toBe(201);
    await finished(other, replay.json.id);
    expect(content(ReportJson.parse((await other('GET', `/v1/runs/${replay.json.id}/report.json`)).json))).toEqual(content(original));

    const garbage = await other('POST', '/v1/runs/import', { archive: Buffer.from('not gzip').toString('base64') });
    expect(garbage.status).toBe(422);
    expect(garbage.json).toMatchObject({ error: 'run_archive_invalid' });
    const wrong = await other('POST', '/v1/runs/import', { archive: gzipSync('{"format":"zip"}').toString('base64') });
    expect(wrong.status).toBe(422);
    expect(wrong.json.message).toMatch(/Not a valid Dossier run archive/);
    expect((await other('POST', '/v1/runs/import', { archive: 'not base64 at all!' })).status).toBe(400);
  });

  it('the HTTP transport of `dossier --api` (HttpClient): export, import, replay; errors as the API says them', async () => {
    const acme = new HttpClient(new GatewayHttp(gw.url, keys.acme));
    const globex = new HttpClient(new GatewayHttp(gw.url, keys.globex));
    const { archive, summary } = await acme.exportRun(runId);
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(summary.runId).toBe(runId);
    const imported = await globex.importRun(archive);
    expect(imported.status).toBe('completed');
    const replay = await globex.replay(imported.id, 'draft');
    expect(replay.options).toMatchObject({ replay: { of: imported.id, from: 'draft' } });
    await finished(other, replay.id);
    await expect(globex.replay(runId)).rejects.toThrow(GatewayRequestError);
    await expect(globex.importRun(Buffer.from('nope'))).rejects.toThrow(/Not a Dossier run archive: not gzip data/);
  });
});
