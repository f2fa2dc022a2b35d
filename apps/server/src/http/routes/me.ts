import { createRoute } from '@hono/zod-openapi';
import { tags } from '../api-reference.ts';
import { ServerInfo } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

export type ServerIdentity = {
  model: { id: string; label: string; demo: boolean };
  /** The ids of the plugins the server runs. */
  plugins: readonly string[];
  /** The largest body of a prompt sent with files: a client refuses a larger file when it is chosen. */
  maxUploadBytes: number;
};

/**
 * `/health` (no token: for load balancers; it tells nothing of the server to anyone who can reach it) and
 * `/api/me`: who you are, which model, which plugins, how large an upload may be.
 */
export function meRoutes(app: Api, { model, plugins, maxUploadBytes }: ServerIdentity): void {
  app.get('/health', (c) => c.json({ ok: true }));
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me',
      operationId: 'getMe',
      tags: tags('me'),
      summary: 'Who you are, and what the server runs',
      description:
        'Your user id, the model that answers (`demo: true` for the offline demo model) and the ids of the plugins the server runs, and the largest upload it takes: a client shows what is there.',
      responses: {
        200: json(ServerInfo, 'The user, the model and the plugins', {
          userId: 'ada',
          model: { id: 'demo', label: 'Demo model (offline, rule-based)', demo: true },
          plugins: ['widgets', 'files', 'triggers', 'skills', 'blueprints', 'instructions', 'demo'],
          limits: { maxUploadBytes: 20_000_000 },
        }),
        401: errors[401],
      },
    }),
    (c) => c.json({ userId: c.var.userId, model, plugins: [...plugins], limits: { maxUploadBytes } }, 200),
  );
}
