// The server process's V8 heap settings (heap-settings.ts): added in place, once, unless the operator set them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS, missingHeapFlags, missingMallocSettings } from '../src/heap-settings.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');

/** The command line and environment of the server process `main.ts` runs as, read from /proc once it runs. */
async function serverProcess(
  extra: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<{ args: string[]; env: Record<string, string> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-heap-'));
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', TESSERA_DATA_DIR: dataDir, ...extra },
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  try {
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Tessera is running')) resolve();
      });
      child.once('close', () => reject(new Error(`the server exited: ${output}`)));
    });
    // The pid spawn() gave is the server's: it was run again in place, not as a child.
    const read = (file: string) =>
      readFileSync(`/proc/${child.pid}/${file}`, 'utf8').split('\0').filter(Boolean);
    const env = Object.fromEntries(read('environ').map((entry) => entry.split(/=(.*)/s).slice(0, 2)));
    return { args: read('cmdline'), env };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('the heap settings', () => {
  it('adds only the flags neither the command line nor NODE_OPTIONS sets, whatever their value', () => {
    expect(missingHeapFlags([], undefined)).toEqual([...HEAP_FLAGS]);
    expect(missingHeapFlags(['--max-semi-space-size=64'], undefined)).toEqual(['--heap-growing-percent=25']);
    expect(missingHeapFlags([], '--heap_growing_percent=50  --max-semi-space-size=4')).toEqual([]);
    expect(missingHeapFlags(['--inspect'], '--max-old-space-size=512')).toEqual([...HEAP_FLAGS]);
  });

  it("sets glibc's arenas on Linux unless the environment does", () => {
    expect(missingMallocSettings({}, 'linux')).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(missingMallocSettings({ MALLOC_ARENA_MAX: '8' }, 'linux')).toEqual({});
    expect(missingMallocSettings({}, 'darwin')).toEqual({});
  });

  it.runIf(process.platform === 'linux')('runs the server in its own process with them', async () => {
    const { args, env } = await serverProcess();
    expect(args.slice(1, 3)).toEqual([...HEAP_FLAGS]);
    expect(args.at(-1)).toBe(MAIN);
    expect(env.MALLOC_ARENA_MAX).toBe('2');
  });

  it.runIf(process.platform === 'linux')('keeps what the operator set, and runs once', async () => {
    const given = ['--heap-growing-percent=50'];
    const { args, env } = await serverProcess(
      { MALLOC_ARENA_MAX: '4', NODE_OPTIONS: '--max-semi-space-size=8' },
      given,
    );
    expect(args).toEqual([process.execPath, ...given, MAIN]);
    expect(env.MALLOC_ARENA_MAX).toBe('4');
  });

  it.runIf(process.platform === 'linux')(
    "keeps Node's and the C library's own sizing with TESSERA_NODE_HEAP=default",
    async () => {
      const { args, env } = await serverProcess({ TESSERA_NODE_HEAP: 'default' });
      expect(args).toEqual([process.execPath, MAIN]);
      expect(env.MALLOC_ARENA_MAX).toBeUndefined();
    },
  );
});
