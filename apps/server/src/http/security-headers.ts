import type { secureHeaders } from 'hono/secure-headers';

/**
 * The headers of every response (hono's secureHeaders). The CSP is the web UI's: its own scripts only (the
 * Vite build has no inline script), images from this origin or data:/blob: (a model's markdown cannot make
 * the browser fetch another host), never framed. Inline styles stay allowed: React sets style attributes.
 * A route that sets a CSP of its own (file downloads' sandbox, /docs) keeps it (`overwrite: false`).
 */
export const SECURITY_HEADERS: Parameters<typeof secureHeaders>[0] = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    mediaSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  referrerPolicy: 'no-referrer',
  xFrameOptions: 'DENY',
  // Only meaningful on https (browsers ignore it on http); a local http server must not be pinned to https.
  strictTransportSecurity: false,
  overwrite: false,
};
