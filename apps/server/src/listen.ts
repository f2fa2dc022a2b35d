import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** An HTTP server for a fetch handler; `close` lets requests in flight finish, then cuts what is left. */
export async function listenHttp(fetch: FetchHandler, { port, host }: { port: number; host: string }) {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port, hostname: host }, () => resolve(s as Server));
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
