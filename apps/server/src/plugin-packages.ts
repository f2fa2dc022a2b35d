import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AnyPlugin, isPlugin } from '@tessera/core';
import { describe, pluginHint } from './plugin-shape.ts';

/** A plugin in a config file: the plugin itself (TS/JS config), or a package (or file) that exports one. */
export type PluginEntry = AnyPlugin | string | { package: string; options?: Record<string, unknown> };

/** What is wrong with one plugin entry; the loader gathers them into one error. */
export class PluginLoadProblem extends Error {}

/** `exports` conditions of an ES module import in Node, in the order Node honours them (the file's own order). */
const IMPORT_CONDITIONS = new Set(['node', 'import', 'module-sync', 'default']);

/** The file an `exports` field maps a subpath to, for `import` in Node. */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === 'string') return subpath === '.' ? exports : undefined;
  if (Array.isArray(exports)) return exports.map((e) => exportTarget(e, subpath)).find(Boolean);
  if (typeof exports !== 'object' || exports === null) return undefined;
  const entries = Object.entries(exports);
  if (entries.some(([key]) => key.startsWith('.'))) {
    const target = (exports as Record<string, unknown>)[subpath];
    return target === undefined ? undefined : exportTarget(target, '.');
  }
  for (const [condition, target] of entries) {
    if (!IMPORT_CONDITIONS.has(condition)) continue;
    const found = exportTarget(target, subpath);
    if (found) return found;
  }
  return undefined;
}

/**
 * The package.json of the package a name (`pkg`, `@scope/pkg`, `pkg/subpath`) is in, looked for as Node looks for
 * packages: in node_modules, from `folder` up. (node:module's findPackageJSON does this from Node 22.14 on; the
 * server runs on 22.12.)
 */
function findManifest(specifier: string, folder: string): string | undefined {
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  for (let dir = folder; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The file to import for a package name (or a path), resolved from the config file's folder as `import` would
 * there: an ESM-only package resolves, and a dual one gives its ES module (the same core as the server's).
 */
export function resolvePluginModule(specifier: string, configFile: string): string {
  const folder = dirname(configFile);
  const require = createRequire(configFile);
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    try {
      return require.resolve(resolve(folder, specifier));
    } catch {
      throw new PluginLoadProblem(`there is no such file (looked for ${resolve(folder, specifier)})`);
    }
  }
  const manifestFile = findManifest(specifier, folder);
  if (!manifestFile) {
    throw new PluginLoadProblem(
      `the package is not installed where the config file is (looked in node_modules from ${folder} up); install it there (npm install ${specifier}) or correct the name`,
    );
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { name?: string; exports?: unknown };
  if (manifest.exports === undefined) return require.resolve(specifier); // `main`, or index.js
  const subpath =
    manifest.name && specifier !== manifest.name ? `.${specifier.slice(manifest.name.length)}` : '.';
  const target = exportTarget(manifest.exports, subpath);
  if (!target) {
    throw new PluginLoadProblem(
      `its package.json (${manifestFile}) exports nothing at "${subpath}" for import (conditions: ${[...IMPORT_CONDITIONS].join(', ')})`,
    );
  }
  return join(dirname(manifestFile), target);
}

/** A plugin factory: `definePluginFactory` (callable, with its options schema as `.options`) or a plain function. */
type Factory = ((options?: unknown) => unknown) & { options?: unknown };

/** The plugin a module gives: its default export, else its export named `plugin`; a factory is called with the options. */
async function pluginFromModule(
  module: Record<string, unknown>,
  options: Record<string, unknown> | undefined,
): Promise<AnyPlugin> {
  const exported = module.default ?? module.plugin;
  if (exported === undefined) {
    const names = Object.keys(module);
    throw new PluginLoadProblem(
      `it has no plugin export: give it a default export or an export named "plugin" (a plugin from definePlugin, or a plugin factory); its exports are ${names.length > 0 ? names.join(', ') : 'none'}`,
    );
  }
  if (isPlugin(exported)) {
    if (options !== undefined) {
      throw new PluginLoadProblem(
        `it exports a plugin, not a plugin factory, so it takes no options: remove "options"`,
      );
    }
    return exported;
  }
  if (typeof exported !== 'function') {
    throw new PluginLoadProblem(
      `its plugin export is ${describe(exported)}, not a plugin or a plugin factory`,
    );
  }
  let made: unknown;
  try {
    made = await (exported as Factory)(options);
  } catch (error) {
    throw new PluginLoadProblem(
      `its plugin factory failed on the options given: ${(error as Error).message}`,
    );
  }
  if (!isPlugin(made)) {
    throw new PluginLoadProblem(`its plugin factory returned ${describe(made)}, not a plugin`);
  }
  return made;
}

/** Loads one package or file entry. */
async function loadPackage(
  specifier: string,
  options: Record<string, unknown> | undefined,
  configFile: string,
): Promise<AnyPlugin> {
  const file = resolvePluginModule(specifier, configFile);
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    throw new PluginLoadProblem(`importing ${file} failed: ${(error as Error).message}`);
  }
  return pluginFromModule(module, options);
}

const name = (entry: unknown): string =>
  typeof entry === 'string'
    ? entry
    : isPlugin(entry)
      ? entry.id
      : String((entry as { package?: unknown } | null)?.package ?? '?');

/**
 * The plugins a config file names, in order. Every entry that cannot be loaded (not installed, no plugin
 * export, invalid options) is reported in one error, each naming the plugin and what is wrong.
 */
export async function loadPluginEntries(
  entries: readonly unknown[],
  configFile: string,
): Promise<{ plugins: AnyPlugin[]; problems: string[] }> {
  const plugins: AnyPlugin[] = [];
  const problems: string[] = [];
  for (const [i, entry] of entries.entries()) {
    try {
      if (isPlugin(entry)) plugins.push(entry);
      else if (typeof entry === 'string') plugins.push(await loadPackage(entry, undefined, configFile));
      else if (
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as { package?: unknown }).package === 'string'
      ) {
        const { package: specifier, options } = entry as {
          package: string;
          options?: Record<string, unknown>;
        };
        plugins.push(await loadPackage(specifier, options, configFile));
      } else if (typeof entry === 'function') {
        throw new PluginLoadProblem(`it is ${describe(entry)}, not a plugin: ${pluginHint(entry)}`);
      } else {
        throw new PluginLoadProblem(
          `it is ${describe(entry)}: give a plugin (TS/JS config), a package name, or { "package": "...", "options": { ... } }`,
        );
      }
    } catch (error) {
      if (!(error instanceof PluginLoadProblem)) throw error;
      problems.push(`plugins[${i}] "${name(entry)}": ${error.message}.`);
    }
  }
  return { plugins, problems };
}
