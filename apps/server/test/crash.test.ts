import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { reply, ScriptedModel } from '@tessera/testing';
import { expect, it } from 'vitest';
import { createServer } from '../src/index.ts';
import { ALICE } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field in the test
type Json = Record<string, any>;
const api =
  (url: string) =>
  async (method: string, path: string, body?: unknown): Promise<Json> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Json;
  };

it('recovers a prompt after the server process is killed mid-prompt', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-crash-'));
  const child = spawn(
    process.execPath,
    [new URL('./support/server-process.ts', import.meta.url).pathname, dataDir, ALICE],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const first = await new Promise<{ url: string }>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    });
    const call = api(first.url);
    const conversation = await call('POST', '/api/conversations', {});
    const { prompt } = await call('POST', `/api/conversations/${conversation.id}/prompts`, {
      input: 'Take your time',
    });
    expect(prompt.state).toBe('running');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    // A new server over the same data directory finds the prompt left running and finishes it.
    const model = new ScriptedModel([reply('Recovered: here is my answer.')]);
    const second = await createServer({
      dataDir,
      auth: { tokens: { [ALICE]: 'alice' } },
      model,
      webDir: null,
    });
    try {
      const get = api((await second.listen({ port: 0 })).url);
      let recovered = await get('GET', `/api/prompts/${prompt.id}`);
      for (let i = 0; i < 200 && recovered.state === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        recovered = await get('GET', `/api/prompts/${prompt.id}`);
      }
      expect(recovered.state).toBe('completed');
      expect(recovered.output.map((o: { type: string }) => o.type)).toEqual(['text']);
      expect(recovered.output[0].text).toBe('Recovered: here is my answer.');
      expect(model.requests[0]?.messages).toEqual([
        { type: 'message', role: 'user', content: 'Take your time' },
      ]);
    } finally {
      await second.close({ graceMs: 50 });
    }
  } finally {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
});
