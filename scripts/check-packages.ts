// The packaging check (`pnpm check:packages`): what a team gets that installs Tessera from the registry.
// Packs every public package as `pnpm publish` would (prepack builds dist, publishConfig.exports swaps in),
// lints each tarball with publint and attw, installs the tarballs with npm in a scratch app outside the
// workspace, and there type-checks and runs package-consumer/main.ts. Prints each package's packed size.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');
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

const listed: { name: string; version: string; private?: boolean }[] = JSON.parse(
  execFileSync('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], { cwd: root, encoding: 'utf8' }),
);
const packages = listed
  .filter((p) => !p.private)
  .map((p) => ({ ...p, tarball: `${p.name.replace('@', '').replace('/', '-')}-${p.version}.tgz` }));

const plain = ['--no-emoji', '--no-color'];
const work = mkdtempSync(join(tmpdir(), 'tessera-packages-'));
try {
  run('pnpm', [...packages.flatMap((p) => ['--filter', p.name]), 'pack', '--pack-destination', work]);
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
  const tsconfig = {
    compilerOptions: {
      strict: true,
      skipLibCheck: false,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2023',
      // PGlite's declarations use Emscripten's global types without referencing them (a gap of PGlite's).
      types: ['node', 'emscripten'],
      noEmit: true,
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
    },
    files: ['main.ts'],
  };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
  copyFileSync(join(import.meta.dirname, 'package-consumer', 'main.ts'), join(app, 'main.ts'));
  const tarballs = packages.map((p) => join(work, p.tarball));
  const types = ['@types/node@24', '@types/emscripten'];
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, ...types], app);
  run(bin('tsc'), ['-p', 'tsconfig.json'], app);
  run(process.execPath, ['main.ts'], app);

  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log('\n| package | tarball | unpacked |\n| --- | ---: | ---: |');
  for (const p of packages) {
    const file = join(work, p.tarball);
    console.log(`| ${p.name} | ${kB(statSync(file).size)} | ${kB(unpackedSize(file))} |`);
  }
  console.log(
    `\nThe ${packages.length} public packages pack, lint clean, type-check and run from their tarballs.`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
