import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { Env } from './routes/shared.ts';

/**
 * One structured line per request: method, route (the pattern, e.g. `/api/prompts/:id`, so ids do not make
 * every line unique), status, duration and the user. Never the query string, headers or body: tokens and
 * secrets travel there. A 5xx is also logged with its cause by `reportError`.
 */
export function requestLog(log: Logger): MiddlewareHandler<Env> {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const line = {
        method: c.req.method,
        // The route of the handler that answered; a path no route matched is logged as such.
        route: routePath(c) || 'unmatched',
        status: c.res.status,
        durationMs: Math.round((performance.now() - start) * 10) / 10,
        userId: c.get('userId'),
      };
      // At info whatever the status: a 5xx's error and causes are their own error line (reportError).
      log.info(line, 'request');
    }
  };
}
