import { createRoute } from '@hono/zod-openapi';
import { ServerInfo } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

export type ServerIdentity = {
  model: { id: string; label: string; demo: boolean };
  /** The ids of the plugins the server runs. */
  plugins: readonly string[];
};

/** `/health` (no token: for load balancers) and `/api/me`: who you are, which model, which plugins. */
export function meRoutes(app: Api, { model, plugins }: ServerIdentity): void {
  app.get('/health', (c) => c.json({ ok: true, model }));
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me',
      operationId: 'getMe',
      summary: 'Who you are, which model answers, and which plugins the server runs',
      responses: { 200: json(ServerInfo, 'The user, the model and the plugins'), 401: errors[401] },
    }),
    (c) => c.json({ userId: c.var.userId, model, plugins: [...plugins] }, 200),
  );
}
