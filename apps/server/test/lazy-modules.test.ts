// What a server loads only when it is used: the AI SDK with the first AI SDK chat, pino-pretty only for a
// terminal's log lines. Counted in a process of its own, with Node's module hooks (vitest loads modules its way).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const INDEX = pathToFileURL(join(import.meta.dirname, '../src/index.ts')).href;
const LOG_OUTPUT = pathToFileURL(join(import.meta.dirname, '../src/log-output.ts')).href;

/** The packages a server loads from start to its first requests, `then` sent after it listens. */
async function packagesLoaded(then: string): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-lazy-'));
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = new Set();
    registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
    const { createLog } = await import(${JSON.stringify(LOG_OUTPUT)});
    createLog('json').info('a JSON line');
    const { createServer } = await import(${JSON.stringify(INDEX)});
    const { MemoryStore } = await import('@tessera/core');
    const server = await createServer({
      dataDir: ${JSON.stringify(dataDir)},
      store: new MemoryStore(),
      auth: { tokens: { 'lazy-token-0123456789': 'ada' } },
      webDir: null,
    });
    const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
    const headers = { authorization: 'Bearer lazy-token-0123456789', 'content-type': 'application/json' };
    ${then}
    await server.close();
    const names = [...loaded].flatMap((u) => /node_modules\\/(?:\\.pnpm\\/[^/]+\\/node_modules\\/)?((?:@[^/]+\\/)?[^/]+)/.exec(u)?.[1] ?? []);
    console.log(JSON.stringify([...new Set(names)]));
  `;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..'),
      env: { PATH: process.env.PATH ?? '' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

it('loads neither the AI SDK nor pino-pretty until an AI SDK chat comes, when it logs JSON', async () => {
  const idle = await packagesLoaded(`await fetch(url + '/api/me', { headers });`);
  expect(idle).toContain('hono'); // the hook saw the server's packages
  expect(idle).not.toContain('ai');
  expect(idle).not.toContain('pino-pretty');

  const chatted = await packagesLoaded(`
    const response = await fetch(url + '/api/ai-sdk/chat', {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: 'chat-1', trigger: 'submit-message', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] }),
    });
    const answer = await response.text();
    if (response.status !== 200) throw new Error(response.status + ' ' + answer);
  `);
  expect(chatted).toContain('ai');
});
