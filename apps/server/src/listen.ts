import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** An HTTP server for a fetch handler; `close` lets requests in flight finish, then cuts what is left. */
export async function listenHttp(fetch: FetchHandler, { port, host }: { port: number; host: string }) {
  // A port in use (or not ours to take) rejects, with Node's error (`code`, `port`), instead of crashing.
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch, port, hostname: host }, () => {
      s.off('error', reject);
      resolve(s as Server);
    });
    s.once('error', reject);
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
