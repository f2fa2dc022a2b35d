import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type AnyPlugin, createPlatform, type ModelProvider, type Platform, type Store } from '@tessera/core';
import { compactionPlugin, compactionThreshold } from '@tessera/plugin-compaction';
import { estimatorFor } from '@tessera/reports';
import { tracePrompts } from '@tessera/telemetry';
import type { Logger } from 'pino';
import { chooseModel, type ModelInfo, modelNames } from './choose-model.ts';
import { type Composition, composePlugins } from './compose-plugins.ts';
import { parseServerConfig, type ServerConfig, type ServerSettings } from './config.ts';
import { createApp } from './http/app.ts';
import { EventLog } from './http/event-log.ts';
import { ROUTED_PLUGINS } from './http/routes/plugin-routes.ts';
import { createSessions } from './http/session.ts';
import { TokenTable } from './http/tokens.ts';
import { UserEventLog } from './http/user-events.ts';
import { listenHttp } from './listen.ts';
import { localToken, sessionSecret } from './local-token.ts';
import { checkPlugins } from './plugin-shape.ts';
import { logPrompts } from './prompt-log.ts';
import { openRateLimiters, type RateLimiters } from './rate-limiters.ts';
import { openRelay } from './relay.ts';
import { seedBlueprints } from './seed-blueprints.ts';
import { createStore } from './store.ts';
import { toolRunsPlugin } from './tool-runs.ts';
import { watchConversations } from './watch-conversations.ts';

export const LOCAL_USER = 'local';

// From the sources (this repository): the web app's build; from the published package's dist: its copy in web/.
const DEFAULT_WEB_DIR = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../../web/dist' : '../web', import.meta.url),
);

export type CreateServerOptions = ServerSettings & {
  /** Your plugins, served with the built-in ones (a plugin of yours with a built-in's id replaces it). */
  plugins?: readonly AnyPlugin[];
  /** Serve the built-in plugins (widgets, files, triggers, goals, skills, blueprints); default true. */
  defaultPlugins?: boolean;
  /** The model. None (and no `openai` settings): the offline demo model, which alone gets the demo tools. */
  model?: ModelProvider;
  /**
   * The store. None: PostgreSQL at `databaseUrl`, else the embedded database in `dataDir`. The server closes
   * it: in `close()`, or when `createServer` fails.
   */
  store?: Store;
  logger?: Logger;
  /**
   * The built web UI to serve at `/` (null: none); default: the one the package ships (its web/ folder), or
   * in this repository apps/web/dist once built.
   */
  webDir?: string | null;
};

export type TesseraServer = {
  /** The HTTP API, event streams and web UI as a Hono app: `app.fetch` is a standard fetch handler. */
  app: ReturnType<typeof createApp>;
  platform: Platform;
  /** The plugin set the server runs, in order. */
  plugins: readonly AnyPlugin[];
  model: ModelInfo;
  /** The local user's token, when no `auth.tokens` are configured (also in `dataDir`/local-token). */
  token: string | undefined;
  /** Serves `app` over HTTP (default: the `port` and `host` settings; port 0 picks a free one). */
  listen(options?: { port?: number; host?: string }): Promise<{ url: string; port: number }>;
  /** Stops accepting requests, ends event streams, lets running prompts record where they are, closes the store. */
  close(options?: { graceMs?: number }): Promise<void>;
};

/**
 * Tessera as a library: composes the platform from your plugins (with the built-in ones unless
 * `defaultPlugins` is false), a model and a store, and gives the HTTP API, event streams and web UI as one
 * app. Reads no environment variables: the `tessera-server` command does (see `loadConfig`).
 */
