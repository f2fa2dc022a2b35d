// `pnpm pack:packages <folder>`: every public package of the workspace packed into <folder> as `pnpm publish`
// would publish it (prepack builds dist, publishConfig swaps in exports and bin, workspace: ranges become
// versions). With them an app installs Tessera before it is on a registry:
// `npx -p <folder>/create-tessera-<version>.tgz create-tessera my-app --packages-from <folder>`.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(import.meta.dirname, '..');

export type PublicPackage = { name: string; version: string; path: string; tarball: string };

/** The workspace's packages that are not private, with the file name `pnpm pack` gives each. */
export function publicPackages(): PublicPackage[] {
  const listed: { name: string; version: string; path: string; private?: boolean }[] = JSON.parse(
    execFileSync('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], { cwd: root, encoding: 'utf8' }),
  );
  return listed
    .filter((p) => !p.private)
    .map((p) => ({ ...p, tarball: `${p.name.replace('@', '').replace('/', '-')}-${p.version}.tgz` }));
}

export function packPackages(destination: string, packages = publicPackages()): PublicPackage[] {
  mkdirSync(destination, { recursive: true });
  const args = [...packages.flatMap((p) => ['--filter', p.name]), 'pack', '--pack-destination', destination];
  console.log(`\n$ pnpm ${args.join(' ')}`);
  execFileSync('pnpm', args, { cwd: root, stdio: 'inherit' });
  return packages;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const destination = process.argv[2];
  if (!destination) {
    console.error('Usage: pnpm pack:packages <folder>');
    process.exit(2);
  }
  // The folder is relative to where pnpm was run (INIT_CWD); this script runs at the root.
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm for a script, no turbo task reads it
  const folder = resolve(process.env.INIT_CWD ?? process.cwd(), destination);
  const packed = packPackages(folder);
  console.log(
    `\n${packed.length} packages packed into ${folder}:\n${packed.map((p) => `  ${p.tarball}`).join('\n')}`,
  );
}
