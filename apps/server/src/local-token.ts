import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Shorter than this, a kept secret is not one (an empty or truncated file): a new one replaces it. */
const MIN_SECRET_LENGTH = 32;

/** A random secret kept in `dataDir/name` (owner-only), generated once so that restarts keep it. */
async function persistedSecret(dataDir: string, name: string): Promise<string> {
  const file = join(dataDir, name);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  // An empty key would sign cookies anyone can forge; an empty token would let a bare `Bearer` in.
  if (/^[\x21-\x7e]+$/.test(kept) && kept.length >= MIN_SECRET_LENGTH) return kept;
  const secret = randomBytes(24).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The token of the local user: generated once, kept in the data directory so restarts keep it. */
export const localToken = (dataDir: string): Promise<string> => persistedSecret(dataDir, 'local-token');

/** The key that signs session cookies: kept, so a restart does not sign everyone out. */
export const sessionSecret = (dataDir: string): Promise<string> => persistedSecret(dataDir, 'session-secret');