export async function createServer(options: CreateServerOptions = {}): Promise<TesseraServer> {
  const {
    plugins: own = [],
    defaultPlugins = true,
    model: givenModel,
    store: givenStore,
    logger: log,
    webDir,
    ...settings
  } = options;
  const parsed = parseServerConfig(settings, 'the options of createServer');
  checkPlugins(own, 'plugins');
  await mkdir(parsed.dataDir, { recursive: true });
  const { model, info } = chooseModel(parsed, givenModel);
  const config = { ...parsed, models: modelNames(parsed, settings.models !== undefined, model) };
  const { plugins, skills } = await composePlugins({
    config,
    plugins: own,
    defaultPlugins,
    demo: info.demo,
    log,
  });
  const { store: created, kind: storeKind } = givenStore
    ? { store: givenStore, kind: 'given' }
    : await createStore(config);
  // Each user's stream (GET /api/me/events) hears of every conversation this process creates, renames or deletes.
  const userEvents = new UserEventLog(replayLimits(config));
  const store = watchConversations(created, userEvents);
  let platform: Platform | undefined;
  let rateLimits: RateLimiters | undefined;
  let relay: Composed['relay'];
  try {
    rateLimits = await openRateLimiters(config, log);
    relay = await openRelay(config, log);
    platform = createPlatform({
      // The tool runner's hook first (it skips the model call of a tool run), then the server's plugins.
      plugins: [toolRunsPlugin, ...plugins, ...compactionOf(config, plugins)],
      model,
      store,
      // NATS when configured; else the store's (PostgreSQL's LISTEN/NOTIFY, or none for one process).
      ...(relay && { relay }),
      models: config.models,
      budgets: config.budgets,
      historyTokens: config.historyTokens,
      maxConversationChars: config.limits.maxConversationChars,
      maxConversations: config.limits.maxConversations,
      maxBranches: config.limits.maxBranches,
      recoverEveryMs: config.recoverEveryMs,
      onRecoveryError: (error) => log?.error({ err: error }, 'recovering prompts failed'),
      onSubscriberError: (error) => log?.warn({ err: error }, 'event subscriber failed'),
      onPluginError: (error) => log?.warn({ err: error, plugin: error.pluginId }, 'plugin failed'),
    });
    return await serve(platform, {
      config,
      plugins,
      skills,
      model,
      info,
      storeKind,
      log,
      webDir,
      rateLimits,
      relay,
      userEvents,
    });
  } catch (error) {
    await rateLimits?.close();
    // A failed start must not leave the store (an embedded database, a pool) or started plugins running.
    await (platform ? platform.close() : store.close?.())?.catch((closeError: unknown) =>
      log?.warn({ err: closeError }, 'closing after a failed start failed'),
    );
    await relay?.close();
    throw error;
  }
}

/** What `createServer` composed before the platform, for the rest of the start-up. */
type Composed = Composition & {
  config: ServerConfig;
  model: ModelProvider;
  info: ModelInfo;
  storeKind: string;
  log: Logger | undefined;
  webDir: string | null | undefined;
  rateLimits: RateLimiters | undefined;
  /** The NATS relay, when `relayUrl` is set: closed after the platform. */
  relay: Awaited<ReturnType<typeof openRelay>>;
  userEvents: UserEventLog;
};

/** How much of the recent events the server keeps for streams to resume from, in all and per key. */
const replayLimits = (config: ServerConfig) => ({
  maxBytes: config.limits.replayLogBytes,
  perConversationBytes: config.limits.replayLogBytesPerConversation,
});

/**
 * The compaction plugin, when `compaction.enabled` and no plugin of the app has its id (a rival replaces
 * it). It summarizes before `historyTokens` is reached, so the history budget leaves nothing out first.
 */
function compactionOf(config: ServerConfig, plugins: readonly AnyPlugin[]): AnyPlugin[] {
  if (!config.compaction.enabled || plugins.some((plugin) => plugin.id === compactionPlugin.id)) return [];
  return [compactionPlugin(compactionOptions(config))];
}

function compactionOptions(config: ServerConfig) {
  const { enabled: _, ...options } = config.compaction;
  return { ...options, maxTokens: config.historyTokens };
}

/** Where a prompt's history is reduced: summarized past the compaction threshold, else cut by the budget. */
function historyLimit(config: ServerConfig, model: string): number {
  if (!config.compaction.enabled) return config.historyTokens;
  return compactionThreshold(compactionOptions(config), model);
}

