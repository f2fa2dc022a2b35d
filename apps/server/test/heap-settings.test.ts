// The server process's V8 heap settings (heap-settings.ts): added in place, once, unless the operator set them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS, missingHeapFlags } from '../src/heap-settings.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');

/** The command line of the server process `main.ts` runs as, read from /proc once it says it runs. */
async function serverCommandLine(extra: Record<string, string> = {}): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-heap-'));
  const child = spawn(process.execPath, [MAIN], {
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
    return readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
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

  it.runIf(process.platform === 'linux')('runs the server in its own process with them', async () => {
    const args = await serverCommandLine();
    expect(args.slice(1, 3)).toEqual([...HEAP_FLAGS]);
    expect(args.at(-1)).toBe(MAIN);
  });

  it.runIf(process.platform === 'linux')(
    "keeps Node's own sizing with TESSERA_NODE_HEAP=default",
    async () => {
      expect(await serverCommandLine({ TESSERA_NODE_HEAP: 'default' })).toEqual([process.execPath, MAIN]);
    },
  );
});
