import { createServer, type Server } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';

type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * The answer to a request the adapter cannot hand to the app: a path it cannot read (a backslash in it) or a
 * bad Host is the client's 400; anything else is a 500. JSON, as the app's own errors, instead of the
 * adapter's empty bodies.
 */
export function adapterError(error: unknown): Response {
  const refused = error instanceof RequestError;
  const body = refused
    ? { error: { code: 'invalid_request', message: `The request cannot be read: ${error.message}.` } }
    : { error: { code: 'internal_error', message: 'Something went wrong on the server.' } };
  return Response.json(body, {
    status: refused ? 400 : 500,
    headers: { 'x-content-type-options': 'nosniff' },
  });
}

/** An HTTP server for a fetch handler; `close` lets requests in flight finish, then cuts what is left. */
export async function listenHttp(fetch: FetchHandler, { port, host }: { port: number; host: string }) {
  // A port in use (or not ours to take) rejects, with Node's error (`code`, `port`), instead of crashing.
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(getRequestListener(fetch, { hostname: host, errorHandler: adapterError }));
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve(s);
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    async close(graceMs: number): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Connections become idle as their responses (and event streams) end; requests in flight may finish.
      const idle = setInterval(() => server.closeIdleConnections(), 25);
      // Event streams whose client vanished can keep a socket half-open: cut what is left after a grace period.
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearInterval(idle);
      clearTimeout(force);
    },
  };
}
