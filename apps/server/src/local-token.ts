import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The token of the local user: generated once, kept in the data directory so restarts keep it. */
export async function localToken(dataDir: string): Promise<string> {
  const file = join(dataDir, 'local-token');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const token = randomBytes(24).toString('base64url');
    await writeFile(file, `${token}\n`, { mode: 0o600 });
    return token;
  }
}
