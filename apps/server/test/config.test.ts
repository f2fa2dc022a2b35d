import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseModel } from '../src/choose-model.ts';
import type { ServerConfig } from '../src/config.ts';
import { ConfigError, loadConfig } from '../src/index.ts';
import { testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => t?.close());

/** The configuration the command would use, read in an empty folder (no config file) with this environment. */
const load = async (env: NodeJS.ProcessEnv) =>
  (await loadConfig({ env, cwd: await mkdtemp(join(tmpdir(), 'tessera-cwd-')) })).options;

describe('the configuration', () => {
  it('needs nothing, takes a file, and lets the environment win', async () => {
    expect(await load({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      historyTokens: 100_000,
      recoverEveryMs: 2_000,
      plugins: [],
      defaultPlugins: true,
    });
    const file = join(await mkdtemp(join(tmpdir(), 'tessera-config-')), 'config.json');
    await writeFile(file, JSON.stringify({ port: 4000, historyTokens: 5_000, skillsDirs: ['skills'] }));
    expect(
      await load({
        TESSERA_CONFIG: file,
        PORT: '4100',
        TESSERA_TOKENS: 'a-very-long-token-123=ada',
        TESSERA_RECOVER_EVERY_MS: '0',
      }),
    ).toMatchObject({
      port: 4100,
      recoverEveryMs: 0,
      historyTokens: 5_000,
      skillsDirs: ['skills'],
      auth: { tokens: { 'a-very-long-token-123': 'ada' } },
    });
  });

  it('lists every problem at once, saying where it is', async () => {
    const error = await load({
      PORT: 'eighty',
      TESSERA_HISTORY_TOKENS: '-5',
      TESSERA_TOKENS: 'short=ada',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const field of ['port', 'historyTokens', 'auth.tokens']) expect(message).toContain(field);
    await expect(load({ TESSERA_CONFIG: '/nonexistent/config.json' })).rejects.toThrow(
      'Cannot read the config file /nonexistent/config.json',
    );
  });

  it("counts OpenAI's tokens about four characters a token unless TESSERA_EXACT_TOKEN_COUNTS=true", async () => {
    const openai = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const estimates = async (env: NodeJS.ProcessEnv) =>
      chooseModel((await load(env)) as ServerConfig, undefined).model.estimateTokens;
    expect(await load(openai)).toMatchObject({ openai: { exactTokenCounts: false } });
    expect(await estimates(openai)).toBeUndefined();
    expect(await estimates({ ...openai, TESSERA_EXACT_TOKEN_COUNTS: 'true' })).toBeTypeOf('function');
    expect(await estimates({ ...openai, TESSERA_EXACT_TOKEN_COUNTS: 'false' })).toBeUndefined();
    await expect(load({ ...openai, TESSERA_EXACT_TOKEN_COUNTS: 'yes' })).rejects.toThrow(
      /openai\.exactTokenCounts/,
    );
  });

  it('bounds the history sent to the model by historyTokens, oldest whole prompts first', async () => {
    // Usage as a real model would report it: the history's size is anchored on the provider's count.
    const usage = (inputTokens: number) => ({ usage: { inputTokens, outputTokens: 2 } });
    t = await testServer([reply('One.', usage(50)), reply('Two.', usage(90)), reply('Three.', usage(50))], {
      historyTokens: 60,
      compaction: { enabled: false }, // left out, not summarized
    });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}/prompts`;
    for (const input of ['first '.repeat(30), 'second '.repeat(20), 'third']) {
      const { body } = await t.request('POST', path, { body: { input } });
      for (let i = 0; i < 200; i++) {
        if ((await t.request('GET', `/api/prompts/${body.prompt.id}`)).body.state !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const sent = JSON.stringify(t.model.requests[2]!.messages);
    expect(sent).not.toContain('first');
    expect(sent).toContain('third');
  });

  it('summarizes the older prompts by default before historyTokens would leave them out', async () => {
    const usage = (inputTokens: number) => ({ usage: { inputTokens, outputTokens: 2 } });
    t = await testServer([reply('One.', usage(50)), reply('The user said first.'), reply('Two.')], {
      historyTokens: 60,
      compaction: { keepRecent: 0 },
    });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}/prompts`;
    let last: { output: { type: string }[] } | undefined;
    for (const input of ['first '.repeat(30), 'second '.repeat(20)]) {
      const { body } = await t.request('POST', path, { body: { input } });
      for (let i = 0; i < 200; i++) {
        last = (await t.request('GET', `/api/prompts/${body.prompt.id}`)).body;
        if ((last as unknown as { state: string }).state !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    // The summary call has no tools; the answer's call reads the summary in place of the first prompt.
    expect(t.model.requests[1]!.tools).toEqual([]);
    const sent = JSON.stringify(t.model.requests[2]!.messages);
    expect(sent).toContain('The user said first.');
    expect(sent).not.toContain('first first');
    expect(sent).toContain('second');
    expect(last?.output[0]).toMatchObject({ type: 'compaction', prompts: 1, threshold: 60 });
  });
});
