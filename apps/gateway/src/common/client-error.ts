import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiErrorBody } from '@dossier/contracts';
import { GATEWAY_CSP } from './http-hardening';

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers beyond the size limit, a request line
 * that is not HTTP, a client that stalls): answered on the socket in the same `{ error, message, details }` shape
 * and with the same security headers as every other answer, then the connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection is gone: nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body]: [number, ApiErrorBody] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          {
            error: 'header_fields_too_large',
            message: 'The request line and headers are larger than the server accepts (a URL this long is refused too)',
            details: { code: err.code },
          },
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { error: 'request_timeout', message: 'The request did not arrive in time', details: { code: err.code } }]
        : [400, { error: 'bad_request', message: 'The request is not valid HTTP', details: { code: err.code ?? null } }];
  if (socket.writable) {
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Security-Policy: ${GATEWAY_CSP}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  }
  socket.destroy(err);
}
