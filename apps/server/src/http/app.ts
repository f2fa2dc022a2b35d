import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import type { SkillsPlugin } from '@tessera/plugin-skills';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { RateLimiters } from '../rate-limiters.ts';
import { aiSdkChatRoutes } from './ai-sdk/chat-route.ts';
import { API_INTRODUCTION, tagsInUse } from './api-reference.ts';
import { type AuthOptions, authenticate } from './auth.ts';
import { docsRoutes } from './docs.ts';
import { HttpError, reportError } from './errors.ts';
import type { EventLog } from './event-log.ts';
import { openAICompatRoutes } from './openai-compat/index.ts';
import { rateLimit } from './rate-limit.ts';
import { requestLog } from './request-log.ts';
import { approvalRoutes } from './routes/approvals.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { eventRoutes } from './routes/events.ts';
import { meRoutes } from './routes/me.ts';
import { messageRoutes } from './routes/messages.ts';
import { pauseRoutes } from './routes/pauses.ts';
import { pluginRoutes, ROUTED_PLUGINS } from './routes/plugin-routes.ts';
import { promptRoutes } from './routes/prompts.ts';
import { type ContextOptions, reportRoutes } from './routes/reports.ts';
import { searchRoutes } from './routes/search.ts';
import { sessionRoutes } from './routes/session.ts';
import { type Env, errors, invalidRequest } from './routes/shared.ts';
import { toolCallRoutes } from './routes/tool-calls.ts';
import { toolRunRoutes } from './routes/tool-runs.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import { SESSION_COOKIE } from './session.ts';
import type { UserEventLog } from './user-events.ts';

/**
 * The paths of the API and its reference (/api, /v1, /openapi…, /docs/…): one that no route serves is a
 * JSON 404 for the program that asked, never the web UI's page with a 200.
 */
const API_PATHS = /^\/(?:(?:api|v1|docs)(?:\/|$)|openapi)/;

/** OpenAPI 3.1's SPDX form (the document type's LicenseObject predates `identifier`). */
const MIT = { name: 'MIT', identifier: 'MIT' };

export type AppOptions = {
  platform: Platform;
  /** The ids of the plugins in the set: plugin routes are mounted for these only. */
  plugins: readonly string[];
  /** The built-in skills plugin's catalogue, when it is in the set (for /api/skills). */
  skills: SkillsPlugin | undefined;
  events: EventLog;
  /** Each user's conversation changes and waiting states (GET /api/me/events). */
  userEvents: UserEventLog;
  auth: AuthOptions;
  model: { id: string; label: string; demo: boolean };
  maxBodyBytes: number;
  /** For a prompt sent with files (multipart/form-data). */
  maxUploadBytes: number;
  /** The longest input a client can give the model (a prompt, a message, edited arguments): longer is a 413. */
  maxInputChars: number;
  /** Per address and per user (see ./rate-limit.ts); none: no limits. */
  rateLimits?: RateLimiters;
  /** Aborted at shutdown: event streams end cleanly. */
  shutdown: AbortSignal;
  heartbeatMs?: number;
  /** Bytes of events a stream may have waiting while its connection takes nothing (see ./routes/events.ts). */
  streamQueueBytes?: number;
  /** Event streams one user may have open at once. */
  streamsPerUser?: number;
  /** The built web UI, served at `/` (any path that is not the API falls back to its index.html). */
  webDir?: string;
  /** Where unexpected errors go (with their causes); the client gets a 500 without them. */
  log?: Logger;
  /** For run reports: the history budget and the model's token estimate, as the projection uses them. */
  context?: ContextOptions;
};

/**
 * The HTTP API: REST + JSON validated by zod, an OpenAPI document from the same schemas, and SSE events.
 * Each resource's routes are in ./routes; this composes them behind body limits and authentication.
 */
