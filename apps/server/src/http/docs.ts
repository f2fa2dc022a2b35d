import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Api } from './routes/shared.ts';

/** Scalar's viewer as one browser script, from the npm package: /docs needs nothing from another host. */
const VIEWER = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference/style.css')),
  'browser/standalone.js',
);

/**
 * The page's own CSP: scripts from this origin only (no inline script: the settings are in /docs/init.js).
 * The viewer inserts its stylesheet as a <style> element, hence inline styles.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Tessera API</title>
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/no-eval.js"></script>
    <script src="/docs/viewer.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/**
 * No fonts from Scalar's CDN, no "open in client" links to their site: everything stays here. (The element
 * is not `#api-reference`: the script would mount a second viewer there by itself, with its defaults.)
 */
const INIT = `Scalar.createApiReference('#reference', ${JSON.stringify({
  url: '/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
})});\n`;

/**
 * Before the viewer: its copy of zod would probe `Function('')` (a CSP violation, blocked) to decide whether
 * to compile its parsers; told to run without, it never tries.
 */
const NO_EVAL = 'globalThis.__zod_globalConfig = { jitless: true };\n';

/** `/docs`: the API reference, its viewer served by this server (works offline, under a strict CSP). */
export function docsRoutes(app: Api): void {
  /** Read once, at the first request (4 MB the server does not hold unless someone opens /docs). */
  let viewer: Promise<string> | undefined;
  const readViewer = () => {
    viewer ??= readFile(VIEWER, 'utf8');
    return viewer;
  };
  const script = (body: string) =>
    new Response(body, {
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=3600',
      },
    });
  app.get('/docs', (c) => c.html(PAGE, 200, { 'content-security-policy': DOCS_CSP }));
  app.get('/docs/no-eval.js', () => script(NO_EVAL));
  app.get('/docs/init.js', () => script(INIT));
  app.get('/docs/viewer.js', async () => script(await readViewer()));
}
