// Writes an app (and a plugin package it serves) from the templates: files copied with their names put in,
// package.json files built here from the version ranges of this release.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appManifest, pluginManifest } from './manifests.ts';
import { checkPackageName, type PluginNames, pluginNames, UsageError } from './names.ts';
import { packagesFrom } from './tarballs.ts';
import { versionRanges } from './versions.ts';

const TEMPLATES = fileURLToPath(new URL('../templates', import.meta.url));

export type CreateOptions = {
  /** The folder to create (or an empty one); its name is the app's package name. */
  directory: string;
  /** A plugin package to create in `plugins/<id>/` and serve: an id (`tickets`) or a package name. */
  plugin?: string | undefined;
  /**
   * A folder of packed packages (.tgz): the app's package.json installs them (`file:` dependencies and npm
   * `overrides`) instead of the registry's, for trying a release before it is published.
   */
  packagesFrom?: string | undefined;
};

export type Created = {
  /** The app's folder (absolute). */
  directory: string;
  /** The app's package name. */
  name: string;
  plugin: (PluginNames & { directory: string }) | undefined;
  /** Every file written, relative to `directory`. */
  files: string[];
};

/** Creates the app (and the plugin), refusing a folder that has files in it. Writes nothing on a mistake. */
export async function createTessera(options: CreateOptions): Promise<Created> {
  const directory = resolve(options.directory);
  const name = checkPackageName(basename(directory), 'The app folder');
  if (existsSync(directory) && (!statSync(directory).isDirectory() || readdirSync(directory).length > 0)) {
    throw new UsageError(`${directory} already exists and is not an empty folder.`);
  }
  const plugin = options.plugin === undefined ? undefined : pluginNames(options.plugin);
  const ranges = versionRanges();
  const tarballs = options.packagesFrom === undefined ? undefined : packagesFrom(options.packagesFrom);

  const pluginDir = plugin && `plugins/${plugin.id}`;
  const names: Record<string, string> = {
    __APP_NAME__: name,
    __CORE_RANGE__: ranges['@tessera/core']!,
    ...(plugin && {
      __PLUGIN_ID__: plugin.id,
      __PLUGIN_PACKAGE__: plugin.packageName,
      __PLUGIN_EXPORT__: plugin.exportName,
      __PLUGIN_DIR__: pluginDir!,
    }),
  };
  const files = new Map<string, string>();
  addTemplate(files, 'app', '', names);
  if (plugin) {
    addTemplate(files, 'app-with-plugin', '', names);
    addTemplate(files, 'plugin', `${pluginDir}/`, names);
    files.set(`${pluginDir}/package.json`, json(pluginManifest(plugin, ranges)));
  }
  files.set('package.json', json(appManifest({ name, plugin, pluginDir, ranges, tarballs })));

  for (const [file, text] of files) {
    await mkdir(dirname(join(directory, file)), { recursive: true });
    await writeFile(join(directory, file), text);
  }
  return {
    directory,
    name,
    plugin: plugin && { ...plugin, directory: join(directory, pluginDir!) },
    files: [...files.keys()].sort(),
  };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The files of templates/<template>, with each name put in. A leading `_` of a file or folder name stands for
 * `.` (`_gitignore`, `_changeset/`): npm leaves `.gitignore` out of a package, and so would a scaffold.
 */
function addTemplate(
  files: Map<string, string>,
  template: string,
  to: string,
  names: Record<string, string>,
) {
  const from = join(TEMPLATES, template);
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const target = relative(from, source)
      .split(/[\\/]/)
      .map((part) => part.replace(/^_/, '.'))
      .join('/');
    let text = readFileSync(source, 'utf8');
    for (const [placeholder, value] of Object.entries(names)) text = text.replaceAll(placeholder, value);
    const left = /__[A-Z_]+__/.exec(text);
    if (left) throw new Error(`The template ${source} has a name the scaffold does not fill: ${left[0]}`);
    files.set(`${to}${target}`, text);
  }
}
