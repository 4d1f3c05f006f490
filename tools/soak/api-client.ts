export interface ApiReply {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

/** Transport failures (refused, reset, timed out) and answers a client should retry: 408, 429, 5xx. */
export function retryable(reply: ApiReply | Error): boolean {
  if (reply instanceof Error) return true;
  return reply.status === 408 || reply.status === 429 || reply.status >= 500;
}

/** A tiny JSON client of the gateway for one API key. Never throws for an HTTP status; transport errors come back as Error. */
export class ApiClient {
  /** Every answer by status ('network' for transport errors): a 500 is a finding even when a retry succeeds. */
  readonly statuses: Record<string, number> = {};
  /** The first few 5xx bodies of each status, to name what went wrong. */
  readonly serverErrors: string[] = [];
  private readonly kept: Record<number, number> = {};

  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  async call(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
    timeoutMs = 15_000,
  ): Promise<ApiReply | Error> {
    try {
      const res = await fetch(`${this.base}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      this.statuses[res.status] = (this.statuses[res.status] ?? 0) + 1;
      if (res.status >= 500 && (this.kept[res.status] = (this.kept[res.status] ?? 0) + 1) <= 3)
        this.serverErrors.push(`${method} ${url.replace(/\?.*$/, '')}: ${res.status} ${text.slice(0, 300)}`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    } catch (err) {
      this.statuses['network'] = (this.statuses['network'] ?? 0) + 1;
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  /** Retries transport errors and retryable statuses (backoff up to 2 s) until an answer comes or `until` passes. */
  async persist(
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string>,
    until: number,
  ): Promise<ApiReply & { attempts: number }> {
    for (let attempt = 1; ; attempt++) {
      const reply = await this.call(method, url, body, headers);
      if (!retryable(reply)) return { ...(reply as ApiReply), attempts: attempt };
      if (Date.now() > until) {
        throw new Error(
          `${method} ${url}: no answer before the deadline (last: ${reply instanceof Error ? reply.message : `${reply.status} ${reply.text.slice(0, 200)}`})`,
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** Math.min(attempt, 5))));
    }
  }
}
