import type { FakeOpenAIServer } from '@dossier/testing';
import { AgentRunner } from '../../src/agent-runner';
import { conformToSchema } from '../../src/openai/conform';
import { closeTruncatedJson } from '../../src/openai/parse-output';
import {
  claimBuilder,
  counterEvidence,
  coverageAssessor,
  director,
  moderator,
  perspectivePlanner,
  questionArchitect,
  sectionWriter,
} from '../../src/roles';
import { memoryHooks, startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { MemoryAgentStore } from '../fixtures/memory-agent-store';
import { ROLE_INPUTS } from '../fixtures/role-inputs';

const CTX = { tenantId: '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b', runId: '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a', stepKey: 'run.x.0.0' };

function memoryStore(): { store: MemoryAgentStore; rows: Record<string, unknown>[] } {
  const store = new MemoryAgentStore();
  return { store, rows: store.calls as unknown as Record<string, unknown>[] };
}

describe('model output is untrusted input', () => {
  let server: FakeOpenAIServer;
  beforeEach(async () => {
    server = await startFakeLlm();
  });
  afterEach(async () => {
    await server?.stop();
  });

  describe('mended locally, before a repair request is spent', () => {
    it('fences, prose before and text after the JSON, wrong-case enums, extra keys and null for a list: one request', async () => {
      const good = director.offline(ROLE_INPUTS.director);
      server.script('director', {
        kind: 'raw',
        content: `Sure, here is the objective:\n\`\`\`json\n${JSON.stringify({ ...good, riskLevel: 'LOW', excludedTopics: null, confidence: 0.9 })}\n\`\`\`\nLet me know if you need more.`,
      });
      const hooks = memoryHooks();
      const done = await testEngine(server).complete(director, ROLE_INPUTS.director, hooks);
      expect(done.output).toEqual({ ...good, riskLevel: 'low', excludedTopics: [] });
      expect(server.counts.chatRequests).toBe(1);
      expect(hooks.records[0]!.notes?.localRepairs?.sort()).toEqual(['enum_case', 'extra_keys', 'fence', 'null_array']);
    });

    it('no text can cause a database error: NUL characters are removed, numbers written as text parsed', () => {
      const conformed = conformToSchema(director.output, {
        ...director.offline(ROLE_INPUTS.director),
        statement: 'The lake\u0000 fell.',
        includedTopics: ['water\u0000 level'],
      });
      expect(conformed.value).toMatchObject({ statement: 'The lake fell.', includedTopics: ['water level'] });
      expect(conformed.repairs).toEqual(['control_chars']);
      expect(conformToSchema(moderator.output, { followUps: [{ parentId: null, text: 'x?', priority: '40' }] })).toEqual({
        value: { followUps: [{ parentId: null, text: 'x?', priority: 40 }] },
        repairs: ['number_text'],
        trimmed: [],
      });
    });

    it('truncated JSON: closed after its last whole element; the half-written one is dropped', async () => {
      const good = questionArchitect.offline(ROLE_INPUTS.questionArchitect);
      const json = JSON.stringify(good);
      const cut = json.slice(0, json.lastIndexOf('"text"') + 15);
      expect(closeTruncatedJson(cut)).toEqual({ questions: good.questions.slice(0, -1) });
      server.script('questionArchitect', { kind: 'raw', content: cut });
      const hooks = memoryHooks();
      const done = await testEngine(server).complete(questionArchitect, ROLE_INPUTS.questionArchitect, hooks);
      expect(done.output.questions).toEqual(good.questions.slice(0, -1));
      expect(hooks.records.map((r) => [r.outcome, r.notes?.localRepairs])).toEqual([['ok', ['truncated']]]);
    });

    it('soft limits are trimmed with a count, not failed: a 250-character role, more perspectives than asked for', async () => {
      const good = perspectivePlanner.offline(ROLE_INPUTS.perspectivePlanner);
      const long = `${'senior analyst of regional water management and hydrology '.repeat(5)}`.trim();
      expect(long.length).toBeGreaterThan(250);
      server.script('perspectivePlanner', {
        kind: 'json',
        value: { perspectives: [{ ...good.perspectives[0]!, role: long }, ...good.perspectives, good.perspectives[0]] },
      });
      const hooks = memoryHooks();
      const done = await testEngine(server).complete(perspectivePlanner, ROLE_INPUTS.perspectivePlanner, hooks);
      expect(done.output.perspectives).toHaveLength(ROLE_INPUTS.perspectivePlanner.count);
      expect(done.output.perspectives[0]!.role.length).toBeLessThanOrEqual(200);
      expect(long.startsWith(done.output.perspectives[0]!.role)).toBe(true);
      expect(hooks.records).toEqual([expect.objectContaining({ outcome: 'ok', notes: { trimmed: 3 } })]);
      expect(server.counts.chatRequests).toBe(1);
    });
  });

  describe('ids are checked by kind against what the role was given', () => {
    it('a question whose perspective is of the wrong kind goes into the repair request; still wrong, it becomes a root question', async () => {
      const good = questionArchitect.offline(ROLE_INPUTS.questionArchitect);
      const bad = { questions: good.questions.map((q, i) => (i === 1 ? { ...q, perspectiveId: 'Q2' } : q)) };
      server.script('questionArchitect', { kind: 'json', value: bad }, { kind: 'json', value: bad });
      const hooks = memoryHooks();
      const done = await testEngine(server).complete(questionArchitect, ROLE_INPUTS.questionArchitect, hooks);
      expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/questions name perspective ids that were not given: Q2/);
      expect(done.output.questions[1]).toEqual({ ...good.questions[1], perspectiveId: null });
      expect(done.output.questions.filter((q, i) => i !== 1)).toEqual(good.questions.filter((q, i) => i !== 1));
      expect(hooks.records.map((r) => [r.outcome, r.notes])).toEqual([
        ['invalid', undefined],
        ['ok', { repairRequest: true, droppedIds: 1 }],
      ]);
    });

    it('a contradiction naming an unknown claim is dropped; a follow-up with an unknown parent becomes a root question', async () => {
      const found = { claimAId: 'C1', claimBId: 'C3', kind: 'number', note: 'x' };
      const invented = { claimAId: 'C1', claimBId: 'C77', kind: 'number', note: 'y' };
      server.script('counterEvidence', ...[0, 1].map(() => ({ kind: 'json' as const, value: { contradictions: [found, invented] } })));
      const e = testEngine(server);
      const contradictions = await e.complete(counterEvidence, ROLE_INPUTS.counterEvidence, memoryHooks());
      expect(contradictions.output.contradictions).toEqual([found]);
      const followUp = { parentId: 'free text, not an id', text: 'What figures exist?', priority: 50 };
      server.script('moderator', ...[0, 1].map(() => ({ kind: 'json' as const, value: { followUps: [followUp] } })));
      const moderated = await e.complete(moderator, ROLE_INPUTS.moderator, memoryHooks());
      expect(moderated.output.followUps).toEqual([{ ...followUp, parentId: null }]);
    });

    it('an answer fixed by the repair request is used as it is', async () => {
      const good = claimBuilder.offline(ROLE_INPUTS.claimBuilder);
      server.script('claimBuilder', { kind: 'json', value: { claims: [{ ...good.claims[0], evidenceIds: ['E404'] }] } });
      const hooks = memoryHooks();
      const done = await testEngine(server).complete(claimBuilder, ROLE_INPUTS.claimBuilder, hooks);
      expect(done.output).toEqual(good);
      expect(hooks.records.map((r) => r.notes)).toEqual([undefined, { repairRequest: true }]);
    });
  });

  describe('the runner: an unusable answer skips an optional role and plays a required one offline, counted', () => {
    const unusable = { kind: 'json' as const, value: { nothing: 'useful' } };

    it('a required role falls back to the offline engine for that one call', async () => {
      const { store, rows } = memoryStore();
      server.script('sectionWriter', unusable, unusable);
      const out = await new AgentRunner(store, { engine: testEngine(server) }).run(sectionWriter, ROLE_INPUTS.sectionWriter, CTX);
      expect(out).toEqual(sectionWriter.offline(ROLE_INPUTS.sectionWriter));
      expect(rows.map((r) => [r['engine'], r['outcome'], r['notes']])).toEqual([
        ['openai', 'invalid', { localRepairs: ['extra_keys'] }],
        ['openai', 'invalid', { repairRequest: true, localRepairs: ['extra_keys'], gaveUp: 'offline' }],
        ['offline', 'ok', { fallback: 'unusable' }],
      ]);
    });

    it('a refusal: required roles go offline, optional ones are skipped; neither is asked again', async () => {
      const { store, rows } = memoryStore();
      const runner = new AgentRunner(store, { engine: testEngine(server) });
      server.script('director', { kind: 'refusal', text: 'I cannot help with that.' });
      expect(await runner.run(director, ROLE_INPUTS.director, CTX)).toEqual(director.offline(ROLE_INPUTS.director));
      server.script('coverageAssessor', { kind: 'refusal', text: 'No.' });
      expect(await runner.run(coverageAssessor, ROLE_INPUTS.coverageAssessor, CTX)).toEqual({ coverage: [], informationGain: 0 });
      expect(server.counts.chatRequests).toBe(2);
      expect(rows.map((r) => [r['role'], r['engine'], r['outcome'], r['notes']])).toEqual([
        ['director', 'openai', 'refused', { gaveUp: 'offline' }],
        ['director', 'offline', 'ok', { fallback: 'unusable' }],
        ['coverageAssessor', 'openai', 'refused', { gaveUp: 'skipped' }],
      ]);
    });

    it('a role with nothing to work on is not called', async () => {
      const { store, rows } = memoryStore();
      const runner = new AgentRunner(store, { engine: testEngine(server) });
      expect(await runner.run(claimBuilder, { evidence: [] }, CTX)).toEqual({ claims: [] });
      expect(await runner.run(counterEvidence, { claims: ROLE_INPUTS.counterEvidence.claims, candidatePairs: [] }, CTX)).toEqual({
        contradictions: [],
      });
      expect(server.counts.chatRequests).toBe(0);
      expect(rows).toEqual([]);
    });
  });
});
