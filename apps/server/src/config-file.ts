import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelProvider, Store } from '@tessera/core';
import { ConfigError, type ServerSettings } from './config.ts';
import type { PluginEntry } from './plugin-packages.ts';

/** What a config file holds: the server's settings, plus the plugins, the model and the store. */
export type TesseraConfig = ServerSettings & {
  /** Your plugins: plugin objects (TS/JS config), package names, or `{ package, options }`. */
  plugins?: readonly PluginEntry[];
  /** Serve the built-in plugins (widgets, files, triggers, goals, skills, blueprints) too; default true. */
  defaultPlugins?: boolean;
  /**
   * The model; none (and no `openai`) → the offline demo model with its demo tools. `{ script: './turns.json' }`:
   * a scripted model that answers from that file of rules (resolved from the config file's folder).
   */
  model?: ModelProvider | { script: string };
  /** The store; none → PostgreSQL at `databaseUrl`, else the embedded database in `dataDir`. */
  store?: Store;
};

/** Types a `tessera.config.ts` (or `.js`): `export default defineConfig({ ... })`. */
export function defineConfig(config: TesseraConfig): TesseraConfig {
  return config;
}

/** Looked for in the current directory, in this order. */
export const CONFIG_FILE_NAMES = [
  'tessera.config.ts',
  'tessera.config.mts',
  'tessera.config.js',
  'tessera.config.mjs',
  'tessera.config.json',
] as const;

/** The config file: the one `TESSERA_CONFIG` names, else the one in `cwd` (two there is a mistake). */
export function findConfigFile(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (env.TESSERA_CONFIG) return resolve(cwd, env.TESSERA_CONFIG);
  const found = CONFIG_FILE_NAMES.map((name) => join(cwd, name)).filter((file) => existsSync(file));
  if (found.length > 1) throw new ConfigError(`Found ${found.join(' and ')}: keep one config file.`);
  return found[0];
}

/** A module (TS/JS, its default export) or JSON (any other extension, as TESSERA_CONFIG always named JSON). */
export async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  let config: unknown;
  if (/\.[cm]?[jt]s$/.test(file)) {
    try {
      config = ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
    } catch (error) {
      throw new ConfigError(`Cannot load the config file ${file}: ${(error as Error).message}`);
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      throw new ConfigError(
        `The config file ${file} must export its configuration as default: export default defineConfig({ ... })`,
      );
    }
    return config as Record<string, unknown>;
  }
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read the config file ${file}: ${(error as Error).message}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ConfigError(`The config file ${file} must hold a JSON object.`);
  }
  return config as Record<string, unknown>;
}