export function createApp(options: AppOptions) {
  const { platform } = options;
  const plugins = new Set(options.plugins);
  const app = new OpenAPIHono<Env>({
    defaultHook: (result) => {
      if (!result.success) throw invalidRequest(result.error as z.ZodError);
    },
  });
  // Every response, errors included; a route's own CSP (downloads' sandbox, /docs) is kept.
  app.use(secureHeaders(SECURITY_HEADERS));
  // One line per request (method, route, status, duration, user), first so that it times everything.
  if (options.log) app.use(requestLog(options.log));
  app.onError((error, c) => reportError(c, error, options.log));
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}.` } }, 404),
  );

  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new HttpError(413, 'payload_too_large', `The request body is over ${maxSize} bytes.`);
      },
    });
  const jsonLimit = limit(options.maxBodyBytes);
  const uploadLimit = limit(options.maxUploadBytes);
  app.use('/api/*', (c, next) =>
    (c.req.header('content-type')?.startsWith('multipart/form-data') ? uploadLimit : jsonLimit)(c, next),
  );
  const limits = rateLimit(options.rateLimits, options.log);
  const authenticated = limits.around(authenticate(options.auth));
  app.use('/api/*', ...authenticated);
  app.use(limits.outsideApi);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The session cookie of a browser that signed in (POST /api/session): it authorizes event streams and downloads too. Requests that change anything must also send `X-Requested-With`.',
  });

  sessionRoutes(app, options.auth.sessions);
  meRoutes(app, { model: options.model, plugins: options.plugins, maxUploadBytes: options.maxUploadBytes });
  conversationRoutes(app, platform, options.events);
  searchRoutes(app, platform);
  const { maxInputChars } = options;
  promptRoutes(app, platform, { canStoreFiles: plugins.has(ROUTED_PLUGINS.files), maxInputChars });
  reportRoutes(app, platform, options.context);
  approvalRoutes(app, platform, { maxInputChars });
  messageRoutes(app, platform, { maxInputChars });
  pauseRoutes(app, platform);
  toolCallRoutes(app, platform);
  toolRunRoutes(app, platform, { maxInputChars });
  eventRoutes(app, platform, options);
  pluginRoutes(app, platform, { plugins, skills: options.skills, maxInputChars });
  openAICompatRoutes(app, platform, { guards: [jsonLimit, ...authenticated], maxInputChars });
  aiSdkChatRoutes(app, platform, { maxInputChars, keepAliveMs: options.heartbeatMs ?? 15_000 });

  // Any operation may be refused for its rate limit: documented once for all, plugin routes included.
  if (options.rateLimits) {
    for (const definition of app.openAPIRegistry.definitions)
      if (definition.type === 'route') definition.route.responses[429] ??= errors[429];
  }
  // A request that changes anything is refused with a 403 when signed in by the cookie alone (see
  // authenticate): every operation that needs credentials and is not a read says so.
  for (const definition of app.openAPIRegistry.definitions) {
    const route = definition.type === 'route' ? definition.route : undefined;
    if (route && route.method !== 'get' && route.security?.length !== 0) route.responses[403] ??= errors[403];
  }
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: '0.1.0',
      description: API_INTRODUCTION,
      license: MIT,
    },
    // Relative: the API is where this document is served from, whatever the host and port.
    servers: [{ url: '/', description: 'This server' }],
    security: [{ bearer: [] }, { session: [] }],
    tags: tagsInUse(app),
  });
  docsRoutes(app);
  if (options.webDir) {
    const root = options.webDir;
    // Everything but the API is the web UI: its files, else its index.html (the UI routes itself).
    // Unknown API routes stay JSON 404s.
    const notApi =
      (handler: MiddlewareHandler): MiddlewareHandler =>
      (c, next) =>
        API_PATHS.test(c.req.path) ? next() : handler(c, next);
    app.get('/*', notApi(serveStatic({ root })));
    app.get('/*', notApi(serveStatic({ root, path: 'index.html' })));
  }
  return app;
}
