// What create-tessera writes. Installing, testing and serving what it writes, from packed tarballs in a folder
// outside the repository, is done by `pnpm check:packages` (scripts/check-created-app.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTessera, pluginNames, readPackedManifest } from '../src/index.ts';

const version = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../node_modules', name, 'package.json'), 'utf8'))
    .version;
const CORE = `^${version('@tessera/core')}`;

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-tessera-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

it('creates an app and a plugin package in an npm workspace, every name put in', async () => {
  const created = await createTessera({ directory: join(work, 'my-app'), plugin: 'help-desk' });
  expect(created.files).toEqual([
    '.changeset/README.md',
    '.changeset/config.json',
    '.env.example',
    '.gitignore',
    'README.md',
    'package.json',
    'plugins/help-desk/README.md',
    'plugins/help-desk/package.json',
    'plugins/help-desk/src/index.ts',
    'plugins/help-desk/test/plugin.test.ts',
    'plugins/help-desk/tsconfig.build.json',
    'plugins/help-desk/tsconfig.json',
    'tessera.config.ts',
    'test/app.test.ts',
    'tsconfig.json',
    'vitest.config.ts',
  ]);
  for (const file of created.files) {
    expect(await readFile(join(created.directory, file), 'utf8')).not.toMatch(/__[A-Z_]+__/);
  }
  const app = await readJson(join(created.directory, 'package.json'));
  expect(app).toMatchObject({ name: 'my-app', private: true, workspaces: ['plugins/*'] });
  expect(app.dependencies).toMatchObject({
    '@tessera/server': `^${version('@tessera/server')}`,
    '@tessera/core': CORE,
    '@tessera/plugin-files': `^${version('@tessera/plugin-files')}`,
    'tessera-plugin-help-desk': 'file:plugins/help-desk',
  });
  expect(app.devDependencies['@tessera/testing']).toBe(`^${version('@tessera/testing')}`);
  expect(app.scripts).toMatchObject({
    start: 'tessera-server',
    test: 'vitest run',
    pretest: 'npm run build',
  });

  const plugin = await readJson(join(created.directory, 'plugins/help-desk/package.json'));
  expect(plugin).toMatchObject({
    name: 'tessera-plugin-help-desk',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    peerDependencies: { '@tessera/core': CORE },
    scripts: { build: 'tsc -p tsconfig.build.json', test: 'vitest run' },
  });
  expect(plugin.private).toBeUndefined();
  const source = await readFile(join(created.directory, 'plugins/help-desk/src/index.ts'), 'utf8');
  expect(source).toContain("export const helpDeskPlugin = definePlugin({\n  id: 'help-desk',");
  expect(source).toContain(`core: '${CORE}'`);
  const tsconfig = await readJson(join(created.directory, 'plugins/help-desk/tsconfig.json'));
  expect(tsconfig.extends).toBeUndefined();
  expect(await readFile(join(created.directory, 'tessera.config.ts'), 'utf8')).toContain(
    "import { helpDeskPlugin } from 'tessera-plugin-help-desk';",
  );
});

it('creates an app alone, without a workspace', async () => {
  const created = await createTessera({ directory: join(work, 'solo') });
  expect(created.plugin).toBeUndefined();
  expect(created.files).not.toContain('.changeset/config.json');
  expect(created.files.some((file) => file.startsWith('plugins/'))).toBe(false);
  const app = await readJson(join(created.directory, 'package.json'));
  expect(app.workspaces).toBeUndefined();
  expect(app.scripts).toEqual({
    start: 'tessera-server',
    test: 'vitest run',
    typecheck: 'tsc -p tsconfig.json',
  });
  expect(await readFile(join(created.directory, 'tessera.config.ts'), 'utf8')).toContain('plugins: []');
});

/** A .tgz as npm pack makes it: package/package.json in a ustar archive. */
async function tarball(folder: string, manifest: { name: string; version: string }) {
  const body = Buffer.from(JSON.stringify(manifest));
  const header = Buffer.alloc(512);
  header.write('package/package.json', 0);
  header.write('0000644\0', 100);
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('0', 156);
  header.write('ustar\0', 257);
  const padded = Buffer.concat([body, Buffer.alloc(512 - (body.length % 512))]);
  const file = join(folder, `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`);
  await writeFile(file, gzipSync(Buffer.concat([header, padded, Buffer.alloc(1024)])));
  return file;
}

