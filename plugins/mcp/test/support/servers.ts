// Real MCP servers from npm (devDependencies), run with the repository's Node through their bin files.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const binOf = (name: string) =>
  join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist/index.js');

export const EVERYTHING = binOf('server-everything');
export const FILESYSTEM = binOf('server-filesystem');
export const TOOLBOX = fileURLToPath(new URL('../fixtures/toolbox-server.ts', import.meta.url));

/** Settings of a stdio server run by this Node. */
export const stdio = (file: string, ...args: string[]) => ({
  command: process.execPath,
  args: [file, ...args],
});

/** Quick reconnection for tests. */
export const timing = { reconnectDelayMs: 100, maxReconnectDelayMs: 500, connectTimeoutMs: 10_000 };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}.`);
    const open = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Nothing listens on port ${port}.`);
}

/**
 * The everything server over HTTP (`streamableHttp` or the older `sse`) on a free loopback port; `stop()`
 * kills it, `start()` runs it again on the same port.
 */
export async function httpEverything(mode: 'streamableHttp' | 'sse') {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(process.execPath, [EVERYTHING, mode], {
      env: { ...process.env, PORT: String(port) },
      stdio: 'ignore',
    });
    await waitForPort(port, child);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`, start, stop };
}

/** Resolves when `check` holds, polling; throws with `what` after `ms`. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
