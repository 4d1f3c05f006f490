/**
 * The Content-Security-Policy of the web app's pages: everything from this origin only, no inline script
 * or style, no eval, no plugins, no framing, no base-URI or form tricks, and Trusted Types enforced so no
 * string can become markup or script. The app fetches only /v1 on the same origin.
 */
export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Headers every page and asset of the web app carries. */
export const WEB_APP_HEADERS: Record<string, string> = {
  'content-security-policy': WEB_APP_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};