it('installs the packages of a folder of tarballs, before they are published', async () => {
  const packed = join(work, 'packed');
  await mkdir(packed);
  const server = await tarball(packed, { name: '@tessera/server', version: '0.1.0' });
  const core = await tarball(packed, { name: '@tessera/core', version: '0.1.0' });
  await tarball(packed, { name: 'create-tessera', version: '0.1.0' }); // packed with them: not the app's
  expect(readPackedManifest(server)).toEqual({ name: '@tessera/server', version: '0.1.0' });

  const created = await createTessera({
    directory: join(work, 'early'),
    plugin: 'tickets',
    packagesFrom: packed,
  });
  const app = await readJson(join(created.directory, 'package.json'));
  // Direct dependencies and overrides name the same tarball (npm requires it); the rest stay ranges.
  expect(app.dependencies['@tessera/server']).toBe(`file:${server}`);
  expect(app.dependencies['@tessera/core']).toBe(`file:${core}`);
  expect(app.dependencies['@tessera/plugin-files']).toMatch(/^\^/);
  expect(app.overrides).toEqual({ '@tessera/server': `file:${server}`, '@tessera/core': `file:${core}` });
  // The plugin's manifest stays publishable: the overrides of the app reach its dependencies.
  const plugin = await readJson(join(created.directory, 'plugins/tickets/package.json'));
  expect(plugin.devDependencies['@tessera/core']).toBe(CORE);
});

it('refuses a folder with files in it, and names that would not work, before writing anything', async () => {
  await mkdir(join(work, 'taken'));
  await writeFile(join(work, 'taken/kept.txt'), 'mine');
  await expect(createTessera({ directory: join(work, 'taken') })).rejects.toThrow('is not an empty folder');
  await expect(createTessera({ directory: join(work, 'My App') })).rejects.toThrow(
    'not a valid npm package name',
  );
  await expect(createTessera({ directory: join(work, 'a'), plugin: 'files' })).rejects.toThrow(
    'a plugin of that id would replace it',
  );
  await expect(createTessera({ directory: join(work, 'b'), plugin: 'Tickets' })).rejects.toThrow(
    'must start with a lowercase letter',
  );
  await expect(
    createTessera({ directory: join(work, 'c'), packagesFrom: join(work, 'taken') }),
  ).rejects.toThrow('holds no .tgz file');
  expect(existsSync(join(work, 'a')) || existsSync(join(work, 'b')) || existsSync(join(work, 'c'))).toBe(
    false,
  );
});

it('takes a plugin as an id or a package name', () => {
  expect(pluginNames('tickets')).toEqual({
    id: 'tickets',
    packageName: 'tessera-plugin-tickets',
    exportName: 'ticketsPlugin',
  });
  expect(pluginNames('@acme/tessera-plugin-help_desk')).toEqual({
    id: 'help_desk',
    packageName: '@acme/tessera-plugin-help_desk',
    exportName: 'helpDeskPlugin',
  });
  expect(pluginNames('tessera-plugin-crm').id).toBe('crm');
});

it('runs as a command: usage on --help, one line and the usage on a mistake', () => {
  const cli = join(import.meta.dirname, '../src/cli.ts');
  expect(execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' })).toContain('--packages-from');
  let failure: { status: number; stderr: string } | undefined;
  try {
    execFileSync(process.execPath, [cli, join(work, 'x'), '--plugins', 'a'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (error) {
    failure = error as { status: number; stderr: string };
  }
  expect(failure?.status).toBe(2);
  expect(failure?.stderr).toMatch(/^Unknown option '--plugins'/);
  execFileSync(process.execPath, [cli, join(work, 'made'), '--plugin', 'tickets'], { stdio: 'pipe' });
  expect(existsSync(join(work, 'made/plugins/tickets/src/index.ts'))).toBe(true);
});
