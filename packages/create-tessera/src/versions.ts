// The version ranges a scaffold depends on: this package's devDependencies. Packed, they are ranges such as
// `^0.1.0` (pnpm writes the workspace's versions in place of `workspace:^`), so each release of
// create-tessera makes apps of the Tessera release it was packed with; in the workspace they are read from the
// packages themselves.
import { readFileSync } from 'node:fs';

const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;

/** The range to depend on for each package a scaffold may name. */
export function versionRanges(): Record<string, string> {
  // src/ and dist/ are both one folder below the package.
  const manifest = readJson(new URL('../package.json', import.meta.url));
  const ranges = manifest.devDependencies as Record<string, string>;
  return Object.fromEntries(
    Object.entries(ranges).map(([name, range]) => {
      const workspace = /^workspace:([\^~]?)/.exec(range);
      if (!workspace) return [name, range];
      const linked = readJson(new URL(`../node_modules/${name}/package.json`, import.meta.url));
      return [name, `${workspace[1] ?? ''}${linked.version as string}`];
    }),
  );
}
