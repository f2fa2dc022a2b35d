import { dirname, resolve } from 'node:path';
import type { ModelProvider, Store } from '@tessera/core';
import { z } from 'zod';
import { ConfigError, fromEnvironment, ServerConfig } from './config.ts';
import { findConfigFile, readConfigFile } from './config-file.ts';
import type { CreateServerOptions } from './create-server.ts';
import { loadModelScript } from './model-script.ts';
import { loadPluginEntries } from './plugin-packages.ts';

/** The whole file: unknown keys are mistakes worth a message (a misspelt "plugin" would otherwise do nothing). */
const ConfigFile = ServerConfig.extend({
  plugins: z.array(z.unknown()).default([]),
  defaultPlugins: z.boolean().default(true),
  model: z
    .union(
      [
        z.custom<ModelProvider>((value) => typeof (value as ModelProvider | null)?.stream === 'function'),
        z.strictObject({ script: z.string().min(1) }),
      ],
      {
        error:
          'expected a model provider (an object with a stream() method, e.g. createOpenAIProvider(...)), or { "script": "./turns.json" } (a file of scripted turns); for OpenAI in JSON, use "openai" instead',
      },
    )
    .optional(),
  store: z
    .custom<Store>((value) => typeof value === 'object' && value !== null && 'prompts' in value, {
      message: 'expected a store (e.g. createPostgresStore(...)); in JSON, use "databaseUrl" instead',
    })
    .optional(),
}).strict();

export type LoadedConfig = {
  /** The config file read, if any. */
  file: string | undefined;
  /** Ready for `createServer`: settings validated, plugin packages loaded. */
  options: CreateServerOptions & ServerConfig;
};

/**
 * The `tessera-server` command's configuration: the config file (`TESSERA_CONFIG`, else tessera.config.* in
 * `cwd`), with the environment on top. Invalid settings, and plugins that cannot be loaded, are one error each
 * that lists every problem. Node imports a `tessera.config.ts` itself: that needs Node 22.18 or later, or
 * `--experimental-strip-types` on 22.12 to 22.17 (the command passes it; a test runner's workers need it too).
 */
export async function loadConfig({
  env = process.env,
  cwd = process.cwd(),
}: {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
} = {}): Promise<LoadedConfig> {
  const file = findConfigFile(cwd, env);
  const values = file ? await readConfigFile(file) : {};
  const parsed = ConfigFile.safeParse({ ...values, ...fromEnvironment(env) });
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid configuration (from ${file ?? 'no config file'} and the environment):\n${z.prettifyError(parsed.error)}`,
    );
  }
  const { plugins: entries, model, ...options } = parsed.data;
  // Plugins come from the file only; its packages resolve from its folder.
  const { plugins, problems } = file
    ? await loadPluginEntries(entries, file)
    : { plugins: [], problems: [] as string[] };
  if (problems.length > 0) {
    throw new ConfigError(
      `Cannot load ${problems.length === 1 ? 'a plugin' : `${problems.length} plugins`} of ${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
  // A script is read now, from the config file's folder (else the working directory): its mistakes are the
  // config's, reported at start.
  const script = model && 'script' in model ? resolve(file ? dirname(file) : cwd, model.script) : undefined;
  const chosen = script ? await loadModelScript(script) : (model as ModelProvider | undefined);
  return { file, options: { ...options, plugins, ...(chosen && { model: chosen }) } };
}
