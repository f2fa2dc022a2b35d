// Which Node.js `tessera-server` runs on: 22.12 or later (its `engines`). Kept apart from everything else, so
// that the command can say so on an older Node before anything that needs a newer one is loaded.

/**
 * Why `tessera-server` does not run on Node `version` (`process.versions.node`), as a line to print, or
 * `undefined` when it runs there. On an older Node it would fail obscurely: a `tessera.config.ts` restarts it
 * with `--experimental-strip-types`, which Node 20 refuses as a "bad option".
 */
export function unsupportedNode(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) return undefined;
  return `tessera-server needs Node.js 22.12 or later; this is Node ${version.replace(/^v/, '')}.`;
}
