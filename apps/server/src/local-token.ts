import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A random secret kept in `dataDir/name` (owner-only), generated once so that restarts keep it. */
async function persistedSecret(dataDir: string, name: string): Promise<string> {
  const file = join(dataDir, name);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}

/** The token of the local user: generated once, kept in the data directory so restarts keep it. */
export const localToken = (dataDir: string): Promise<string> => persistedSecret(dataDir, 'local-token');

/** The key that signs session cookies: kept, so a restart does not sign everyone out. */
export const sessionSecret = (dataDir: string): Promise<string> => persistedSecret(dataDir, 'session-secret');
