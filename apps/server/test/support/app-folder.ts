// A throwaway app folder, as a team would have: a config file, and plugin packages in its node_modules.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { findPackageJSON } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The folder of a package this test package depends on (pnpm links it; link to where it really is). */
const packageFolder = async (name: string) => realpath(dirname(findPackageJSON(name, import.meta.url)!));

export async function appFolder() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'tessera-app-')));
  // What the app's own dependencies would be: core and zod for its plugins, built-in plugin packages it names
  // with options, the server for defineConfig.
  const linked = {
    '@tessera/core': await packageFolder('@tessera/core'),
    zod: await packageFolder('zod'),
    '@tessera/plugin-widgets': await packageFolder('@tessera/plugin-widgets'),
    '@tessera/plugin-files': await packageFolder('@tessera/plugin-files'),
    '@tessera/plugin-mcp': await packageFolder('@tessera/plugin-mcp'),
  };
  for (const [name, target] of Object.entries({
    ...linked,
    '@tessera/server': join(import.meta.dirname, '../..'),
  })) {
    await mkdir(dirname(join(root, 'node_modules', name)), { recursive: true });
    await symlink(target, join(root, 'node_modules', name), 'dir');
  }
  return {
    root,
    /** Writes a package into node_modules: its package.json and files. */
    async addPackage(name: string, files: Record<string, string>, manifest: Record<string, unknown> = {}) {
      const folder = join(root, 'node_modules', name);
      await mkdir(folder, { recursive: true });
      await writeFile(
        join(folder, 'package.json'),
        JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js', ...manifest }),
      );
      for (const [file, text] of Object.entries(files)) {
        await mkdir(dirname(join(folder, file)), { recursive: true });
        await writeFile(join(folder, file), text);
      }
    },
    async write(file: string, text: string) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), text);
      return join(root, file);
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
