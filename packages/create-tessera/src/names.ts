// The names a scaffold is made of: the app's package name (its folder's), and the plugin's id, package name and
// export, each checked before anything is written.

/** What npm accepts as a new package's name, optionally scoped: lowercase, URL-safe, at most 214 characters. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A plugin id a scaffold makes (core's PLUGIN_ID, without dots: the id also names a folder and an export). */
const PLUGIN_ID = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
/** The server's own plugins: a plugin of the app with one of these ids would replace it. */
const BUILT_IN_IDS = [
  'widgets',
  'files',
  'triggers',
  'goals',
  'skills',
  'blueprints',
  'instructions',
  'mcp',
  'doom-loop',
  'demo',
];

export class UsageError extends Error {
  override name = 'UsageError';
}

export function checkPackageName(name: string, what: string): string {
  if (name.length > 214 || !PACKAGE_NAME.test(name)) {
    throw new UsageError(
      `${what} "${name}" is not a valid npm package name: lowercase letters, digits, "-", "." and "_", starting with a letter or a digit.`,
    );
  }
  return name;
}

export type PluginNames = {
  /** The plugin's id (`tickets`): its state's key, its tools' prefix (`tickets.add`), its folder in plugins/. */
  id: string;
  /** Its package's name: as given when a package name was given, else `tessera-plugin-<id>`. */
  packageName: string;
  /** The plugin object's export: `ticketsPlugin`. */
  exportName: string;
};

/**
 * `--plugin tickets` (an id), or a package name (`@acme/tessera-plugin-tickets`, `tessera-plugin-tickets`),
 * whose last part, less a `tessera-plugin-` prefix, is the id.
 */
export function pluginNames(given: string): PluginNames {
  const isPackage = given.includes('/') || given.startsWith('tessera-plugin-');
  const packageName = isPackage ? checkPackageName(given, 'The plugin package') : `tessera-plugin-${given}`;
  const id = isPackage ? packageName.replace(/^.*\//, '').replace(/^tessera-plugin-/, '') : given;
  if (id.length > 64 || !PLUGIN_ID.test(id)) {
    throw new UsageError(
      `The plugin id "${id}" must start with a lowercase letter and hold only lowercase letters and digits, in words joined by "-" or "_" (at most 64 characters).`,
    );
  }
  if (BUILT_IN_IDS.includes(id)) {
    throw new UsageError(
      `"${id}" is the id of a plugin the server has: a plugin of that id would replace it.`,
    );
  }
  checkPackageName(packageName, 'The plugin package');
  const camel = id.replace(/[-_]+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
  return { id, packageName, exportName: `${camel}Plugin` };
}
