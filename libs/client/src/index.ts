export * from './dossier-client';
export { GatewayHttp, GatewayRequestError, GatewayUnreachableError } from './gateway-http';
export { followEvents } from './event-stream';
export { HttpClient, MissingPathError, type PathWalker, type WalkedUpload } from './http-client';
export { progressLine } from './progress-line';
