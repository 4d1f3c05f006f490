import { ApiErrorBody } from '@dossier/contracts';
import { UnrecoverableError } from '@dossier/errors';

/** The gateway answered with an error: its `{ error, message }` is what the user reads. */
export class GatewayRequestError extends UnrecoverableError {
  readonly code = 'gateway_error';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message, { details: { status, error } });
  }
}

/** The gateway could not be reached at all. */
export class GatewayUnreachableError extends UnrecoverableError {
  readonly code = 'gateway_unreachable';
}

/** HTTP to the gateway API, authenticated with one key: requests, and its `{ error, message }` bodies as typed errors. */
export class GatewayHttp {
  readonly base: string;

  constructor(
    base: string,
    private readonly key: string,
  ) {
    this.base = base.replace(/\/+$/, '');
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.key}`, ...extra };
  }

  async request(method: string, path: string, body?: unknown, extra: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: this.headers({ ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra }),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new GatewayUnreachableError(
        `Cannot reach the gateway at ${this.base}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`,
        { cause: err },
      );
    }
    if (!res.ok) {
      const text = await res.text();
      let parsed: ApiErrorBody | undefined;
      try {
        const r = ApiErrorBody.safeParse(JSON.parse(text));
        if (r.success) parsed = r.data;
      } catch {
        // not our error shape (a proxy's page): fall through to the status line
      }
      throw new GatewayRequestError(
        res.status,
        parsed?.error ?? 'http_error',
        `${parsed?.message ?? `${res.status} ${res.statusText}`} (HTTP ${res.status})`,
      );
    }
    return res;
  }

  async json<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    return (await (await this.request(method, path, body, extra)).json()) as T;
  }

  async bytes(path: string): Promise<Buffer> {
    return Buffer.from(await (await this.request('GET', path)).arrayBuffer());
  }
}
