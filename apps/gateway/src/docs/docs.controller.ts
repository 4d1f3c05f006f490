import { Controller, Get, Header } from '@nestjs/common';
import { API_ROUTES } from './api-routes';
import { buildOpenApi } from './openapi';

/** `/docs`: a plain page listing the routes, and the OpenAPI 3.1 document at `/docs/openapi.json`. */
@Controller('docs')
export class DocsController {
  private readonly document = buildOpenApi();

  @Get('openapi.json')
  openapi(): Record<string, unknown> {
    return this.document;
  }

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  // Its Content-Security-Policy is the gateway's (GATEWAY_CSP, on every response): inline styles, no script.
  page(): string {
    const rows = API_ROUTES.map(
      (r) =>
        `<tr><td><code>${r.method.toUpperCase()}</code></td><td><code>${r.path}</code></td><td>${r.summary.replace(/</g, '&lt;')}</td></tr>`,
    ).join('\n');
    return `<!doctype html><html><head><meta charset="utf-8"><title>Dossier API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem}td{padding:.2rem .6rem;vertical-align:top}</style></head>
<body><h1>Dossier gateway API</h1><p>OpenAPI 3.1 document: <a href="/docs/openapi.json">/docs/openapi.json</a>. Authenticate with <code>Authorization: Bearer dsk_…</code>.
Errors are <code>{ error, message, details }</code>.</p><table>${rows}</table></body></html>`;
  }
}
