import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

export interface LlmCallInfo {
  /** The engine: "openai" (any OpenAI-compatible endpoint) or "offline". */
  provider: string;
  model: string;
  /** The agent role played in this call (Dossier's own attribute). */
  role: string;
}

export interface LlmUsage {
  model: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

/**
 * Runs one LLM call in a CLIENT span named and attributed per the OpenTelemetry GenAI semantic conventions
 * (`chat <model>`, gen_ai.operation.name, gen_ai.provider.name, gen_ai.request.model, gen_ai.response.model,
 * gen_ai.usage.input_tokens / output_tokens), plus the estimated cost and the agent role.
 */
export async function withLlmSpan<T extends LlmUsage>(info: LlmCallInfo, fn: () => Promise<T>): Promise<T> {
  return trace.getTracer('dossier-agents').startActiveSpan(
    `chat ${info.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': info.provider,
        'gen_ai.request.model': info.model,
        'dossier.agent.role': info.role,
      },
    },
    async (span) => {
      try {
        const usage = await fn();
        span.setAttributes({
          'gen_ai.response.model': usage.model,
          'gen_ai.usage.input_tokens': usage.tokensIn,
          'gen_ai.usage.output_tokens': usage.tokensOut,
          'dossier.llm.cost_usd': usage.costUsd,
        });
        return usage;
      } catch (err) {
        span.recordException(err as Error);
        span.setAttribute('error.type', (err as Error).name);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
