// The tessera-server command as an operator meets it: a port in use, Ctrl-C, under pnpm too.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

const MAIN = join(import.meta.dirname, '../src/main.ts');
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-command-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A process's output and how it ended; `untilRunning` resolves once the server printed its link. */
function watch(child: ChildProcess) {
  let output = '';
  let onRunning: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    onRunning = resolve;
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Tessera is running')) onRunning();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>(
    (resolve) => child.once('close', (code, signal) => resolve({ code, signal, output })),
  );
  return {
    untilRunning: () => Promise.race([running, exited.then(() => {})]),
    exited,
    output: () => output,
  };
}

/**
 * pnpm's own script: the one running these tests (`pnpm test` names it in npm_execpath), else the one on PATH,
 * run with this Node. (Spawning `pnpm` itself could start it through the `node` shell wrapper of
 * node_modules/.bin, one more shell for Ctrl-C to kill, that a terminal does not have.)
 */
function pnpmScript(): string {
  const named = process.env.npm_execpath;
  if (named?.includes('pnpm')) return named;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const found = join(folder, 'pnpm');
    if (existsSync(found) && /\.c?js$/.test(realpathSync(found))) return realpathSync(found);
  }
  throw new Error('These tests need pnpm: run them with `pnpm test`.');
}

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOST: '127.0.0.1',
  PORT: '0',
  TESSERA_DATA_DIR: dataDir,
  ...extra,
});

it('says in one line that the port is in use, and exits 1', async () => {
  const taken = createNetServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const child = spawn(process.execPath, [MAIN], { cwd: dataDir, env: env({ PORT: String(port) }) });
    const { code, output } = await watch(child).exited;
    expect(code).toBe(1);
    const stderr = output.split('\n').filter((line) => line && !line.startsWith('{')); // pino logs are JSON
    expect(stderr).toEqual([`Port ${port} is in use; set PORT=<another port> (or stop what is using it).`]);
  } finally {
    taken.close();
  }
});

it('stops on Ctrl-C (SIGINT) and exits 0, without a stack', async () => {
  const child = spawn(process.execPath, [MAIN], { cwd: dataDir, env: env() });
  const run = watch(child);
  await run.untilRunning();
  child.kill('SIGINT');
  const { code, signal, output } = await run.exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(output).toContain('"msg":"stopped"');
  expect(output).not.toMatch(/\n\s+at /);
});

it('stops on Ctrl-C under `pnpm start` with no failure from pnpm', async () => {
  // pnpm runs the script through sh (and `node` is a shell wrapper here): Ctrl-C reaches the whole process
  // group, so the script keeps those shells from dying of it, and pnpm sees the server's exit code.
  const child = spawn(process.execPath, [pnpmScript(), 'start'], {
    cwd: join(import.meta.dirname, '..'),
    env: env(),
    detached: true, // its own process group, as a terminal's foreground job
  });
  const run = watch(child);
  const ended = run.exited.finally(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL'); // whatever the group left running, if the test failed
    } catch {}
  });
  await run.untilRunning();
  process.kill(-child.pid!, 'SIGINT'); // what Ctrl-C does: the signal to every process of the group
  const { code, output } = await ended;
  expect(output).not.toMatch(/ELIFECYCLE|Command failed|\n\s+at /);
  expect(code).toBe(0);
  expect(output).toContain('"msg":"stopped"');
});

it('logs its requests on stdout while it runs (in batches, not held until it exits)', async () => {
  const child = spawn(process.execPath, [MAIN], { cwd: dataDir, env: env() });
  const run = watch(child);
  try {
    await run.untilRunning();
    const url = /Tessera is running: (http:\/\/[^/\s]+)/.exec(run.output())?.[1];
    expect(url).toBeDefined();
    await (await fetch(`${url}/health`)).text();
    // No exit to flush it: the line comes with its batch (the test's timeout is the bound).
    while (!run.output().includes('"route":"/health"'))
      await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    child.kill('SIGINT');
    await run.exited;
  }
});
