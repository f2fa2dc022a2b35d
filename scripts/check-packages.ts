// The packaging check (`pnpm check:packages`): what a team gets that installs Tessera from the registry.
// Packs every public package as `pnpm publish` would (prepack builds dist, publishConfig.exports swaps in),
// lints each tarball with publint and attw, installs the tarballs with npm in a scratch app outside the
// workspace, and there type-checks package-consumer/main.ts and every entry point of every public package
// the way a strict app would (strict, skipLibCheck off, no DOM lib, no types but Node's: a package whose
// declarations need more fails here), then runs main.ts. Then, in a folder of its own and on the oldest Node
// the packages support, npm create tessera makes an app with a plugin from create-tessera's tarball, which
// installs the server, the plugin and the built-in plugins from the tarballs, serves the plugin over HTTP
// with one copy of core, runs its tool with the tool runner, and passes its tests (check-created-app.ts).
// Prints each package's packed size.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { checkCreatedApp } from './check-created-app.ts';
import { packPackages, publicPackages } from './pack-packages.ts';

const root = join(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (command: string, args: string[], cwd = root) => {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit' });
};

/** The total size of the files in a .tgz, as `npm publish` reports it (tar: 512-byte headers, octal sizes). */
function unpackedSize(tarball: string): number {
  const tar = gunzipSync(readFileSync(tarball));
  const text = (from: number, length: number) => tar.toString('latin1', from, from + length);
  let total = 0;
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = Number.parseInt(text(at + 124, 12), 8) || 0;
    if ('0\0'.includes(text(at + 156, 1))) total += size; // regular files only
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return total;
}

const packages = publicPackages();
const plain = ['--no-emoji', '--no-color'];
const work = mkdtempSync(join(tmpdir(), 'tessera-packages-'));
try {
  packPackages(work, packages);
  for (const { tarball } of packages) {
    run(bin('publint'), ['run', join(work, tarball), '--strict']);
    // ESM only: CommonJS and node10 resolution are out of scope (Node >= 22.12 can require() ESM anyway).
    run(bin('attw'), [join(work, tarball), '--profile', 'esm-only', '--format', 'table-flipped', ...plain]);
  }

  // A scratch app with nothing of the workspace above it: dependencies come only from the tarballs and npm.
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }),
  );
  // A strict Node app: every declaration file checked (skipLibCheck off), the ECMAScript lib without the DOM,
  // and no types but Node's. Nothing is added for a package's sake: what its declarations need, it must bring.
  const tsconfig = {
    compilerOptions: {
      strict: true,
      skipLibCheck: false,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2023',
      lib: ['es2023'],
      types: ['node'],
      noEmit: true,
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
    },
    files: ['main.ts', 'entries.ts'],
  };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
  copyFileSync(join(import.meta.dirname, 'package-consumer', 'main.ts'), join(app, 'main.ts'));
  const tarballs = packages.map((p) => join(work, p.tarball));
  // An optional peer (vitest for @tessera/testing/store-conformance) is installed by the app that uses the
  // entry point needing it; the workspace's own packages come from the tarballs.
  const optionalPeers = packages.flatMap((p) => {
    const manifest = readJson(join(p.path, 'package.json'));
    const peers: Record<string, string> = manifest.peerDependencies ?? {};
    return Object.entries(peers)
      .filter(
        ([name, range]) => manifest.peerDependenciesMeta?.[name]?.optional && !range.startsWith('workspace:'),
      )
      .map(([name, range]) => `${name}@${range}`);
  });
  const types = ['@types/node@24'];
  const install = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
  run('npm', [...install, ...tarballs, ...new Set(optionalPeers), ...types], app);

  // Every entry point the packed manifests export, type-checked from the app like main.ts's imports.
  const entries = packages.flatMap((p) => {
    const manifest = readJson(join(app, 'node_modules', p.name, 'package.json'));
    return Object.keys(manifest.exports ?? { '.': '' })
      .filter((key) => !key.includes('*') && !key.endsWith('.json'))
      .map((key) => p.name + key.slice(1));
  });
  const exported = entries.map((entry, i) => `export type * as entry${i} from '${entry}';`);
  writeFileSync(join(app, 'entries.ts'), `${exported.join('\n')}\n`);
  console.log(`\nType-checking the app and these entry points: ${entries.join(', ')}`);
  try {
    run(bin('tsc'), ['-p', 'tsconfig.json'], app);
  } catch (error) {
    console.error(
      '\nA strict app (skipLibCheck off, lib es2023 without the DOM, types: node only) does not type-check' +
        " against the packed declarations: a package's public types must not need types or libs its consumer" +
        ' would have to add (e.g. name its own types rather than a dependency whose declarations need them).',
    );
    throw error;
  }
  run(process.execPath, ['main.ts'], app);

  // A new team's way in: npm create tessera, install, serve, test, from an empty folder on the oldest Node.
  const creator = packages.find((p) => p.name === 'create-tessera');
  if (!creator) throw new Error('create-tessera is not among the public packages');
  await checkCreatedApp({ work, tarballs: work, creator: join(work, creator.tarball) });

  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log('\n| package | tarball | unpacked |\n| --- | ---: | ---: |');
  for (const p of packages) {
    const file = join(work, p.tarball);
    console.log(`| ${p.name} | ${kB(statSync(file).size)} | ${kB(unpackedSize(file))} |`);
  }
  console.log(
    `\nThe ${packages.length} public packages pack, lint clean, type-check and run from their tarballs; npm create tessera makes an app that installs, serves its plugin, runs its tool with the tool runner and passes its tests.`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