/** The rest of the start-up, once the platform exists (a throw here closes it, in `createServer`). */
async function serve(platform: Platform, composed: Composed): Promise<TesseraServer> {
  const { config, plugins, info, storeKind, log, userEvents } = composed;
  // Every prompt this process runs, recovered ones too, is traced when it ends: no-ops until an OpenTelemetry
  // SDK is registered (telemetry.ts, from the OTEL_* variables; or the app's own).
  const untrace = tracePrompts(platform);
  userEvents.watch(platform.events); // waiting states, for as long as the platform runs
  const ids = plugins.map((plugin) => plugin.id);
  let token: string | undefined;
  const configured = Object.entries(config.auth.tokens);
  if (configured.length === 0) token = await localToken(config.dataDir);
  const tokens = new TokenTable(token === undefined ? configured : [[token, LOCAL_USER]]);
  if (ids.includes(ROUTED_PLUGINS.blueprints)) await seedBlueprints(platform);
  const shutdown = new AbortController();
  const app = await createHttpApp(platform, composed, tokens, shutdown.signal);
  await recoverLeftRunning(platform, log);
  if (log) logPrompts(platform, log);
  // Plugins' background work (the triggers scheduler, ...) starts here; platform.close() stops it.
  await platform.open();

  let http: Awaited<ReturnType<typeof listenHttp>> | undefined;
  return {
    app,
    platform,
    plugins,
    model: info,
    token,
    async listen({ port = config.port, host = config.host } = {}) {
      if (http) throw new Error(`The server is already listening on ${http.url}.`);
      http = await listenHttp(app.fetch, { port, host });
      log?.info(
        { url: http.url, model: info.label, store: storeKind, plugins: ids },
        'Tessera server listening',
      );
      return { url: http.url, port: http.port };
    },
    async close({ graceMs = 1_000 } = {}) {
      shutdown.abort();
      await http?.close(graceMs);
      await platform.close();
      untrace(); // after: the prompts that ended as the platform closed are traced too
      await composed.relay?.close();
      await composed.rateLimits?.close();
    },
  };
}

/** The HTTP API, event streams and web UI over the platform, authenticated with `tokens`. */
async function createHttpApp(
  platform: Platform,
  { config, plugins, skills, model, info, log, webDir, rateLimits, userEvents }: Composed,
  tokens: TokenTable,
  shutdown: AbortSignal,
): Promise<TesseraServer['app']> {
  return createApp({
    platform,
    plugins: plugins.map((plugin) => plugin.id),
    skills,
    events: new EventLog(platform.events, {
      ...replayLimits(config),
      // A sub-agent's child this process did not see start, read to forward its events to its parent's stream.
      lookup: (promptId) => platform.store.prompts.get(promptId),
    }),
    userEvents,
    streamQueueBytes: config.limits.streamQueueBytes,
    streamsPerUser: config.limits.streamsPerUser,
    auth: {
      tokens,
      loopbackWithoutAuth: config.auth.loopbackWithoutAuth,
      localUser: LOCAL_USER,
      sessions: createSessions({ tokens, secret: await sessionSecret(config.dataDir) }),
    },
    model: info,
    maxBodyBytes: config.limits.maxBodyBytes,
    maxUploadBytes: config.limits.maxUploadBytes,
    maxInputChars: config.limits.maxInputChars,
    rateLimits,
    shutdown,
    log,
    context: {
      budget: (prompt) => historyLimit(config, config.models[prompt.model]),
      estimate: (prompt) => estimatorFor(model, config.models[prompt.model]),
    },
    webDir:
      webDir === null ? undefined : (webDir ?? (existsSync(DEFAULT_WEB_DIR) ? DEFAULT_WEB_DIR : undefined)),
  });
}

/** Prompts a stopped process left running resume in the background; the server does not wait for them. */
async function recoverLeftRunning(platform: Platform, log: Logger | undefined): Promise<void> {
  for (const run of await platform.recover()) {
    log?.info({ promptId: run.prompt.id }, 'recovering a prompt left running');
    run.done.then(
      (prompt) =>
        log?.info({ promptId: prompt.id, state: prompt.state, stopReason: prompt.stopReason }, 'recovered'),
      (error) => log?.error({ err: error, promptId: run.prompt.id }, 'recovery failed'),
    );
  }
}
