import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { FakeOpenAIServer } from '@dossier/testing';
import { director } from '../../src/roles';
import { memoryHooks, startFakeLlm, testEngine } from '../fixtures/fake-llm';
import { ROLE_INPUTS } from '../fixtures/role-inputs';

describe('one OpenTelemetry span per model request, with the GenAI attributes', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const provider = new TracerProvider({ spanProcessors: [processor] });
  let server: FakeOpenAIServer;
  // The processor hands spans to the exporter asynchronously.
  const finished = async () => {
    await processor.forceFlush();
    return exporter.getFinishedSpans();
  };

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    server = await startFakeLlm();
  });
  afterAll(async () => {
    await server?.stop();
    trace.disable();
  });
  beforeEach(() => exporter.reset());

  it('usage and model on success; error.type on a 429; no prompt text by default', async () => {
    server.script('director', { kind: 'status', status: 429, retryAfter: '0' });
    await testEngine(server).complete(director, ROLE_INPUTS.director, memoryHooks('r.scope.0.0'));
    const spans = await finished();
    expect(spans).toHaveLength(2);
    const [failed, ok] = spans;
    expect(failed!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'fake-model',
      'error.type': '429',
    });
    expect(ok!.name).toBe('chat fake-model');
    expect(ok!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai_compatible',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.usage.input_tokens': server.counts.promptTokens,
      'gen_ai.usage.output_tokens': server.counts.completionTokens,
      'dossier.agent.role': 'director',
      'dossier.step_key': 'r.scope.0.0',
    });
    expect(ok!.attributes['error.type']).toBeUndefined();
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain(ROLE_INPUTS.director.question);
  });

  it('prompt text is recorded only when OPENAI_CAPTURE_PROMPTS is on', async () => {
    await testEngine(server, { OPENAI_CAPTURE_PROMPTS: 'true' }).complete(director, ROLE_INPUTS.director, memoryHooks());
    const [span] = await finished();
    expect(String(span!.attributes['gen_ai.input.messages'])).toContain(ROLE_INPUTS.director.question.slice(0, 30));
  });
});
