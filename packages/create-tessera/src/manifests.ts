// The package.json of the app and of the plugin, with the version ranges of this release.
import type { PluginNames } from './names.ts';

/** The built-in plugins the server serves unless `defaultPlugins: false`; the app names them to configure them. */
const BUILT_IN_PLUGINS = [
  '@tessera/plugin-widgets',
  '@tessera/plugin-files',
  '@tessera/plugin-triggers',
  '@tessera/plugin-skills',
  '@tessera/plugin-blueprints',
];

const pick = (ranges: Record<string, string>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, ranges[name]!]));

export function appManifest({
  name,
  plugin,
  pluginDir,
  ranges,
  tarballs,
}: {
  name: string;
  plugin: PluginNames | undefined;
  pluginDir: string | undefined;
  ranges: Record<string, string>;
  tarballs: Map<string, string> | undefined;
}) {
  // With a plugin, the app is an npm workspace holding it: one install, one node_modules, so the app, the
  // server and the plugin share one @tessera/core and one zod. The plugin is built (tsc) before each start and test.
  const scripts = plugin
    ? {
        build: 'npm run build --workspaces --if-present',
        prestart: 'npm run build',
        start: 'tessera-server',
        pretest: 'npm run build',
        test: 'vitest run',
        typecheck: 'npm run build && tsc -p tsconfig.json && npm run typecheck --workspaces --if-present',
      }
    : { start: 'tessera-server', test: 'vitest run', typecheck: 'tsc -p tsconfig.json' };
  const dependencies: Record<string, string> = {
    ...pick(ranges, ['@tessera/core', '@tessera/server', ...BUILT_IN_PLUGINS, 'zod']),
    ...(plugin && { [plugin.packageName]: `file:${pluginDir}` }),
  };
  const devDependencies = pick(ranges, ['@tessera/testing', '@types/node', 'typescript', 'vitest']);
  const fromTarballs = (list: Record<string, string>) =>
    Object.fromEntries(Object.entries(list).map(([dep, range]) => [dep, tarballs?.get(dep) ?? range]));
  return {
    name,
    version: '0.0.0',
    private: true,
    type: 'module',
    engines: { node: '>=22.12' },
    ...(plugin && { workspaces: ['plugins/*'] }),
    scripts,
    dependencies: fromTarballs(dependencies),
    devDependencies: fromTarballs(devDependencies),
    // npm installs these tarballs wherever the tree names the package (the server's and the plugin's
    // dependencies too); a direct dependency's override must equal its specifier, as above.
    ...(tarballs && {
      overrides: Object.fromEntries([...tarballs].filter(([dep]) => dep !== 'create-tessera')),
    }),
  };
}

export function pluginManifest(plugin: PluginNames, ranges: Record<string, string>) {
  return {
    name: plugin.packageName,
    version: '0.1.0',
    description: `A Tessera plugin: ${plugin.id}`,
    keywords: ['tessera', 'tessera-plugin'],
    type: 'module',
    sideEffects: false,
    engines: { node: '>=22.12' },
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    files: ['dist', 'src'],
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      typecheck: 'tsc -p tsconfig.json',
      test: 'vitest run',
      prepack: 'npm run build',
    },
    // Peers: the app's single copy of each is the one the plugin uses (its types, its errors, its schemas).
    peerDependencies: pick(ranges, ['@tessera/core', 'zod']),
    devDependencies: pick(ranges, [
      '@tessera/core',
      '@tessera/testing',
      '@types/node',
      'typescript',
      'vitest',
      'zod',
    ]),
  };
}
