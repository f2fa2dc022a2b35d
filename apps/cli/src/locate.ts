import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * The server's address: `TESSERA_URL`, else what the server itself would listen on (`HOST`, `PORT`, the
 * same variables and defaults as apps/server), so a CLI run next to `pnpm start` finds it with no setting.
 */
export function serverUrl(env: Env): string {
  if (env.TESSERA_URL) return env.TESSERA_URL.replace(/\/+$/, '');
  const host = env.HOST && env.HOST !== '0.0.0.0' && env.HOST !== '::' ? env.HOST : '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 3000}`;
}

export type FoundToken = { token: string; source: string };

/**
 * The local server's token file, looked for from `cwd` up to the workspace root: in the server's data
 * directory (`TESSERA_DATA_DIR` or `.tessera`) beside each folder and under its `apps/server`, where
 * `pnpm start` runs the server. The first that exists wins.
 */
export function tokenFileCandidates(cwd: string, env: Env): string[] {
  const dataDir = env.TESSERA_DATA_DIR || '.tessera';
  if (isAbsolute(dataDir)) return [join(dataDir, 'local-token')];
  const candidates: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    candidates.push(join(dir, dataDir, 'local-token'), join(dir, 'apps', 'server', dataDir, 'local-token'));
    // The workspace root ends the walk: nothing above it belongs to this checkout.
    if (existsSync(join(dir, 'pnpm-workspace.yaml')) || dirname(dir) === dir) return candidates;
  }
}

/** The token from the option, `TESSERA_TOKEN`, or the local server's token file; undefined if none. */
export function findToken(option: string | undefined, cwd: string, env: Env): FoundToken | undefined {
  if (option) return { token: option, source: '--token' };
  if (env.TESSERA_TOKEN) return { token: env.TESSERA_TOKEN, source: 'TESSERA_TOKEN' };
  for (const file of tokenFileCandidates(cwd, env)) {
    try {
      const token = readFileSync(file, 'utf8').trim();
      if (token) return { token, source: file };
    } catch {
      // not here: look further up
    }
  }
  return undefined;
}
