// The `tessera-server` bin (src/bin.ts, dist/bin.js when published): .env, then the server. Its restart with
// --experimental-strip-types on Node 22.12 to 22.17 is checked by `pnpm check:packages`, on Node 22.12.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { unsupportedNode } from '../src/node-version.ts';

const BIN = join(import.meta.dirname, '../src/bin.ts');
let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tessera-bin-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

it('reads .env from the current folder, the environment winning over it', async () => {
  const token = 'token-from-dot-env-0123';
  // PORT from the file would stop the server (not a port); the environment's is used.
  await writeFile(join(folder, '.env'), `TESSERA_TOKENS=${token}=ada\nPORT=not-a-port\n`);
  const child = spawn(process.execPath, [BIN], {
    cwd: folder,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      TESSERA_DATA_DIR: join(folder, 'data'),
    },
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const link = /Tessera is running: (http:\/\/\S+)/.exec(output);
        if (link) resolve(link[1]!);
        if (link || child.exitCode !== null) clearInterval(timer);
        if (!link && child.exitCode !== null) reject(new Error(output));
      }, 50);
    });
    expect(url).not.toContain('#token='); // tokens are configured: no local token
    const me = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { userId: string }).userId).toBe('ada');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});

it('says in a line that it needs Node 22.12 on an older Node, instead of failing on a flag that Node lacks', async () => {
  // A tessera.config.ts would have it restart with --experimental-strip-types, a "bad option" on Node 20.
  await writeFile(join(folder, 'tessera.config.ts'), 'export default {};\n');
  const olderNode = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
  const child = spawn(process.execPath, ['--import', olderNode, BIN], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', PORT: '0', TESSERA_DATA_DIR: join(folder, 'data') },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect({ code, stdout, stderr }).toEqual({
    code: 1,
    stdout: '',
    stderr: 'tessera-server needs Node.js 22.12 or later; this is Node 20.20.2.\n',
  });
});

it('runs on Node 22.12 and later only', () => {
  for (const version of ['20.20.2', 'v20.20.2', '22.11.0', '22.6.0', '18.0.0'])
    expect(unsupportedNode(version)).toMatch(/^tessera-server needs Node\.js 22\.12 or later; this is Node /);
  for (const version of ['22.12.0', 'v22.18.0', '23.0.0', '24.9.0', '25.1.0'])
    expect(unsupportedNode(version)).toBeUndefined();
});
