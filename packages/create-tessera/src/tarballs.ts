// `--packages-from <folder>`: packed packages (.tgz, as `npm pack` or `pnpm pack` make them) that an app
// installs instead of the registry's, before they are published.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { UsageError } from './names.ts';

/** The manifest of a packed package: `package/package.json` in the tarball (ustar: 512-byte blocks). */
export function readPackedManifest(tarball: string): { name: string; version: string } {
  const tar = gunzipSync(readFileSync(tarball));
  const text = (from: number, length: number) =>
    tar.toString('utf8', from, from + length).replace(/\0[\s\S]*$/, '');
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = Number.parseInt(text(at + 124, 12).trim(), 8) || 0;
    const prefix = text(at + 257, 5) === 'ustar' ? text(at + 345, 155) : '';
    const name = prefix ? `${prefix}/${text(at, 100)}` : text(at, 100);
    if (/^[^/]+\/package\.json$/.test(name)) {
      const manifest = JSON.parse(tar.toString('utf8', at + 512, at + 512 + size)) as {
        name?: unknown;
        version?: unknown;
      };
      if (typeof manifest.name === 'string' && typeof manifest.version === 'string') {
        return { name: manifest.name, version: manifest.version };
      }
      break;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new UsageError(
    `${tarball} is not a packed package: it has no package.json with a name and a version.`,
  );
}

/** Each package name of the folder's tarballs, with the `file:` specifier of its tarball (an absolute path). */
export function packagesFrom(folder: string): Map<string, string> {
  const absolute = resolve(folder);
  if (!statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--packages-from: ${absolute} is not a folder.`);
  }
  const found = new Map<string, string>();
  for (const file of readdirSync(absolute).filter((name) => name.endsWith('.tgz'))) {
    const { name } = readPackedManifest(join(absolute, file));
    if (found.has(name)) throw new UsageError(`--packages-from: ${absolute} holds two tarballs of ${name}.`);
    found.set(name, `file:${join(absolute, file)}`);
  }
  if (found.size === 0) throw new UsageError(`--packages-from: ${absolute} holds no .tgz file.`);
  return found;
}
