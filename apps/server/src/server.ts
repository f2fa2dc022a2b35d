import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { type AnyPlugin, createPlatform, type ModelProvider, type Platform, type Store } from '@tessera/core';
import { createOpenAIProvider } from '@tessera/openai';
import {
  BLUEPRINTS_NAMESPACE,
  blueprintService,
  blueprintsPlugin,
  NewBlueprint,
  SHARED,
} from '@tessera/plugin-blueprints';
import { filesPlugin } from '@tessera/plugin-files';
import { createSkillsPlugin } from '@tessera/plugin-skills';
import { createTriggerScheduler, triggersPlugin } from '@tessera/plugin-triggers';
import { widgetsPlugin } from '@tessera/plugin-widgets';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ServerConfig } from './config.ts';
import { DEMO_LABEL, DemoModel, type DemoRule } from './demo/demo-model.ts';
import { demoPlugin, demoRules } from './demo/demo-plugin.ts';
import { createApp } from './http/app.ts';
import { EventLog } from './http/event-log.ts';
import { createStore } from './store.ts';

export const LOCAL_USER = 'local';

export type ServerOverrides = {
  /** A model to use instead of the configured one (tests use a scripted model). */
  model?: ModelProvider;
  store?: Store;
  logger?: Logger;
  /** The built web UI to serve at `/`; default: apps/web/dist when it has been built. */
  webDir?: string | null;
};

const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
const EXAMPLE_SKILLS = fileURLToPath(new URL('../examples/skills', import.meta.url));
const EXAMPLE_BLUEPRINTS = new URL('../examples/blueprints.json', import.meta.url);

/** A few shared blueprints so the catalogue is not empty on a fresh install (added once). */
async function seedBlueprints(platform: Platform): Promise<void> {
  const { items } = await platform.store.records.list(BLUEPRINTS_NAMESPACE, {
    prefix: `${SHARED}:`,
    limit: 1,
  });
  if (items.length > 0) return;
  const examples = z.array(NewBlueprint).parse(JSON.parse(await readFile(EXAMPLE_BLUEPRINTS, 'utf8')));
  for (const example of examples) await blueprintService(platform.services).save(SHARED, example);
}

/** The token of the local user: generated once, kept in the data directory so restarts keep it. */
async function localToken(dataDir: string): Promise<string> {
  const file = join(dataDir, 'local-token');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const token = randomBytes(24).toString('base64url');
    await writeFile(file, `${token}\n`, { mode: 0o600 });
    return token;
  }
}

/** The OpenAI (or compatible) provider when one is configured, else the offline demo model. */
function chooseModel(config: ServerConfig, rules: DemoRule[]): { model: ModelProvider; demo: boolean } {
  if (config.openai) {
    const { apiKey, baseURL, api } = config.openai;
    return { model: createOpenAIProvider({ apiKey, baseURL, api }), demo: false };
  }
  return { model: new DemoModel(rules), demo: true };
}

/** Composes the platform and serves the HTTP API; `close()` shuts down gracefully. */
export async function startServer(config: ServerConfig, overrides: ServerOverrides = {}) {
  await mkdir(config.dataDir, { recursive: true });
  const log = overrides.logger;
  const skills = await createSkillsPlugin({
    directories: [EXAMPLE_SKILLS, ...config.skillsDirs],
    skills: [],
  });
  for (const { file, severity, message } of skills.diagnostics) {
    log?.warn(
      { file },
      `${severity === 'warning' ? 'skill loaded with a warning' : 'skill skipped'}: ${message}`,
    );
  }
  const plugins: AnyPlugin[] = [
    widgetsPlugin,
    filesPlugin({ directory: join(config.dataDir, 'files'), maxFileBytes: config.limits.maxUploadBytes }),
    triggersPlugin(),
    skills.plugin,
    blueprintsPlugin(),
    demoPlugin,
  ];
  const chosen = overrides.model ? { model: overrides.model, demo: false } : chooseModel(config, demoRules);
  const { store, kind: storeKind } = overrides.store
    ? { store: overrides.store, kind: 'given' }
    : await createStore(config);
  const platform = createPlatform({
    plugins,
    model: chosen.model,
    store,
    models: config.models,
    budgets: config.budgets,
    historyTokens: config.historyTokens,
    onSubscriberError: (error) => log?.warn({ err: error }, 'event subscriber failed'),
  });
  const events = new EventLog(platform.events);
  const tokens = { ...config.auth.tokens };
  let token: string | undefined;
  if (Object.keys(tokens).length === 0) {
    token = await localToken(config.dataDir);
    tokens[token] = LOCAL_USER;
  }
  const shutdown = new AbortController();
  const modelInfo = {
    id: chosen.model.id,
    label: chosen.demo ? DEMO_LABEL : (chosen.model.label ?? chosen.model.id),
    demo: chosen.demo,
  };
  await seedBlueprints(platform);
  const app = createApp({
    platform,
    skills,
    events,
    auth: { tokens, loopbackWithoutAuth: config.auth.loopbackWithoutAuth, localUser: LOCAL_USER },
    model: modelInfo,
    maxBodyBytes: config.limits.maxBodyBytes,
    maxUploadBytes: config.limits.maxUploadBytes,
    shutdown: shutdown.signal,
    webDir:
      overrides.webDir === null
        ? undefined
        : (overrides.webDir ?? (existsSync(DEFAULT_WEB_DIR) ? DEFAULT_WEB_DIR : undefined)),
  });

  // Prompts a stopped process left running resume in the background; the server does not wait for them.
  for (const run of await platform.recover()) {
    log?.info({ promptId: run.prompt.id }, 'recovering a prompt left running');
    run.done.then(
      (prompt) =>
        log?.info({ promptId: prompt.id, state: prompt.state, stopReason: prompt.stopReason }, 'recovered'),
      (error) => log?.error({ err: error, promptId: run.prompt.id }, 'recovery failed'),
    );
  }
  const scheduler = createTriggerScheduler(platform, {
    onError: (error) => log?.warn({ err: error }, 'trigger failed'),
  });
  await scheduler.start();

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log?.info({ url, model: modelInfo.label, store: storeKind }, 'Tessera server listening');

  return {
    url,
    port,
    platform,
    token,
    model: modelInfo,
    /** Stops accepting requests, ends event streams, lets running prompts record where they are, closes the store. */
    async close(options: { graceMs?: number } = {}): Promise<void> {
      shutdown.abort();
      await scheduler.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const http = server as import('node:http').Server;
      // Connections become idle as their responses (and event streams) end; requests in flight may finish.
      const idle = setInterval(() => http.closeIdleConnections(), 25);
      // Event streams whose client vanished can keep a socket half-open: cut what is left after a grace period.
      const force = setTimeout(() => http.closeAllConnections(), options.graceMs ?? 1_000);
      await closed;
      clearInterval(idle);
      clearTimeout(force);
      await platform.close();
    },
  };
}
