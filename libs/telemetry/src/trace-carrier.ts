import { context, propagation, ROOT_CONTEXT, trace, type Span, SpanKind, type Link } from '@opentelemetry/api';

/** The W3C trace context of the active span, to ride in a job's data. */
export function injectTraceCarrier(): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/**
 * Runs `fn` inside a consumer span whose parent is the producer's context from the job data, so a run
 * is one trace across services. `links` connect a join to the spans of the shards it waited for.
 */
export async function withStepSpan<T>(
  name: string,
  carrier: Record<string, string> | undefined,
  attributes: Record<string, string | number>,
  fn: (span: Span) => Promise<T>,
  links: Link[] = [],
): Promise<T> {
  const parent = carrier ? propagation.extract(context.active(), carrier) : context.active();
  const tracer = trace.getTracer('dossier-workflow');
  return tracer.startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes, links }, parent, (span) => endingSpan(span, () => fn(span)));
}

/** Span links to the producers whose carriers a job holds (a join's shards); unparseable carriers are left out. */
export function linksFromCarriers(carriers: readonly Record<string, string>[] | undefined): Link[] {
  const links: Link[] = [];
  for (const carrier of carriers ?? []) {
    const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
    if (spanContext && trace.isSpanContextValid(spanContext)) links.push({ context: spanContext });
  }
  return links;
}

/**
 * Runs `fn` in a producer span that continues the trace of `carrier` (e.g. the conductor re-enqueueing a
 * step Redis lost), and hands `fn` the carrier of that span, so the step it enqueues is its child.
 */
export async function withProducerSpan<T>(
  name: string,
  carrier: Record<string, string> | undefined,
  attributes: Record<string, string | number>,
  fn: (carrier: Record<string, string> | undefined) => Promise<T>,
): Promise<T> {
  const parent = carrier ? propagation.extract(context.active(), carrier) : context.active();
  return trace
    .getTracer('dossier-workflow')
    .startActiveSpan(name, { kind: SpanKind.PRODUCER, attributes }, parent, (span) =>
      endingSpan(span, () => fn(injectTraceCarrier() ?? carrier)),
    );
}

/** Runs `fn` as the body of `span`: an error is recorded on the span (and rethrown), and the span always ends. */
async function endingSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: 2, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}
