import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '@tessera/server';

const BIN = fileURLToPath(new URL('../../bin/tessera.js', import.meta.url));

export type Run = { code: number | null; stdout: string; stderr: string };

/**
 * A server for the CLI's tests (its own data folder, one user `ada` with `token`), the real `tessera`
 * command run against it in a child process, and its API as that user.
 */
export async function cliServer(
  name: string,
  token: string,
  options: Omit<Parameters<typeof createServer>[0], 'dataDir' | 'auth'>,
) {
  const dataDir = await mkdtemp(join(tmpdir(), `tessera-cli-${name}-`));
  const server = await createServer({ dataDir, auth: { tokens: { [token]: 'ada' } }, ...options });
  const { url } = await server.listen({ port: 0 });

  /** The real `tessera` command, in a child process, against this server. */
  const tessera = (args: string[]): Promise<Run> => {
    const { INIT_CWD, npm_lifecycle_event, TESSERA_TOKEN, TESSERA_URL, ...inherited } = process.env;
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dataDir,
      env: { ...inherited, NO_COLOR: '1', TESSERA_URL: url, TESSERA_TOKEN: token },
    });
    const run: Run = { code: null, stdout: '', stderr: '' };
    child.stdout.on('data', (chunk) => (run.stdout += chunk));
    child.stderr.on('data', (chunk) => (run.stderr += chunk));
    return new Promise((resolve) => child.on('close', (code) => resolve({ ...run, code })));
  };

  /** The API as the user, JSON in and out. */
  const api = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return response.json();
  };

  const close = async () => {
    await server.close({ graceMs: 50 });
    await rm(dataDir, { recursive: true, force: true });
  };
  return { server, url, dataDir, tessera, api, close };
}

/** Polls until `check` gives a value; fails past `timeoutMs` (generous: CI machines are loaded). */
export async function until<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
