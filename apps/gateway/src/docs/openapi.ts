import { z } from 'zod';
import { API_ROUTES, ERROR_SCHEMA, type ApiRoute } from './api-routes';

const COMMON_ERRORS: Record<number, string> = {
  400: 'Invalid request (details list every issue; unknown fields are refused)',
  401: 'Missing, malformed, unknown or revoked API key',
  403: "The key's role (viewer) may not change anything",
  404: "No such resource (or another tenant's)",
  413: 'Body larger than the limit',
  415: 'A body that is not JSON (multipart/form-data only where the route says so)',
  429: "Tenant's rate limit exceeded, or too many failed authentications from this address (see Retry-After)",
};
const EXTRA_ERRORS: Record<number, string> = {
  406: 'No acceptable report format',
  409: 'State conflict (gate not open, run not in a state that allows it, report not ready)',
  410: 'The share link was revoked or has expired (details.reason)',
  422: "Beyond the tenant's policy (details.cap names the limit)",
};

/** JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of the shape a schema accepts as input. */
function schemaOf(schema: z.ZodType): unknown {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** JSON, and multipart/form-data (one file part) where the route takes it: any other media type is a 415. */
function requestContent(route: ApiRoute, body: z.ZodType): Record<string, unknown> {
  return {
    'application/json': { schema: schemaOf(body) },
    ...(route.multipart
      ? {
          'multipart/form-data': {
            schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
          },
        }
      : {}),
  };
}

function operation(route: ApiRoute): Record<string, unknown> {
  const auth = route.auth !== false;
  const parameters: unknown[] = [];
  const pathSchemas = route.paramSchema ? ((schemaOf(route.paramSchema) as { properties?: Record<string, unknown> }).properties ?? {}) : {};
  for (const name of route.params ?? [])
    parameters.push({ name, in: 'path', required: true, schema: pathSchemas[name] ?? { type: 'string', format: 'uuid' } });
  if (route.query) {
    const q = schemaOf(route.query) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {}))
      parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
  }
  for (const [name, h] of Object.entries(route.headers ?? {}))
    parameters.push({ name, in: 'header', required: h.required ?? false, description: h.description, schema: { type: 'string' } });
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const responses: Record<string, unknown> = {
    [String(route.ok.status)]: {
      description: route.ok.description,
      ...(route.ok.schema
        ? { content: { 'application/json': { schema: schemaOf(route.ok.schema) } } }
        : { content: Object.fromEntries((route.ok.mediaTypes ?? ['application/json']).map((m) => [m, {}])) }),
    },
  };
  const errors = auth ? [...Object.keys(COMMON_ERRORS).map(Number), ...(route.errors ?? [])] : (route.errors ?? []);
  for (const status of errors.sort())
    responses[String(status)] = { description: COMMON_ERRORS[status] ?? EXTRA_ERRORS[status] ?? 'Error', content: errorContent };
  return {
    summary: route.summary,
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: requestContent(route, route.body) } } : {}),
    responses,
    ...(auth ? {} : { security: [] }),
  };
}

/** The OpenAPI 3.1 document of the gateway, built from the same zod schemas the handlers validate with. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) (paths[route.path] ??= {})[route.method] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Dossier gateway API',
      version: '1.0.0',
      description: 'Submit research runs, follow them live, decide their gates, fetch their reports. Each tenant sees only its own.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer dsk_<prefix>_<secret> (or X-API-Key)' },
      },
      schemas: { Error: schemaOf(ERROR_SCHEMA) },
    },
    security: [{ apiKey: [] }],
    paths,
  };
}
